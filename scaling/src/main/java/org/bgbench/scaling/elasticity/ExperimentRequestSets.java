package org.bgbench.scaling.elasticity;

import java.time.Duration;
import org.bgbench.runner.Experiment;
import org.bgbench.runner.ExperimentSpec;
import org.bgbench.runner.LocalStore;
import org.bgbench.workload.WorkloadSpec;

/**
 * Request sets as BG experiments: each set is one experiment of {@code requests} actions (no warm-up) on the store,
 * from the state BG keeps, so every action stays valid across sets and the store's state is saved after each. A set's
 * time is the experiment's measured period (from the first request to the last reply, without BG's own start and
 * stop); its mean latency is the mean response time of its actions.
 */
public final class ExperimentRequestSets implements RequestSets {
    private final LocalStore store;
    private final WorkloadSpec workload;
    private final ExperimentSpec template;

    /** @param template the experiment of one set; threads, operations and seed are replaced per set */
    public ExperimentRequestSets(LocalStore store, WorkloadSpec workload, ExperimentSpec template) {
        this.store = store;
        this.workload = workload;
        this.template = template;
    }

    @Override
    public SetRun run(int requests, int threads, long seed) {
        ExperimentSpec spec = template.toBuilder()
                .threads(threads)
                .operations(requests)
                .warmup(Duration.ZERO)
                .warmupOperations(0)
                .seed(seed)
                .validation(null)
                .open(null)
                .build();
        Experiment.Outcome o = store.run(workload, spec, null, null);
        var total = o.result().total();
        double latency = total.meanMs() == null ? 0 : total.meanMs() / 1000.0;
        return new SetRun(o.result().durationS(), latency, total.errors() + total.stuck());
    }
}
