package org.bgbench.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.bgbench.runner.Experiment;
import org.bgbench.runner.ExperimentSpec;
import org.bgbench.runner.Interrupts;
import org.bgbench.runner.LocalStore;
import org.bgbench.runner.Parameters;
import org.bgbench.runner.RunKeys;
import org.bgbench.store.StoreProvider;
import org.bgbench.store.StoreRegistry;
import org.bgbench.store.StoreSettings;
import org.bgbench.study.PointExecutor;
import org.bgbench.study.StudyPlan;
import org.bgbench.study.StudyRun;
import org.bgbench.workload.WorkloadSpec;

/**
 * A study's points measured as {@code bg sweep} measures its: the store opened once per group through
 * {@link LocalStore} (loaded when it does not hold the graph), each point an experiment set up by
 * {@link ExperimentSetup}, and the store reset between points the cheapest way it offers (an image, else RepairDB).
 * A rate study's points are ratings ({@link StudyRatings}) of the same open store.
 * A group whose store declares a server has it started first ({@link StudyServer}) and stopped when the group ends.
 */
final class StudyExecutor implements PointExecutor {
    private final PrintWriter err;
    private final Path out;
    private final Map<String, String> userKeys;

    /**
     * @param err      where the progress lines go
     * @param out      the study's directory (each group's data directory is under it)
     * @param userKeys the user's {@code -p} keys, over the study's; when given, BG starts no server of the study
     */
    StudyExecutor(PrintWriter err, Path out, Map<String, String> userKeys) {
        this.err = err;
        this.out = out;
        this.userKeys = userKeys;
    }

    /** Whether BG starts the server of {@code group}: it declares one and the user gave no keys of their own. */
    static boolean startsServer(StudyPlan.Group group, Map<String, String> userKeys) {
        return group.store().server() != null && userKeys.isEmpty();
    }

    @Override
    public Session open(StudyPlan.Group group, Map<String, String> studyKeys, StudyPlan.ScaleTimes times)
            throws IOException {
        Map<String, String> keys = new LinkedHashMap<>();
        StudyServer server = null;
        if (startsServer(group, userKeys)) {
            server = StudyServer.start(group.store().server(), StudyRun.dataDir(out, group), err);
            // The server's keys under the study's own.
            keys.putAll(server.settings());
        } else if (group.store().server() != null) {
            err.println("bg: study: " + group.name() + ": your -p keys are given, so BG does not start "
                    + group.store().server().words());
        }
        keys.putAll(studyKeys);
        keys.putAll(userKeys);
        try {
            return open(group, keys, times, server);
        } catch (RuntimeException | Error e) {
            if (server != null) {
                server.close();
            }
            throw e;
        }
    }

    private Session open(
            StudyPlan.Group group, Map<String, String> keys, StudyPlan.ScaleTimes times, StudyServer server) {
        StoreOptions options = new StoreOptions();
        options.store = group.store().store();
        StoreProvider provider = options.provider(StoreRegistry.discover());
        String firstMix = group.points().getFirst().mix();
        ExperimentSetup setup = ExperimentSetup.checked(provider, parameters(keys, firstMix), err);
        StoreSettings settings = setup.storeSettings(options).withBeta(times.beta());
        int loaders = setup.loaders();
        err.println("bg: study: opening " + group.name() + " (" + provider.name() + ")");
        LocalStore store = LocalStore.open(
                provider,
                settings,
                setup.plan().graph(),
                LocalStore.IfMissing.LOAD,
                loaders,
                RunKeys.verifySample(setup.params()),
                err);
        String method;
        try {
            method = SweepCommand.resetMethod("auto", store, loaders, err);
        } catch (RuntimeException e) {
            store.close();
            throw e;
        }
        if (group.rating() != null) {
            // A rate study: each point is one rating of the open store.
            PrintWriter quiet = new PrintWriter(PrintWriter.nullWriter());
            return new StudyRatings(
                    store,
                    group,
                    mix -> ExperimentSetup.checked(provider, parameters(keys, mix), quiet),
                    loaders,
                    method,
                    err);
        }
        return new Session() {
            private boolean ran;

            @Override
            public Outcome run(StudyPlan.Point point, Path result) throws Exception {
                if (server != null && !server.alive()) {
                    // Its server died: this and the group's other points fail at once; the server is stopped.
                    server.close();
                    return new Outcome(Status.FAILED, server.gone());
                }
                if (ran || store.state().changed()) {
                    SweepCommand.resetStore(method, store, loaders, err);
                }
                ran = true;
                // The point's own setup: the same keys with its mix; the warnings were printed at open.
                ExperimentSetup ps = ExperimentSetup.checked(
                        provider, parameters(keys, point.mix()), new PrintWriter(PrintWriter.nullWriter()));
                WorkloadSpec ws = ps.plan().workload();
                ExperimentSpec es =
                        ps.timedAsKeysSay(ws, point.threads(), times.duration(), times.warmup(), times.beta());
                Files.createDirectories(result.getParent());
                Experiment.Outcome o = store.run(ws, es, result, null);
                if (!o.run().completed() && Interrupts.interrupted()) {
                    return new Outcome(Status.INTERRUPTED, Interrupts.reason());
                }
                if (!o.run().completed() || o.unsealed() != null || o.unwritten() != null) {
                    String why = o.unsealed() != null
                            ? o.unsealed()
                            : o.unwritten() != null ? o.unwritten() : o.run().abortReason();
                    return new Outcome(Status.FAILED, "the point did not complete (" + why + ")");
                }
                return Outcome.done();
            }

            @Override
            public void close() {
                try {
                    store.close();
                } finally {
                    if (server != null) {
                        server.close();
                    }
                }
            }
        };
    }

    /** The point's -p parameters: the group's keys and its mix. */
    static Parameters parameters(Map<String, String> keys, String mix) {
        List<String> overrides = new ArrayList<>();
        keys.forEach((k, v) -> overrides.add(k + "=" + v));
        overrides.add("mix=" + mix);
        return Parameters.of(List.of(), overrides);
    }
}
