package org.bgbench.runner;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import org.bgbench.emulator.EmulatorConfig;
import org.bgbench.measurement.KindResult;
import org.bgbench.measurement.RunResult;
import org.bgbench.measurement.SeriesPoint;
import org.bgbench.measurement.Stalls;
import org.bgbench.measurement.report.IntervalLog;
import org.bgbench.measurement.report.ResultJson;
import org.bgbench.measurement.report.SummaryPrinter;
import org.bgbench.model.GraphSpec;
import org.bgbench.model.generator.SocialGraph;
import org.bgbench.model.state.GraphState;
import org.bgbench.rating.Sla;
import org.bgbench.runner.rating.RatingRunner;
import org.bgbench.store.DataStore;
import org.bgbench.store.StoreException;
import org.bgbench.store.StoreSession;
import org.bgbench.store.StoreSettings;
import org.bgbench.store.conformance.StoreConformanceSuite;
import org.bgbench.store.memory.MemoryStoreProvider;
import org.bgbench.workload.WorkloadParameters;
import org.bgbench.workload.WorkloadSpec;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An experiment against a store whose calls stop returning half a second in (they block on a latch, as against a
 * frozen server, with no timeout): it ends within duration + 5 s, the actions still waiting are in the result per
 * action with their waits, the seconds after the freeze are stalled, and the result, on disk too, is incomplete and
 * says so in words. And one against a store that fails every call for two seconds (as a server that is down): those
 * seconds are refused, which makes the run incomplete in the same way, whatever the store.
 */
@Tag("slow")
class ExperimentStuckTest {
    private static final SocialGraph GRAPH = new SocialGraph(GraphSpec.builder()
            .members(400)
            .friendsPerMember(10)
            .resourcesPerMember(5)
            .commentsPerResource(2)
            .confirmedFraction(0.8)
            .attributeCount(4)
            .attributeLength(6)
            .commentLength(20)
            .fragments(4)
            .seed(3)
            .build());

    @TempDir
    Path dir;

    /** The memory store whose session calls block from {@code frozen} on until {@code thawed}. */
    private static DataStore freezing(DataStore memory, AtomicBoolean frozen, CountDownLatch thawed) {
        return (DataStore) Proxy.newProxyInstance(
                DataStore.class.getClassLoader(), new Class<?>[] {DataStore.class}, (proxy, method, args) -> {
                    Object r = invoke(memory, method, args);
                    if (!method.getName().equals("openSession")) {
                        return r;
                    }
                    StoreSession s = (StoreSession) r;
                    return Proxy.newProxyInstance(
                            StoreSession.class.getClassLoader(), new Class<?>[] {StoreSession.class}, (p, m, a) -> {
                                if (!m.getName().equals("close") && frozen.get()) {
                                    thawed.await();
                                }
                                return invoke(s, m, a);
                            });
                });
    }

    /**
     * The memory store whose session calls fail after 50 ms, as against a server that is down, from 1.5 s to 3.8 s
     * after the first call (the run has no warm-up, so that is its measured start).
     */
    private static DataStore failing(DataStore memory) {
        long[] first = {0};
        return (DataStore) Proxy.newProxyInstance(
                DataStore.class.getClassLoader(), new Class<?>[] {DataStore.class}, (proxy, method, args) -> {
                    Object r = invoke(memory, method, args);
                    if (!method.getName().equals("openSession")) {
                        return r;
                    }
                    StoreSession s = (StoreSession) r;
                    return Proxy.newProxyInstance(
                            StoreSession.class.getClassLoader(), new Class<?>[] {StoreSession.class}, (p, m, a) -> {
                                long now = System.nanoTime();
                                synchronized (first) {
                                    first[0] = first[0] == 0 ? now : first[0];
                                }
                                long since = now - first[0];
                                if (!m.getName().equals("close") && since > 1_500_000_000L && since < 3_800_000_000L) {
                                    Thread.sleep(50);
                                    throw new StoreException("cannot reach the store: connection " + "refused.");
                                }
                                return invoke(s, m, a);
                            });
                });
    }

    private static Object invoke(Object target, Method m, Object[] args) throws Throwable {
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
            ExperimentSpec spec = ExperimentSpec.timed(
                    ws,
                    threads,
                    Duration.ofSeconds(4),
                    Duration.ZERO,
                    EmulatorConfig.ThreadKind.PLATFORM,
                    Duration.ofMillis(100),
                    null);
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
                o = Experiment.run(new Experiment.Setup(
                        new Experiment.Subject(store, "memory", Map.of()),
                        new GraphState(GRAPH),
                        ws,
                        spec,
                        new Experiment.Output(out, new PrintWriter(progress, true))));
            } finally {
                thawed.countDown();
            }
            double seconds = (System.nanoTime() - t0) / 1e9;
            assertThat(seconds)
                    .as("duration 4 s + grace 5 s, then the threads are abandoned")
                    .isLessThan(4 + 5 + 3);

            RunResult r = o.result();
            assertThat(r.durationS()).as("the measured period ended on time").isBetween(3.8, 5.0);
            assertThat(r.total().stuck()).isEqualTo(threads);
            assertThat(r.actions().values().stream()
                            .mapToLong(KindResult::stuck)
                            .sum())
                    .isEqualTo(threads);
            assertThat(r.total().maxMs()).as("they had waited since the freeze").isBetween(3_000.0, 4_500.0);
            assertThat(r.total().withinBetaCount())
                    .isLessThanOrEqualTo(r.total().count());
            assertThat(o.run().stuckThreads()).isEqualTo(threads);
            @SuppressWarnings("unchecked")
            List<Integer> stalled = (List<Integer>) r.config().get(Stalls.STALLED_SECONDS);
            assertThat(stalled).contains(2, 3).allMatch(s -> s >= 2);
            assertThat(r.config()).containsEntry("completed", false);
            assertThat(r.incompleteReason())
                    .startsWith("The store stopped answering: 4 actions were still waiting "
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
            assertThat(Files.readString(hlog)).contains("#" + IntervalLog.REST_COMMENT);
        }
    }

    @Test
    void secondsInWhichTheStoreFailedEveryCallMakeTheRunIncompleteWhateverTheStore() throws Exception {
        try (DataStore memory = new MemoryStoreProvider().open(StoreSettings.of(Map.of("memory.name", "down")))) {
            StoreConformanceSuite.load(memory, GRAPH, 2);
            DataStore store = failing(memory);
            WorkloadSpec ws = WorkloadParameters.toSpec(Map.of("mix", "high"));
            ExperimentSpec spec = ExperimentSpec.timed(
                    ws,
                    4,
                    Duration.ofSeconds(5),
                    Duration.ZERO,
                    EmulatorConfig.ThreadKind.PLATFORM,
                    Duration.ofMillis(100),
                    null);
            Path out = dir.resolve("down.json");
            StringWriter progress = new StringWriter();
            Experiment.Outcome o = Experiment.run(new Experiment.Setup(
                    new Experiment.Subject(store, "memory", Map.of()),
                    new GraphState(GRAPH),
                    ws,
                    spec,
                    new Experiment.Output(out, new PrintWriter(progress, true))));

            RunResult r = ResultJson.read(out);
            assertThat(o.run().completed()).as("the run itself went to its end").isTrue();
            @SuppressWarnings("unchecked")
            List<Integer> refused = (List<Integer>) r.config().get(Stalls.REFUSED_SECONDS);
            assertThat(refused).as("down from 1.5 s to 3.8 s").isNotEmpty().allMatch(s -> s >= 2 && s <= 5);
            assertThat(r.config()).containsEntry("completed", false);
            assertThat((List<?>) r.config().get(Stalls.STALLED_SECONDS)).isEmpty();
            assertThat(r.incompleteReason())
                    .matches(
                            "The store refused every call (from second \\d to \\d|in "
                                    + "second \\d): cannot reach the store: connection refused\\. The run does not meet the SLA\\.");
            for (SeriesPoint p : r.series()) {
                if (refused.contains(p.second())) {
                    assertThat(p.actions()).isZero();
                    assertThat(p.errorPct()).isEqualTo(100.0);
                }
            }
            int lastRefused = refused.get(refused.size() - 1);
            assertThat(r.series()).as("it answered again").anyMatch(p -> p.second() > lastRefused && p.actions() > 0);
            assertThat(SummaryPrinter.summary(r)).contains("Incomplete  The store refused every call");
            assertThat(RatingRunner.measurement(r)
                            .succeeds(new Sla(0, Duration.ofSeconds(10), 100, Duration.ofMinutes(1), 100)))
                    .as("fails even an SLA that allows every error")
                    .isFalse();
        }
    }
}
