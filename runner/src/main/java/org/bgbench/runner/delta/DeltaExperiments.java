package org.bgbench.runner.delta;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.bgbench.measurement.KindResult;
import org.bgbench.measurement.RunResult;
import org.bgbench.model.Action;
import org.bgbench.rating.DoublingDelta;
import org.bgbench.rating.SaturatingThreads;
import org.bgbench.runner.Interrupts;
import org.bgbench.workload.WorkloadSpec;

/**
 * The Delta Analyzer as the dissertation describes it (7.3.1, figures 7.13 and 7.14), as separate experiments: first
 * the T that fills one of the store's resources ({@link SaturatingThreads}, from the store hosts' utilisation), then
 * experiments at that T with δ = 1 s, 2 s, 4 s, … each from a reset store, until m consecutive ones agree
 * ({@link DoublingDelta}); δ = Δ when none do. A Ctrl-C ends the analysis with what was measured.
 */
public final class DeltaExperiments {
    private DeltaExperiments() {}

    /** Runs one experiment of the given T and measured length from a reset store. */
    public interface Bench {
        /** The run's result, or null when it was interrupted; throws when it failed otherwise. */
        RunResult run(int threads, Duration duration);

        /** The workload specified, whose mix the issued one is compared with. */
        WorkloadSpec workload();
    }

    /** Hears of each probe and experiment as it ends (to print it and to keep the file up to date). */
    public interface Listener {
        void probe(SaturatingThreads.Probe probe);

        void threads(ThreadChoice choice);

        void experiment(Row row, Analysis soFar);
    }

    /**
     * @param threads       how T is searched for
     * @param delta         the doubling experiments and their stop rule
     * @param probe         the measured length of each probe of the T search
     * @param linkBytesPerS each store host's network capacity, bytes per second, or ≤ 0 when unknown
     * @param fixedThreads  T given by the user (no search), or null
     */
    public record Settings(
            SaturatingThreads.Settings threads,
            DoublingDelta.Settings delta,
            Duration probe,
            double linkBytesPerS,
            Integer fixedThreads) {}

    /**
     * The chosen T and why.
     *
     * @param threads the T of every δ experiment
     * @param source  {@code probed} or {@code --threads}
     * @param use     the busiest resource at the chosen T (null when given or never read)
     * @param reason  one sentence
     * @param probes  every probe, in the order run
     * @param thisMachine the utilisation read was this machine's, not a store host's
     */
    public record ThreadChoice(
            int threads,
            String source,
            SaturatingThreads.Use use,
            String reason,
            List<SaturatingThreads.Probe> probes,
            boolean thisMachine) {}

    /** One δ experiment as reported: its measurement and whether it is within the tolerances. */
    public record Row(DoublingDelta.Experiment measured, int threads, boolean withinTolerance, boolean mixOk) {}

    /**
     * The analysis.
     *
     * @param threads     the chosen T (null when interrupted before it was chosen)
     * @param experiments every δ experiment, δ doubling
     * @param verdict     the chosen δ and why (null when interrupted before any experiment)
     * @param interrupted why the analysis stopped early, or null
     */
    public record Analysis(
            ThreadChoice threads, List<Row> experiments, DoublingDelta.Verdict verdict, String interrupted) {}

    /** Runs the analysis on {@code bench}. */
    public static Analysis analyze(Bench bench, Settings s, Listener listener) {
        ThreadChoice choice = s.fixedThreads() != null
                ? new ThreadChoice(s.fixedThreads(), "--threads", null, "given with --threads", List.of(), false)
                : chooseThreads(bench, s, listener);
        if (choice == null) {
            return new Analysis(null, List.of(), null, Interrupts.reason());
        }
        listener.threads(choice);
        List<DoublingDelta.Experiment> done = new ArrayList<>();
        List<Row> rows = new ArrayList<>();
        Analysis soFar = new Analysis(choice, List.of(), null, null);
        for (int delta : DoublingDelta.sequence(s.delta().maxDeltaS())) {
            if (!DoublingDelta.more(done, s.delta())) {
                break;
            }
            RunResult r = bench.run(choice.threads(), Duration.ofSeconds(delta));
            if (r == null) {
                return new Analysis(choice, List.copyOf(rows), verdictOrNull(done, s), Interrupts.reason());
            }
            DoublingDelta.Experiment e =
                    new DoublingDelta.Experiment(delta, r.throughput(), mixDeviation(r, bench.workload()));
            done.add(e);
            Row row = new Row(
                    e,
                    choice.threads(),
                    DoublingDelta.withinTolerance(done, done.size() - 1, s.delta()),
                    DoublingDelta.mixOk(e, s.delta()));
            rows.add(row);
            soFar = new Analysis(choice, List.copyOf(rows), DoublingDelta.judge(done, s.delta()), null);
            listener.experiment(row, soFar);
        }
        return soFar;
    }

    private static DoublingDelta.Verdict verdictOrNull(List<DoublingDelta.Experiment> done, Settings s) {
        return done.isEmpty() ? null : DoublingDelta.judge(done, s.delta());
    }

    /** Step 1: probes from T = 1 as {@link SaturatingThreads} says; null when interrupted. */
    private static ThreadChoice chooseThreads(Bench bench, Settings s, Listener listener) {
        List<SaturatingThreads.Probe> probes = new ArrayList<>();
        boolean thisMachine = false;
        int t = SaturatingThreads.first();
        while (true) {
            RunResult r = bench.run(t, s.probe());
            if (r == null) {
                return null;
            }
            thisMachine |= HostUtilisation.thisMachineOnly(r.nodes());
            SaturatingThreads.Probe p =
                    new SaturatingThreads.Probe(t, r.throughput(), HostUtilisation.of(r.nodes(), s.linkBytesPerS()));
            probes.add(p);
            listener.probe(p);
            SaturatingThreads.Step step = SaturatingThreads.next(probes, s.threads());
            if (step.done()) {
                return new ThreadChoice(
                        step.threads(), "probed", step.use(), step.reason(), List.copyOf(probes), thisMachine);
            }
            t = step.threads();
        }
    }

    /** Largest absolute difference between an action's issued and specified share over a run (1 when none ran). */
    public static double mixDeviation(RunResult r, WorkloadSpec ws) {
        Map<String, KindResult> actions = r.actions();
        long total = 0;
        for (Action a : Action.values()) {
            KindResult k = actions.get(a.name());
            total += k == null ? 0 : k.count();
        }
        if (total == 0) {
            return 1;
        }
        double worst = 0;
        for (Action a : Action.values()) {
            KindResult k = actions.get(a.name());
            double got = (k == null ? 0 : k.count()) / (double) total;
            worst = Math.max(worst, Math.abs(got - ws.mix().actionShare(a)));
        }
        return worst;
    }
}
