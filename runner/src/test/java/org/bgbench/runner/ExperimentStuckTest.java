package org.bgbench.runner;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import org.bgbench.emulator.EmulatorConfig;
import org.bgbench.measurement.KindResult;
import org.bgbench.measurement.RunResult;
import org.bgbench.measurement.Stalls;
import org.bgbench.measurement.report.ResultJson;
import org.bgbench.measurement.report.SummaryPrinter;
import org.bgbench.model.GraphSpec;
import org.bgbench.model.generator.SocialGraph;
import org.bgbench.model.state.GraphState;
import org.bgbench.store.DataStore;
import org.bgbench.store.StoreSession;
import org.bgbench.store.StoreSettings;
import org.bgbench.store.conformance.StoreConformanceSuite;
import org.bgbench.store.memory.MemoryStoreProvider;
import org.bgbench.workload.WorkloadParameters;
import org.bgbench.workload.WorkloadSpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An experiment against a store whose calls stop returning half a second in (they block on a latch, as against a
 * frozen server, with no timeout): it ends within duration + 5 s, the actions still waiting are in the result per
 * action with their waits, the seconds after the freeze are stalled, and the result, on disk too, is incomplete and
 * says so in words.
 */
class ExperimentStuckTest {
    private static final SocialGraph GRAPH = new SocialGraph(new GraphSpec(400, 0, 10, 5, 2, 0.8, false, 0, 0, 4, 6,
            20, 4, 3));

    @TempDir
    Path dir;

    /** The memory store whose session calls block from {@code frozen} on until {@code thawed}. */
    private static DataStore freezing(DataStore memory, AtomicBoolean frozen, CountDownLatch thawed) {
        return (DataStore) Proxy.newProxyInstance(DataStore.class.getClassLoader(), new Class<?>[] {DataStore.class},
                (proxy, method, args) -> {
                    Object r = invoke(memory, method, args);
                    if (!method.getName().equals("openSession")) {
                        return r;
                    }
                    StoreSession s = (StoreSession) r;
                    return Proxy.newProxyInstance(StoreSession.class.getClassLoader(),
                            new Class<?>[] {StoreSession.class}, (p, m, a) -> {
                                if (!m.getName().equals("close") && frozen.get()) {
                                    thawed.await();
                                }
                                return invoke(s, m, a);
                            });
                });
    }

    private static Object invoke(Object target, java.lang.reflect.Method m, Object[] args) throws Throwable {
        try {
            return m.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    @Test
    void anExperimentWhoseStoreStopsAnsweringEndsOnTimeIncompleteWithItsStuckActions() throws Exception {
        int threads = 4;
        AtomicBoolean frozen = new AtomicBoolean();
        CountDownLatch thawed = new CountDownLatch(1);
        try (DataStore memory = new MemoryStoreProvider().open(StoreSettings.of(Map.of("memory.name", "stuck")))) {
            StoreConformanceSuite.load(memory, GRAPH, 2);
            DataStore store = freezing(memory, frozen, thawed);
            WorkloadSpec ws = WorkloadParameters.toSpec(Map.of("mix", "high"));
            ExperimentSpec spec = ExperimentSpec.timed(ws, threads, Duration.ofSeconds(4), Duration.ZERO,
                    EmulatorConfig.ThreadKind.PLATFORM, Duration.ofMillis(100), null);
            Path out = dir.resolve("stuck.json");
            StringWriter progress = new StringWriter();
            Thread.ofPlatform().start(() -> {
                try {
                    Thread.sleep(500);
                    frozen.set(true);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            long t0 = System.nanoTime();
            Experiment.Outcome o;
            try {
                o = Experiment.run(new Experiment.Setup(store, "memory", Map.of(), new GraphState(GRAPH), ws, spec,
                        out, new PrintWriter(progress, true)));
            } finally {
                thawed.countDown();
            }
            double seconds = (System.nanoTime() - t0) / 1e9;
            assertThat(seconds).as("duration 4 s + grace 5 s, then the threads are abandoned").isLessThan(4 + 5 + 3);

            RunResult r = o.result();
            assertThat(r.durationS()).as("the measured period ended on time").isBetween(3.8, 5.0);
            assertThat(r.total().stuck()).isEqualTo(threads);
            assertThat(r.actions().values().stream().mapToLong(KindResult::stuck).sum()).isEqualTo(threads);
            assertThat(r.total().maxMs()).as("they had waited since the freeze").isBetween(3_000.0, 4_500.0);
            assertThat(r.total().withinBetaCount()).isLessThanOrEqualTo(r.total().count());
            assertThat(o.run().stuckThreads()).isEqualTo(threads);
            @SuppressWarnings("unchecked")
            List<Integer> stalled = (List<Integer>) r.config().get(Stalls.STALLED_SECONDS);
            assertThat(stalled).contains(2, 3).allMatch(s -> s >= 2);
            assertThat(r.config()).containsEntry("completed", false);
            assertThat(r.incompleteReason()).startsWith("The store stopped answering: 4 actions were still waiting "
                    + "when the run ended, the longest for ")
                    .contains("; seconds 2–")
                    .contains("4 threads were still inside the store 5 s after the run ended and were abandoned")
                    .endsWith("The run does not meet the SLA.");
            assertThat(SummaryPrinter.summary(r)).contains("Incomplete  The store stopped answering");

            RunResult onDisk = ResultJson.read(out);
            assertThat(onDisk.total().stuck()).isEqualTo(threads);
            assertThat(onDisk.incompleteReason()).isEqualTo(r.incompleteReason());
            assertThat(onDisk.config().get(Stalls.STALLED_SECONDS)).isEqualTo(stalled);
            // The interval log's last interval holds the stuck actions, so its totals are still the result's.
            Path hlog = RunArtifacts.hlogFor(out);
            IntervalLogRunTest.assertAddsUp(hlog, onDisk);
            assertThat(java.nio.file.Files.readString(hlog))
                    .contains("#" + org.bgbench.measurement.report.IntervalLog.REST_COMMENT);
        }
    }
}
