package org.bgbench.validation;

import java.util.List;
import java.util.Locale;

/**
 * What validation found, in named parts: the log records read, the reads judged, the per-action and sample detail,
 * the freshness-confidence curves, the feed figures, how validation ran, and whether the logs were intact. The flat
 * accessors below ({@link #readsChecked()}, {@link #pct()}, …) read through to the parts.
 *
 * @param records       what was read from the logs
 * @param reads         what was decided about the read records
 * @param perAction     per action code, ascending, codes with reads only
 * @param samples       the earliest unpredictable reads (by start time), at most the sample limit
 * @param itemFreshness the freshness-confidence curve of all checked reads
 * @param feeds         the View News Feed figures (dissertation 6.1.2)
 * @param work          how validation ran (partitions, spilling, threads, time)
 * @param integrity     whether the logs were all there and intact, and what the user should know
 */
public record ValidationResult(
        Records records,
        Reads reads,
        List<ActionStats> perAction,
        List<UnpredictableRead> samples,
        Freshness itemFreshness,
        Feeds feeds,
        Work work,
        Integrity integrity) {

    public ValidationResult {
        perAction = List.copyOf(perAction);
        samples = List.copyOf(samples);
    }

    /**
     * The log records read.
     *
     * @param read    log records read (reads and writes)
     * @param reads   read records among them
     * @param writes  write records among them
     * @param files   log files read
     * @param partial incomplete last records ignored (a writer that crashed mid-flush)
     * @param invalid records skipped after an invalid tag (corruption)
     */
    public record Records(long read, long reads, long writes, int files, long partial, long invalid) {}

    /**
     * What was decided about the read records.
     *
     * @param checked          reads checked (every read record except the skipped ones)
     * @param unpredictable    reads that observed unpredictable data
     * @param pct              100 · unpredictable / checked, 0 when nothing was checked
     * @param skipped          reads not decided, see {@link Verdict#SKIPPED} (0 for BG's delta logs)
     * @param ofUnwrittenItems checked reads of items no logged write touched (valid iff observed = the item's value)
     * @param withoutOverlap   checked reads of written items that no write overlapped (one acceptable value)
     * @param unchecked        reads the run logged that could not be checked (a lower bound without a manifest)
     */
    public record Reads(
            long checked,
            long unpredictable,
            double pct,
            long skipped,
            long ofUnwrittenItems,
            long withoutOverlap,
            long unchecked) {

        /** No read decided: {@code unchecked} reads could not be checked. */
        public static Reads none(long unchecked) {
            return new Reads(0, 0, 0, 0, 0, 0, unchecked);
        }
    }

    /**
     * A freshness-confidence curve.
     *
     * @param curve         the buckets (empty if no read followed a completed write)
     * @param horizonMs     Δ of the curve: the given horizon, else the time the logs span
     * @param reads         checked reads that started after a write on their item had ended (the curve's reads)
     * @param beyondHorizon of those, reads later than Δ after the write (in no bucket; only with a given horizon)
     */
    public record Freshness(List<FreshnessBucket> curve, double horizonMs, long reads, long beyondHorizon) {
        public static final Freshness NONE = new Freshness(List.of(), 0, 0, 0);

        public Freshness {
            curve = List.copyOf(curve);
        }
    }

    /**
     * The feed figures.
     *
     * @param reads             View News Feed reads among the read records; their counts are in {@code perAction}
     *                          under the VNF action, and they are in the item freshness curve too
     * @param shares            Share Resource writes logged
     * @param friendshipChanges friendship changes (AFR, TF) logged for the feeds
     * @param freshness         the freshness-confidence curve of the feed reads alone: time since the latest
     *                          completed write relevant to the member's feed (a share she may see by one of her
     *                          producers, or a change of her friendships)
     * @param freshnessReads    checked feed reads that followed such a write (the feed curve's reads)
     */
    public record Feeds(
            long reads, long shares, long friendshipChanges, List<FreshnessBucket> freshness, long freshnessReads) {
        public Feeds {
            freshness = List.copyOf(freshness);
        }
    }

    /**
     * How validation ran.
     *
     * @param partitions partitions the records were split into
     * @param spilled    whether partitions went to temporary files (the logs did not fit the memory limit)
     * @param spillBytes bytes written to temporary files
     * @param threads    validation threads
     * @param seconds    wall-clock time validation took
     */
    public record Work(int partitions, boolean spilled, long spillBytes, int threads, double seconds) {}

    /**
     * Whether the logs were all there and intact.
     *
     * @param complete         whether the logs were all there and intact, as their manifest says they should be;
     *                         when false, {@code pct} is not the run's share of unpredictable reads: see
     *                         {@code incompleteReason}
     * @param incompleteReason why not, and what that means for the reads (none checked when writes are missing;
     *                         the rest checked soundly when only reads were lost), or null
     * @param problems         what is wrong with which file, where
     * @param warnings         things the user should know (damage in files given without a manifest, memory)
     */
    public record Integrity(
            boolean complete, String incompleteReason, List<LogProblem> problems, List<String> warnings) {
        public Integrity {
            problems = List.copyOf(problems);
            warnings = List.copyOf(warnings);
        }
    }

    // Flat accessors: the names the result had before it had parts.

    public long recordsRead() {
        return records.read();
    }

    public long readRecords() {
        return records.reads();
    }

    public long writeRecords() {
        return records.writes();
    }

    public int files() {
        return records.files();
    }

    public long partialRecords() {
        return records.partial();
    }

    public long invalidRecords() {
        return records.invalid();
    }

    public long readsChecked() {
        return reads.checked();
    }

    public long unpredictableReads() {
        return reads.unpredictable();
    }

    public double pct() {
        return reads.pct();
    }

    public long readsSkipped() {
        return reads.skipped();
    }

    public long readsOfUnwrittenItems() {
        return reads.ofUnwrittenItems();
    }

    public long readsWithoutOverlap() {
        return reads.withoutOverlap();
    }

    public long readsUnchecked() {
        return reads.unchecked();
    }

    public List<FreshnessBucket> freshness() {
        return itemFreshness.curve();
    }

    public double freshnessHorizonMs() {
        return itemFreshness.horizonMs();
    }

    public long freshnessReads() {
        return itemFreshness.reads();
    }

    public long freshnessBeyondHorizon() {
        return itemFreshness.beyondHorizon();
    }

    public long feedReads() {
        return feeds.reads();
    }

    public long feedShares() {
        return feeds.shares();
    }

    public long feedFriendshipChanges() {
        return feeds.friendshipChanges();
    }

    public List<FreshnessBucket> feedFreshness() {
        return feeds.freshness();
    }

    public long feedFreshnessReads() {
        return feeds.freshnessReads();
    }

    public int partitions() {
        return work.partitions();
    }

    public boolean spilled() {
        return work.spilled();
    }

    public long spillBytes() {
        return work.spillBytes();
    }

    public int threads() {
        return work.threads();
    }

    public double seconds() {
        return work.seconds();
    }

    public boolean complete() {
        return integrity.complete();
    }

    public String incompleteReason() {
        return integrity.incompleteReason();
    }

    public List<LogProblem> problems() {
        return integrity.problems();
    }

    public List<String> warnings() {
        return integrity.warnings();
    }

    /** Records per second validation processed. */
    public double recordsPerSecond() {
        return seconds() > 0 ? recordsRead() / seconds() : 0;
    }

    /** A human-readable report. */
    public String summary() {
        StringBuilder sb = new StringBuilder();
        if (!complete()) {
            sb.append("validation INCOMPLETE: ").append(incompleteReason()).append(System.lineSeparator());
            for (LogProblem p : problems()) {
                sb.append("  ").append(p).append(System.lineSeparator());
            }
        }
        sb.append(String.format(
                Locale.ROOT,
                "validation: %,d reads checked (%,d item reads overlapped a write), %,d unpredictable (%.4f %%), %,d skipped;"
                        + " %,d records from %d files in %.2f s (%,.0f records/s, %d threads, %d partitions%s)%n",
                readsChecked(),
                Math.max(0, readsChecked() - readsOfUnwrittenItems() - readsWithoutOverlap() - feedReads()),
                unpredictableReads(),
                pct(),
                readsSkipped(),
                recordsRead(),
                files(),
                seconds(),
                recordsPerSecond(),
                threads(),
                partitions(),
                spilled() ? ", spilled " + (spillBytes() >> 20) + " MiB" : ""));
        for (ActionStats a : perAction) {
            sb.append(String.format(
                    Locale.ROOT,
                    "  %-6s %,14d checked %,12d unpredictable (%.4f %%)%s%n",
                    a.name(),
                    a.checked(),
                    a.unpredictable(),
                    a.pct(),
                    a.skipped() > 0 ? ", " + a.skipped() + " skipped" : ""));
        }
        for (UnpredictableRead r : samples) {
            if (r.observedFeed() != null) {
                sb.append(String.format(
                        Locale.ROOT,
                        "  unpredictable: %s feed of member %d [%d, %d] showed %s: %s%n",
                        r.actionName(),
                        r.item(),
                        r.startNanos(),
                        r.endNanos(),
                        r.observedFeed(),
                        r.acceptable()));
                continue;
            }
            sb.append(String.format(
                    Locale.ROOT,
                    "  unpredictable: %s kind %d item %d [%d, %d] observed %d, acceptable %s%n",
                    r.actionName(),
                    r.kind(),
                    r.item(),
                    r.startNanos(),
                    r.endNanos(),
                    r.observed(),
                    r.acceptable()));
        }
        if (!freshness().isEmpty()) {
            sb.append(String.format(
                    Locale.ROOT,
                    "  freshness confidence (Δ = %.1f ms, %,d reads after a write):%n",
                    freshnessHorizonMs(),
                    freshnessReads()));
            for (FreshnessBucket b : freshness()) {
                sb.append(String.format(
                        Locale.ROOT,
                        "    %10.1f..%-10.1f ms %,12d reads  p %-8s p(t <= %.1f ms) %s%n",
                        b.fromMs(),
                        b.toMs(),
                        b.reads(),
                        fmt(b.p()),
                        b.toMs(),
                        fmt(b.cumulativeP())));
            }
        }
        if (feedReads() > 0) {
            sb.append(String.format(
                    Locale.ROOT,
                    "  feeds: %,d reads, %,d shares, %,d friendship changes logged%n",
                    feedReads(),
                    feedShares(),
                    feedFriendshipChanges()));
        }
        if (!feedFreshness().isEmpty()) {
            sb.append(String.format(
                    Locale.ROOT,
                    "  feed freshness confidence (%,d feed reads after a relevant write):%n",
                    feedFreshnessReads()));
            for (FreshnessBucket b : feedFreshness()) {
                sb.append(String.format(
                        Locale.ROOT,
                        "    %10.1f..%-10.1f ms %,12d reads  p %-8s p(t <= %.1f ms) %s%n",
                        b.fromMs(),
                        b.toMs(),
                        b.reads(),
                        fmt(b.p()),
                        b.toMs(),
                        fmt(b.cumulativeP())));
            }
        }
        for (String w : warnings()) {
            sb.append("  warning: ").append(w).append(System.lineSeparator());
        }
        return sb.toString();
    }

    private static String fmt(double p) {
        return Double.isNaN(p) ? "-" : String.format(Locale.ROOT, "%.5f", p);
    }
}
