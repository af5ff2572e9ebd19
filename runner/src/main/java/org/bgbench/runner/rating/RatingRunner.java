package org.bgbench.runner.rating;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.bgbench.measurement.KindResult;
import org.bgbench.measurement.RunResult;
import org.bgbench.measurement.Stalls;
import org.bgbench.model.Durations;
import org.bgbench.model.InvalidParameterException;
import org.bgbench.rating.ExperimentFile;
import org.bgbench.rating.ExperimentRunner;
import org.bgbench.rating.Measurement;
import org.bgbench.runner.ExperimentSpec;
import org.bgbench.runner.Interrupts;
import org.bgbench.runner.OpenModel;
import org.bgbench.runner.RunArtifacts;
import org.bgbench.store.StoreException;
import org.bgbench.workload.WorkloadSpec;

/**
 * Runs a rating's experiments (dissertation chapter 7) on an {@link ExperimentExecutor}, in one process or on
 * workers: before each experiment but the first the store is reset as the {@link ResetPolicy} decides, and each
 * experiment's result is written beside the rating as it finishes ({@code NN-T<T>.json}). Keeps what the resets cost
 * for the rating-time model.
 */
public final class RatingRunner implements ExperimentRunner {
    private final ExperimentExecutor executor;
    private final WorkloadSpec workload;
    private final ExperimentSpec template;
    private final ResetPolicy policy;
    private final Path dir;
    private final PrintWriter err;
    private final boolean keepGoing;
    private boolean imageExists;
    private boolean lastClean = true;
    private boolean lastErrors;
    private boolean resetFirst;
    private int count;
    private final Map<String, Integer> resets = new LinkedHashMap<>();
    private final Map<String, Double> resetSecondsBy = new LinkedHashMap<>();
    private long repairedRelationships;
    private long repairedComments;
    private final List<String> notes = new ArrayList<>();
    private final List<String> unwritten = new ArrayList<>();
    private final List<RunResult> results = new ArrayList<>();
    /** Each completed experiment's result file (name only, beside the rating) in run order; null when unwritten. */
    private final List<ExperimentFile> runFiles = new ArrayList<>();
    /** The open model's rating: its arrivals (the rate set per experiment), null for the closed model's. */
    private OpenModel open;

    private int inFlight;
    private double rateUnit;

    /**
     * @param template  the experiments' settings; T, duration and seed are set per experiment
     * @param keepGoing on workers: a failed worker is dropped and the experiment repeated on the others
     */
    public RatingRunner(
            ExperimentExecutor executor,
            WorkloadSpec workload,
            ExperimentSpec template,
            ResetPolicy policy,
            Path dir,
            PrintWriter err,
            boolean keepGoing) {
        this.executor = executor;
        this.workload = workload;
        this.template = template;
        this.policy = policy;
        this.dir = dir;
        this.err = err;
        this.keepGoing = keepGoing;
    }

    /**
     * Makes this the open model's rating (docs/open-model.md): the search's integer becomes the arrival rate in steps
     * of {@code unit} per second, each experiment offers that rate to at most {@code inFlight} threads, and one that
     * fell behind its schedule fails the SLA.
     */
    public RatingRunner openModel(OpenModel arrivals, int inFlight, double unit) {
        if (inFlight < 1) {
            throw new InvalidParameterException("--in-flight", "must be at least 1, got " + inFlight);
        }
        if (!(unit > 0) || Double.isInfinite(unit)) {
            throw new InvalidParameterException("--rate-unit", "must be a rate above 0 per second, " + "got " + unit);
        }
        this.open = arrivals;
        this.inFlight = inFlight;
        this.rateUnit = unit;
        return this;
    }

    /**
     * This rating follows {@code previous} on the same store (the open model's after the closed model's in
     * {@code bg rate --model both}): its first experiment starts from a reset store, chosen as between two of
     * {@code previous}'s experiments, and the image {@code previous} took is used.
     */
    public RatingRunner after(RatingRunner previous) {
        this.imageExists = previous.imageExists;
        this.lastClean = previous.lastClean;
        this.lastErrors = previous.lastErrors;
        this.resetFirst = previous.count > 0;
        return this;
    }

    /** The arrival rate of the search's step {@code x}, as --arrivals reads it. */
    public String rate(int x) {
        double r = x * rateUnit;
        return r == Math.rint(r) && r < 1e15 ? Long.toString((long) r) : String.format(Locale.ROOT, "%.3f", r);
    }

    /** What experiment {@code x} is, in words: {@code T=8} or {@code 4000 arrivals/s}. */
    private String label(int x) {
        return open == null ? "T=" + x : rate(x) + " arrivals/s";
    }

    /** Takes the image the rating restores from, when the store has one and resets may use it. */
    public void prepareImage() {
        if (policy.usesImage()) {
            imageExists = executor.prepareImage(err);
        }
    }

    @Override
    public Measurement run(int threads, Duration duration) {
        if (Interrupts.interrupted()) {
            // The rating stops with what it measured; its report is still written.
            throw new StoreException("the rating was " + Interrupts.reason());
        }
        if (count > 0 || resetFirst) {
            resetFirst = false;
            reset();
        }
        count++;
        ExperimentSpec spec = template.withThreads(open == null ? threads : inFlight)
                .withDuration(duration)
                .withSeed(template.seed() + count);
        if (open != null) {
            spec = spec.withOpen(open.withArrivals(rate(threads)));
        }
        Path out = dir.resolve(
                open == null
                        ? String.format(Locale.ROOT, "%02d-T%d.json", count, threads)
                        : String.format(Locale.ROOT, "%02d-R%s.json", count, rate(threads)));
        err.printf(
                Locale.ROOT,
                "bg: experiment %d: %s for %s%s%n",
                count,
                label(threads),
                Durations.format(duration),
                executor.workers() > 1 ? " on " + executor.workers() + " workers" : "");
        ExperimentExecutor.Outcome o = executor.run(spec, out);
        if (o.unwritten() != null) {
            // measured all the same: the rating goes on, and says at its end which results it could not keep
            unwritten.add(o.unwritten());
        }
        if (!o.completed() && Interrupts.interrupted()) {
            throw new StoreException("the rating was " + Interrupts.reason() + " during experiment " + count + " at "
                    + label(threads) + "; its partial result is " + out);
        }
        if (!o.completed()) {
            if (keepGoing && !o.failedWorkers().isEmpty() && o.failedWorkers().size() < executor.workers()) {
                // The failed workers' members and states are gone: plan over the others, restore, run this T again.
                notes.add("experiment " + count + " at " + label(threads) + " failed (" + o.reason()
                        + "); continued with "
                        + (executor.workers() - o.failedWorkers().size()) + " workers as --keep-going asked");
                keepFailed(out);
                recover(o.failedWorkers());
                count--;
                return run(threads, duration);
            }
            throw new StoreException("experiment " + count + " at " + label(threads) + " "
                    + (executor.workers() > 1 ? "failed: " : "stopped: ") + o.reason());
        }
        RunResult r = o.result();
        results.add(r);
        runFiles.add(
                o.unwritten() != null
                        ? null
                        : new ExperimentFile(
                                out.getFileName().toString(),
                                new ExperimentFile.Latency(
                                        r.total().p50Ms(),
                                        r.total().p95Ms(),
                                        r.total().p99Ms())));
        // Writes still waiting when the store stopped answering may or may not have happened, as failed ones.
        lastErrors = r.total().errors() > 0
                || r.sessions().values().stream().anyMatch(k -> k.errors() > 0)
                || r.incompleteReason() != null;
        Measurement m = measurement(r);
        lastClean = r.unpredictablePct() == 0 && m.validationIncomplete() == null && !lastErrors;
        if (m.incomplete() != null) {
            err.println("bg: experiment " + count + " at " + label(threads) + " is incomplete: " + m.incomplete());
        }
        return m;
    }

    /**
     * What the rating sees of an experiment's result: errors and stuck actions count as beyond β, and a result whose
     * store stopped answering ({@link RunResult#incompleteReason()}) is incomplete and fails the SLA.
     */
    public static Measurement measurement(RunResult r) {
        KindResult total = r.total();
        // Incomplete validation fails the SLA too (the unpredictable reads are not known).
        String validationIncomplete =
                r.unpredictable() != null && !r.unpredictable().verdictComplete()
                        ? r.unpredictable().incompleteReason()
                        : null;
        Double within = total.withinBetaPctCountingErrors();
        String incomplete =
                r.incompleteReason() == null ? null : r.incompleteReason().replace(" " + Stalls.VERDICT, "");
        if (r.open() != null && !r.open().valid()) {
            // The open model: a run behind its schedule did not offer the rate it stands for, so it cannot meet it.
            incomplete =
                    (incomplete == null ? "" : incomplete + "; ") + r.open().invalidReason();
        }
        return new Measurement(
                r.throughput(),
                within == null ? 0 : Math.max(0, Math.min(100, within)),
                Math.max(0, Math.min(100, r.unpredictablePct())),
                total.errors(),
                total.count(),
                r.durationS(),
                incomplete,
                validationIncomplete);
    }

    private void keepFailed(Path out) {
        try {
            if (Files.exists(out)) {
                Files.move(
                        out,
                        out.resolveSibling(out.getFileName().toString().replaceFirst("\\.json$", "-failed.json")),
                        StandardCopyOption.REPLACE_EXISTING);
            }
            // Its interval log goes with it, so the retry's log does not replace it.
            Path hlog = RunArtifacts.hlogFor(out);
            if (Files.exists(hlog)) {
                Files.move(
                        hlog,
                        RunArtifacts.hlogFor(out.resolveSibling(
                                out.getFileName().toString().replaceFirst("\\.json$", "-failed.json"))),
                        StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            notes.add("could not keep the failed experiment's result: " + e.getMessage());
        }
    }

    private void recover(List<Integer> failed) {
        long t0 = System.nanoTime();
        String how = executor.recover(failed);
        if (how == null) {
            throw new StoreException("cannot go on without workers " + failed);
        }
        count(how, t0);
    }

    private void reset() {
        try {
            resetOnce();
        } catch (WorkerFailure e) {
            if (!keepGoing || executor.workers() < 2) {
                throw e;
            }
            notes.add("a reset before experiment " + (count + 1) + " failed (" + e.getMessage() + "); continued with "
                    + (executor.workers() - 1) + " workers as --keep-going asked");
            recover(List.of(e.worker()));
        }
    }

    private void resetOnce() {
        long t0 = System.nanoTime();
        ResetPolicy.Situation s = new ResetPolicy.Situation(
                workload.mix().writeFraction() > 0,
                workload.mix().isSymmetric(),
                lastClean,
                lastErrors,
                imageExists,
                executor.touchedMembers());
        ResetPolicy.Method m = policy.choose(s);
        String note = policy.note(s, m, count);
        if (note != null) {
            notes.add(note);
        }
        count(restore(m), t0);
    }

    /** Does {@code m}; returns how the store was reset, e.g. {@code repair} or {@code repair+image}. */
    private String restore(ResetPolicy.Method m) {
        switch (m) {
            case LOADFREE -> {
                return m.label();
            }
            case REPAIR -> {
                int touched = executor.touchedMembers();
                long t0 = System.nanoTime();
                ExperimentExecutor.Repair r = executor.repair();
                policy.repaired((System.nanoTime() - t0) / 1e9, touched);
                repairedRelationships += r.relationships();
                repairedComments += r.comments();
                if (r.verified()) {
                    return m.label();
                }
                notes.add("RepairDB after experiment " + count + " left the store different from the generated graph ("
                        + r.mismatch() + "); restored it another way");
                return m.label() + "+" + restore(policy.fallback(imageExists));
            }
            case IMAGE -> {
                if (imageExists) {
                    long t0 = System.nanoTime();
                    executor.restoreImage();
                    policy.restored((System.nanoTime() - t0) / 1e9);
                    return m.label();
                }
                executor.reload();
                return ResetPolicy.Method.RELOAD.label();
            }
            default -> {
                executor.reload();
                return ResetPolicy.Method.RELOAD.label();
            }
        }
    }

    private void count(String how, long t0) {
        double seconds = (System.nanoTime() - t0) / 1e9;
        resets.merge(how, 1, Integer::sum);
        resetSecondsBy.merge(how, seconds, Double::sum);
    }

    /** A worker failed a reset; the cluster executor throws it so {@code --keep-going} can drop that worker. */
    public static class WorkerFailure extends RuntimeException {
        private final int worker;

        public WorkerFailure(String message, Throwable cause, int worker) {
            super(message, cause);
            this.worker = worker;
        }

        public int worker() {
            return worker;
        }
    }

    /** Resets by kind ({@code loadfree}, {@code repair}, …) and how many of each. */
    public Map<String, Integer> resets() {
        return resets;
    }

    /** Seconds spent per kind of reset. */
    public Map<String, Double> resetSecondsBy() {
        return resetSecondsBy;
    }

    /** Relationships and comments RepairDB restored over the rating. */
    public long[] repaired() {
        return new long[] {repairedRelationships, repairedComments};
    }

    /** Fallbacks and other things the rating's reader should know about the resets. */
    /** Why each experiment's result that could not be written was not (a full disk), in order. */
    public List<String> unwritten() {
        return List.copyOf(unwritten);
    }

    public List<String> notes() {
        return notes;
    }

    public List<RunResult> results() {
        return results;
    }

    /**
     * The result file (its name, beside the rating) and latency of each experiment this runner completed, in the
     * order it ran them (null for one whose result could not be written): repeated confirmation runs at one T each
     * have their own.
     */
    public List<ExperimentFile> runFiles() {
        return Collections.unmodifiableList(runFiles);
    }
}
