package org.bgbench.runner.delta;

import java.io.PrintWriter;
import java.time.Duration;
import org.bgbench.measurement.RunResult;
import org.bgbench.runner.Experiment;
import org.bgbench.runner.ExperimentSpec;
import org.bgbench.runner.Interrupts;
import org.bgbench.runner.LocalStore;
import org.bgbench.store.StoreException;
import org.bgbench.workload.WorkloadSpec;

/**
 * A {@link DeltaExperiments.Bench} on a store on this machine: every experiment after the first (and the first when
 * the store is not as loaded) starts from a store reset by {@code reset}, with its own seed.
 *
 * @param store    the open store
 * @param workload the specified workload
 * @param template the experiment's settings (warm-up, thread kind, store hosts); T, length and seed are set per run
 * @param reset    brings the store back to the loaded graph (an image, RepairDB or a reload)
 * @param progress where each run's per-second lines go, or null
 */
public record LocalBench(
        LocalStore store, WorkloadSpec workload, ExperimentSpec template, Runnable reset, PrintWriter progress)
        implements DeltaExperiments.Bench {
    @Override
    public RunResult run(int threads, Duration duration) {
        if (Interrupts.interrupted()) {
            return null;
        }
        if (store.state().changed()) {
            reset.run();
        }
        long seed = template.seed() + 31L * threads + duration.toMillis();
        Experiment.Outcome o = store.run(
                workload, template.withThreads(threads).withDuration(duration).withSeed(seed), null, progress);
        if (!o.run().completed() && Interrupts.interrupted()) {
            return null;
        }
        if (!o.run().completed() || o.unsealed() != null) {
            throw new StoreException("the experiment at T=" + threads + " for " + duration.toSeconds() + " s stopped: "
                    + (o.unsealed() != null ? o.unsealed() : o.run().abortReason()));
        }
        return o.result();
    }
}
