package org.bgbench.validation;

import java.util.List;
import java.util.Locale;

/**
 * What validation found.
 *
 * @param recordsRead            log records read (reads and writes)
 * @param readRecords            read records among them
 * @param writeRecords           write records among them
 * @param readsChecked           reads checked (every read record except the skipped ones)
 * @param unpredictableReads     reads that observed unpredictable data
 * @param pct                    100 · unpredictableReads / readsChecked, 0 when nothing was checked
 * @param readsSkipped           reads not decided, see {@link Verdict#SKIPPED} (0 for BG's delta logs)
 * @param readsOfUnwrittenItems  checked reads of items no logged write touched (valid iff observed = the item's value)
 * @param readsWithoutOverlap    checked reads of written items that no write overlapped (one acceptable value)
 * @param perAction              per action code, ascending, codes with reads only
 * @param samples                the earliest unpredictable reads (by start time), at most the sample limit
 * @param freshness              the freshness-confidence curve (empty if no read followed a completed write)
 * @param freshnessHorizonMs     Δ of the curve: the given horizon, else the time the logs span
 * @param freshnessReads         checked reads that started after a write on their item had ended (the curve's reads)
 * @param freshnessBeyondHorizon of those, reads later than Δ after the write (in no bucket; only with a given horizon)
 * @param files                  log files read
 * @param partialRecords         incomplete last records ignored (a writer that crashed mid-flush)
 * @param invalidRecords         records skipped after an invalid tag (corruption)
 * @param partitions             partitions the records were split into
 * @param spilled                whether partitions went to temporary files (the logs did not fit the memory limit)
 * @param spillBytes             bytes written to temporary files
 * @param threads                validation threads
 * @param seconds                wall-clock time validation took
 * @param warnings               things the user should know (damage in files given without a manifest, memory)
 * @param complete               whether the logs were all there and intact, as their manifest says they should be;
 *                               when false, {@code pct} is not the run's share of unpredictable reads: see
 *                               {@code incompleteReason}
 * @param incompleteReason       why not, and what that means for the reads (none checked when writes are missing;
 *                               the rest checked soundly when only reads were lost), or null
 * @param problems               what is wrong with which file, where
 * @param readsUnchecked         reads the run logged that could not be checked (a lower bound without a manifest)
 * @param feedReads              View News Feed reads among the read records (dissertation 6.1.2); their counts are
 *                               in {@code perAction} under the VNF action, and they are in {@code freshness} too
 * @param feedShares             Share Resource writes logged
 * @param feedFriendshipChanges  friendship changes (AFR, TF) logged for the feeds
 * @param feedFreshness          the freshness-confidence curve of the feed reads alone: time since the latest
 *                               completed write relevant to the member's feed (a share she may see by one of her
 *                               producers, or a change of her friendships)
 * @param feedFreshnessReads     checked feed reads that followed such a write (the feed curve's reads)
 */
public record ValidationResult(
        long recordsRead,
        long readRecords,
        long writeRecords,
        long readsChecked,
        long unpredictableReads,
        double pct,
        long readsSkipped,
        long readsOfUnwrittenItems,
        long readsWithoutOverlap,
        List<ActionStats> perAction,
        List<UnpredictableRead> samples,
        List<FreshnessBucket> freshness,
        double freshnessHorizonMs,
        long freshnessReads,
        long freshnessBeyondHorizon,
        int files,
        long partialRecords,
        long invalidRecords,
        int partitions,
        boolean spilled,
        long spillBytes,
        int threads,
        double seconds,
        List<String> warnings,
        boolean complete,
        String incompleteReason,
        List<LogProblem> problems,
        long readsUnchecked,
        long feedReads,
        long feedShares,
        long feedFriendshipChanges,
        List<FreshnessBucket> feedFreshness,
        long feedFreshnessReads) {

    public ValidationResult {
        problems = List.copyOf(problems);
        perAction = List.copyOf(perAction);
        samples = List.copyOf(samples);
        freshness = List.copyOf(freshness);
        warnings = List.copyOf(warnings);
        feedFreshness = List.copyOf(feedFreshness);
    }

    /** Records per second validation processed. */
    public double recordsPerSecond() {
        return seconds > 0 ? recordsRead / seconds : 0;
    }

    /** A human-readable report. */
    public String summary() {
        StringBuilder sb = new StringBuilder();
        if (!complete) {
            sb.append("validation INCOMPLETE: ").append(incompleteReason).append(System.lineSeparator());
            for (LogProblem p : problems) {
                sb.append("  ").append(p).append(System.lineSeparator());
            }
        }
        sb.append(String.format(Locale.ROOT,
                "validation: %,d reads checked (%,d item reads overlapped a write), %,d unpredictable (%.4f %%), %,d skipped;"
                        + " %,d records from %d files in %.2f s (%,.0f records/s, %d threads, %d partitions%s)%n",
                readsChecked, Math.max(0, readsChecked - readsOfUnwrittenItems - readsWithoutOverlap - feedReads),
                unpredictableReads, pct,
                readsSkipped, recordsRead, files, seconds, recordsPerSecond(),
                threads, partitions, spilled ? ", spilled " + (spillBytes >> 20) + " MiB" : ""));
        for (ActionStats a : perAction) {
            sb.append(String.format(Locale.ROOT, "  %-6s %,14d checked %,12d unpredictable (%.4f %%)%s%n", a.name(),
                    a.checked(), a.unpredictable(), a.pct(), a.skipped() > 0 ? ", " + a.skipped() + " skipped" : ""));
        }
        for (UnpredictableRead r : samples) {
            if (r.observedFeed() != null) {
                sb.append(String.format(Locale.ROOT, "  unpredictable: %s feed of member %d [%d, %d] showed %s: %s%n",
                        r.actionName(), r.item(), r.startNanos(), r.endNanos(), r.observedFeed(), r.acceptable()));
                continue;
            }
            sb.append(String.format(Locale.ROOT, "  unpredictable: %s kind %d item %d [%d, %d] observed %d, acceptable %s%n",
                    r.actionName(), r.kind(), r.item(), r.startNanos(), r.endNanos(), r.observed(), r.acceptable()));
        }
        if (!freshness.isEmpty()) {
            sb.append(String.format(Locale.ROOT, "  freshness confidence (Δ = %.1f ms, %,d reads after a write):%n",
                    freshnessHorizonMs, freshnessReads));
            for (FreshnessBucket b : freshness) {
                sb.append(String.format(Locale.ROOT, "    %10.1f..%-10.1f ms %,12d reads  p %-8s p(t <= %.1f ms) %s%n",
                        b.fromMs(), b.toMs(), b.reads(), fmt(b.p()), b.toMs(), fmt(b.cumulativeP())));
            }
        }
        if (feedReads > 0) {
            sb.append(String.format(Locale.ROOT, "  feeds: %,d reads, %,d shares, %,d friendship changes logged%n",
                    feedReads, feedShares, feedFriendshipChanges));
        }
        if (!feedFreshness.isEmpty()) {
            sb.append(String.format(Locale.ROOT, "  feed freshness confidence (%,d feed reads after a relevant write):%n",
                    feedFreshnessReads));
            for (FreshnessBucket b : feedFreshness) {
                sb.append(String.format(Locale.ROOT, "    %10.1f..%-10.1f ms %,12d reads  p %-8s p(t <= %.1f ms) %s%n",
                        b.fromMs(), b.toMs(), b.reads(), fmt(b.p()), b.toMs(), fmt(b.cumulativeP())));
            }
        }
        for (String w : warnings) {
            sb.append("  warning: ").append(w).append(System.lineSeparator());
        }
        return sb.toString();
    }

    private static String fmt(double p) {
        return Double.isNaN(p) ? "-" : String.format(Locale.ROOT, "%.5f", p);
    }
}
