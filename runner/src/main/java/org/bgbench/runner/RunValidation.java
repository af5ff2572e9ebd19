package org.bgbench.runner;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import org.bgbench.measurement.RunResult;
import org.bgbench.measurement.Unpredictable;
import org.bgbench.model.Action;
import org.bgbench.model.state.GraphState;
import org.bgbench.rating.Figures;
import org.bgbench.validation.ActionStats;
import org.bgbench.validation.FeedState;
import org.bgbench.validation.FreshnessBucket;
import org.bgbench.validation.LogProblem;
import org.bgbench.validation.UnpredictableRead;
import org.bgbench.validation.ValidationResult;
import org.bgbench.validation.Validator;
import org.bgbench.validation.ValueMode;
import org.bgbench.validation.log.LogDirectory;
import org.bgbench.validation.log.LogManifest;
import org.bgbench.validation.log.LogWriter;

/** Validates a run's logs against BG's expected state and puts the findings into its result (dissertation chapter 6). */
public final class RunValidation {
    private static final String[] ACTIONS =
            Stream.of(Action.values()).map(Action::name).toArray(String[]::new);

    private RunValidation() {}

    /**
     * Validates the run's logs and puts the verdict into its result. When the verdict is incomplete (logs missing,
     * cut or damaged, logging that failed or stopped while threads could still write), the result says why and which
     * file, and never meets τ.
     *
     * @param logs the run's log directory as it was written in this process, or null (then only the files speak)
     */
    public static RunResult validateInto(
            RunResult result,
            RunArtifacts artifacts,
            GraphState state,
            ValidationOptions o,
            PrintWriter progress,
            LogDirectory logs) {
        if (progress != null) {
            progress.println("bg: validating the reads of the run (logs in " + artifacts.logs() + ")");
            progress.flush();
        }
        ValidationResult v = validate(artifacts, state, o);
        Unpredictable section = section(v, o.tauPct());
        if (logs != null && logs.manifestError() != null) {
            List<Unpredictable.FileProblem> files = new ArrayList<>();
            files.add(new Unpredictable.FileProblem(LogManifest.FILE, null, logs.manifestError()));
            files.addAll(section.files());
            section = withFiles(section, files);
        }
        return into(result, section, o, artifacts);
    }

    /** Puts {@code section} into {@code result}, with a warning when it misses τ or is incomplete. */
    public static RunResult into(RunResult result, Unpredictable section, ValidationOptions o, RunArtifacts artifacts) {
        RunResult out = result.withUnpredictable(section);
        if (!section.verdictComplete()) {
            out = out.withWarning("validation incomplete: " + section.incompleteReason());
        } else if (section.pct() > o.tauPct()) {
            out = out.withWarning(String.format(
                    Locale.ROOT,
                    "%s %% of reads observed unpredictable data, more than τ = %s %% allows: the store served"
                            + " stale or wrong values",
                    Figures.of(section.pct()),
                    Figures.of(o.tauPct())));
        }
        if (!o.keepLogs() && artifacts != null && section.verdictComplete()) {
            // logs that could not be checked completely are evidence of what went wrong: kept
            deleteLogs(artifacts.logs());
        }
        return out;
    }

    private static Unpredictable withFiles(Unpredictable u, List<Unpredictable.FileProblem> files) {
        return Unpredictable.builder()
                .readsChecked(u.readsChecked())
                .unpredictableReads(u.unpredictableReads())
                .pct(u.pct())
                .tauPct(u.tauPct())
                .meetsTau(u.meetsTau())
                .readsSkipped(u.readsSkipped())
                .actions(u.actions())
                .freshness(u.freshness())
                .samples(u.samples())
                .validation(u.validation())
                .mergedFromWorkers(u.mergedFromWorkers())
                .complete(u.complete())
                .incompleteReason(u.incompleteReason())
                .readsUnchecked(u.readsUnchecked())
                .files(files)
                .build();
    }

    public static ValidationResult validate(RunArtifacts artifacts, GraphState state, ValidationOptions o) {
        int members = state.graph().members();
        long resources = state.graph().totalResources();
        return Validator.builder(
                        (kind, item) -> switch (kind) {
                            case LogWriter.FRIENDS -> state.friendCount(member(item, members, kind));
                            case LogWriter.PENDING -> state.pendingCount(member(item, members, kind));
                            case LogWriter.COMMENTS -> {
                                if (item < 0 || item >= resources) {
                                    throw notInGraph(kind, item);
                                }
                                yield state.commentCount(item);
                            }
                            default -> throw notInGraph(kind, item);
                        },
                        ValueMode.FINAL)
                .threads(o.threads())
                .memoryLimitBytes(o.memoryBytes())
                .freshnessBuckets(o.buckets())
                .actionNames(ACTIONS)
                .feeds(FeedState.of(state))
                .build()
                .validate(artifacts.logs());
    }

    /**
     * What the logs of a run hold when its reads cannot be checked because BG's expected state was not saved (the run
     * was killed before its end): an incomplete result naming every problem.
     */
    public static ValidationResult inspectWithoutState(RunArtifacts artifacts, ValidationOptions o) {
        return Validator.builder(
                        (kind, item) -> {
                            throw new IllegalStateException("no item values without an expected state");
                        },
                        ValueMode.FINAL)
                .threads(o.threads())
                .build()
                .inspect(
                        artifacts.logs(),
                        "there is no expected state beside the logs ("
                                + artifacts.dir().resolve("expected.state")
                                + "): the run ended before BG saved it, so the items' values "
                                + "are unknown");
    }

    /**
     * What the logs of a run hold when its reads cannot be checked because a piece of its evidence ({@code file}) is
     * not the run's own or cannot be read ({@link RunBinding}): an incomplete result that says so first.
     */
    public static ValidationResult inspectUnbound(
            RunArtifacts artifacts, ValidationOptions o, String file, String why) {
        return Validator.builder(
                        (kind, item) -> {
                            throw new IllegalStateException("no item values without the run's expected state");
                        },
                        ValueMode.FINAL)
                .threads(o.threads())
                .build()
                .inspect(artifacts.logs(), file, why);
    }

    private static int member(long item, int members, byte kind) {
        if (item < 0 || item >= members) {
            throw notInGraph(kind, item);
        }
        return (int) item;
    }

    private static IllegalArgumentException notInGraph(byte kind, long item) {
        return new IllegalArgumentException("a log record names " + kindName(kind) + " " + item + ", which the run's "
                + "graph does not have: the logs and the expected state beside them are not from the same run");
    }

    /** The result's {@code unpredictable} section. */
    public static Unpredictable section(ValidationResult v, double tauPct) {
        Map<String, Unpredictable.ActionReads> per = new LinkedHashMap<>();
        for (ActionStats a : v.perAction()) {
            per.put(a.name(), new Unpredictable.ActionReads(a.checked(), a.unpredictable(), a.pct()));
        }
        List<Unpredictable.Bucket> fresh = new ArrayList<>();
        for (FreshnessBucket b : v.freshness()) {
            fresh.add(new Unpredictable.Bucket(
                    b.fromMs(),
                    b.toMs(),
                    b.reads(),
                    b.valid(),
                    Double.isNaN(b.p()) ? null : b.p(),
                    Double.isNaN(b.cumulativeP()) ? null : b.cumulativeP()));
        }
        List<Unpredictable.Sample> samples = new ArrayList<>();
        for (UnpredictableRead r : v.samples()) {
            samples.add(new Unpredictable.Sample(
                    r.actionName(),
                    kindName(r.kind()) + " " + r.item(),
                    r.observed(),
                    r.acceptable(),
                    (r.endNanos() - r.startNanos()) / 1000));
        }
        List<Unpredictable.FileProblem> files = new ArrayList<>();
        for (LogProblem p : v.problems()) {
            files.add(new Unpredictable.FileProblem(p.file(), p.offset() < 0 ? null : p.offset(), p.problem()));
        }
        return Unpredictable.builder()
                .readsChecked(v.readsChecked())
                .unpredictableReads(v.unpredictableReads())
                .pct(v.pct())
                .tauPct(tauPct)
                .meetsTau(v.complete() && v.pct() <= tauPct)
                .readsSkipped(v.readsSkipped())
                .actions(per)
                .freshness(new Unpredictable.Freshness(v.freshnessHorizonMs(), v.freshnessReads(), fresh))
                .samples(samples)
                .validation(new Unpredictable.Stats(
                        v.recordsRead(),
                        v.seconds(),
                        v.recordsPerSecond(),
                        v.threads(),
                        v.partitions(),
                        v.spillBytes(),
                        v.warnings()))
                .mergedFromWorkers(null)
                .complete(v.complete())
                .incompleteReason(v.incompleteReason())
                .readsUnchecked(v.readsUnchecked())
                .files(files)
                .build();
    }

    static String kindName(byte kind) {
        return switch (kind) {
            case LogWriter.FRIENDS -> "friends of member";
            case LogWriter.PENDING -> "pending invitations of member";
            case LogWriter.COMMENTS -> "comments on resource";
            case LogWriter.FEED -> "news feed of member";
            default -> "kind " + kind;
        };
    }

    /** Lines for the run summary. */
    public static String summary(Unpredictable u) {
        if (u == null) {
            return "";
        }
        StringBuilder sb = new StringBuilder();
        if (!u.verdictComplete()) {
            sb.append("Validation INCOMPLETE: ").append(u.incompleteReason()).append(System.lineSeparator());
            int shown = 0;
            for (Unpredictable.FileProblem f : u.files()) {
                if (shown++ == 10) {
                    sb.append(String.format(
                            Locale.ROOT,
                            "  … and %d more problems (the result's unpredictable.files " + "lists them all)%n",
                            u.files().size() - 10));
                    break;
                }
                sb.append("  ").append(f).append(System.lineSeparator());
            }
            if (u.readsChecked() == 0) {
                sb.append(String.format(
                        Locale.ROOT,
                        "Unpredictable reads: none checked (%,d reads could not be); "
                                + "τ = %s %%: NOT met (validation incomplete)%n",
                        u.readsUnchecked(),
                        u.tauPct()));
            } else {
                sb.append(String.format(
                        Locale.ROOT,
                        "Unpredictable reads: %,d of the %,d reads that could be checked "
                                + "(%.4f %%; %,d could not be), τ = %s %%: NOT met (validation incomplete)%n",
                        u.unpredictableReads(),
                        u.readsChecked(),
                        u.pct(),
                        u.readsUnchecked(),
                        u.tauPct()));
            }
        } else {
            sb.append(String.format(
                    Locale.ROOT,
                    "Unpredictable reads: %,d of %,d checked (%.4f %%), τ = %s %%: %s%n",
                    u.unpredictableReads(),
                    u.readsChecked(),
                    u.pct(),
                    u.tauPct(),
                    u.meetsTau() ? "met" : "NOT met"));
        }
        u.actions()
                .forEach((a, x) -> sb.append(String.format(
                        Locale.ROOT,
                        "  %-4s %,12d reads %,10d unpredictable (%.4f %%)%n",
                        a,
                        x.readsChecked(),
                        x.unpredictableReads(),
                        x.pct())));
        Unpredictable.Freshness f = u.freshness();
        if (!f.buckets().isEmpty() && u.unpredictableReads() > 0) {
            sb.append(String.format(Locale.ROOT, "Freshness confidence (%,d reads after a write):%n", f.reads()));
            sb.append(String.format(
                    Locale.ROOT, "  %22s %12s %10s %10s%n", "time after the write", "reads", "fresh %", "p(≤ t) %"));
            for (Unpredictable.Bucket b : f.buckets()) {
                sb.append(String.format(
                        Locale.ROOT,
                        "  %9.0f – %7.0f ms %12d %10s %10s%n",
                        b.fromMs(),
                        b.toMs(),
                        b.reads(),
                        pct(b.p()),
                        pct(b.pAtMost())));
            }
            // How long after a write stale reads were still issued: from the end of the last bucket with a stale read
            // on, every read saw the latest value (e.g. a replica's apply delay).
            double staleUntil = -1;
            long after = 0;
            for (Unpredictable.Bucket b : f.buckets()) {
                if (b.valid() < b.reads()) {
                    staleUntil = b.toMs();
                    after = 0;
                } else {
                    after += b.reads();
                }
            }
            if (staleUntil >= 0 && after > 0) {
                sb.append(String.format(
                        Locale.ROOT,
                        "  stale reads came up to %.0f ms after the write; all %,d reads " + "after that were fresh%n",
                        staleUntil,
                        after));
            }
        }
        if (!u.samples().isEmpty()) {
            Unpredictable.Sample s = u.samples().get(0);
            sb.append(String.format(
                    Locale.ROOT,
                    "  e.g. %s of %s observed %s, acceptable %s%n",
                    s.action(),
                    s.item(),
                    s.observed(),
                    s.acceptable()));
        }
        return sb.toString();
    }

    private static String pct(Double p) {
        return p == null ? "-" : String.format(Locale.ROOT, "%.2f", 100 * p);
    }

    private static void deleteLogs(Path logs) {
        try (Stream<Path> files = Files.walk(logs)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // Keeping logs the user asked to drop is harmless.
        }
    }
}
