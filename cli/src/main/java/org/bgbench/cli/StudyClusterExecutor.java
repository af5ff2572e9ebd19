package org.bgbench.cli;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.bgbench.cluster.coordinator.ClusterCoordinator;
import org.bgbench.cluster.protocol.Messages;
import org.bgbench.runner.ExperimentSpec;
import org.bgbench.runner.Interrupts;
import org.bgbench.store.StoreProvider;
import org.bgbench.store.StoreRegistry;
import org.bgbench.store.StoreSettings;
import org.bgbench.study.PointExecutor;
import org.bgbench.study.StudyPlan;
import org.bgbench.workload.WorkloadSpec;

/**
 * A study's points measured on workers (dissertation 4.3), as {@code bg run --workers} measures a run: each point opens
 * the workers with its mix and their shares of the graph, runs T spread over them and merges their results. The graph
 * is loaded through the workers when their stores do not hold it; between points each worker undoes its own members'
 * writes (RepairDB), and the workers reload their shares when a repair's read-back disagrees.
 */
final class StudyClusterExecutor implements PointExecutor {
    private final ClusterCoordinator cluster;
    private final ClusterOptions options;
    private final Map<String, String> userKeys;
    private final PrintWriter err;

    /** @param userKeys the user's {@code -p} keys, over the study's (they name the servers the workers reach) */
    StudyClusterExecutor(
            ClusterCoordinator cluster, ClusterOptions options, Map<String, String> userKeys, PrintWriter err) {
        this.cluster = cluster;
        this.options = options;
        this.userKeys = userKeys;
        this.err = err;
    }

    @Override
    public Session open(StudyPlan.Group group, Map<String, String> studyKeys, StudyPlan.ScaleTimes times) {
        Map<String, String> keys = new TreeMap<>(studyKeys);
        keys.putAll(userKeys);
        StoreOptions storeOptions = new StoreOptions();
        storeOptions.store = group.store().store();
        StoreProvider provider = storeOptions.provider(StoreRegistry.discover());
        ExperimentSetup first = ExperimentSetup.checked(
                provider,
                StudyExecutor.parameters(keys, group.points().getFirst().mix()),
                err);
        int loaders = first.loaders();
        err.println("bg: study: opening " + group.name() + " (" + provider.name() + ") on "
                + cluster.names().size() + " workers");
        return new Session() {
            private boolean opened;

            @Override
            public Outcome run(StudyPlan.Point point, Path result) throws Exception {
                ExperimentSetup ps = ExperimentSetup.checked(
                        provider,
                        StudyExecutor.parameters(keys, point.mix()),
                        new PrintWriter(PrintWriter.nullWriter()));
                StoreSettings settings = ps.storeSettings(storeOptions).withBeta(times.beta());
                WorkloadSpec ws = ps.plan().workload();
                ExperimentSpec es =
                        ps.timedAsKeysSay(ws, point.threads(), times.duration(), times.warmup(), times.beta());
                Map<String, String> all = new TreeMap<>(settings.asMap());
                all.putAll(ps.params().asMap());
                if (opened) {
                    reset(loaders); // the last point's writes, undone by the plan that made them
                }
                int perWorker = Math.max(1, es.threads() / cluster.names().size());
                if (!options.open(cluster, provider, all, ps.plan().graph(), ws, es, perWorker)) {
                    err.println("bg: study: loading " + group.name() + " through the workers");
                    cluster.load(loaders);
                    cluster.reset(Messages.ResetHow.STATE);
                } else {
                    cluster.requireState();
                }
                opened = true;
                Files.createDirectories(result.getParent());
                ClusterCoordinator.Outcome o = cluster.run(es, result, null);
                if (!o.completed() && Interrupts.interrupted()) {
                    return new Outcome(Status.INTERRUPTED, Interrupts.reason());
                }
                if (!o.completed() || o.unwritten() != null) {
                    return new Outcome(
                            Status.FAILED,
                            "the point did not complete (" + (o.unwritten() != null ? o.unwritten() : o.reason())
                                    + ")");
                }
                return Outcome.done();
            }

            @Override
            public void close() {
                // The workers keep their stores: the coordinator closes its connections when the study ends.
            }
        };
    }

    /** Undoes the last point's writes on every worker; reloads their shares when a read-back disagrees. */
    private void reset(int loaders) {
        List<Messages.ResetDone> done = cluster.reset(Messages.ResetHow.REPAIR);
        for (int k = 0; k < done.size(); k++) {
            if (!done.get(k).verified()) {
                err.println("bg: study: worker " + k + "'s repair disagreed ("
                        + done.get(k).mismatch() + "); reloading every worker's share");
                cluster.load(loaders);
                cluster.reset(Messages.ResetHow.STATE);
                return;
            }
        }
    }
}
