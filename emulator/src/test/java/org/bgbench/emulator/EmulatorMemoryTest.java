package org.bgbench.emulator;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.Map;
import org.assertj.core.data.Offset;
import org.bgbench.model.Action;
import org.bgbench.model.GraphSpec;
import org.bgbench.model.Kind;
import org.bgbench.model.SessionType;
import org.bgbench.model.generator.SocialGraph;
import org.bgbench.model.state.GraphState;
import org.bgbench.store.DataStore;
import org.bgbench.store.StoreSession;
import org.bgbench.store.StoreSettings;
import org.bgbench.store.conformance.StateComparison;
import org.bgbench.store.conformance.StoreConformanceSuite;
import org.bgbench.store.memory.MemoryStoreProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Runs the emulator with many threads against the in-memory store, which refuses any invalid action. */
class EmulatorMemoryTest {
    private final SocialGraph graph = new SocialGraph(GraphSpec.builder()
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

    private DataStore loadedStore(String name) {
        DataStore store = new MemoryStoreProvider().open(StoreSettings.of(Map.of("memory.name", name)));
        StoreConformanceSuite.load(store, graph, 2);
        return store;
    }

    /** On platform threads (auto's choice at T = 64 for a store in BG's process) and on virtual threads. */
    @ParameterizedTest
    @EnumSource(
            value = EmulatorConfig.ThreadKind.class,
            names = {"PLATFORM", "VIRTUAL"})
    void manyThreadsLeaveTheStoreInTheExpectedStateWithNoInvalidAction(EmulatorConfig.ThreadKind kind) {
        try (DataStore store = loadedStore("emulator-high-" + kind)) {
            GraphState state = new GraphState(graph);
            CountingRecorder rec = new CountingRecorder();
            EmulatorConfig cfg = EmulatorConfig.builder()
                    .threads(64)
                    .operations(200_000)
                    .topK(5)
                    .commentLength(20)
                    .locks(true)
                    .uniqueSocialites(true)
                    .seed(1)
                    .threadKind(kind)
                    .build();
            RunOutcome out = new Emulator(
                            store, state, new WeightedWorkload(graph.members(), WeightedWorkload.high()), cfg, t -> rec)
                    .run(() -> {});
            assertThat(out.completed()).isTrue();
            assertThat(out.errorSamples())
                    .as("the memory store rejects invalid actions")
                    .isEmpty();
            assertThat(rec.total(rec.errors)).isZero();
            long issued = rec.total(rec.ok) + rec.total(rec.noop);
            assertThat(issued).isEqualTo(200_000);
            // Measured mix within sampling error of the configured one (≈4 standard deviations).
            double[] w = WeightedWorkload.high();
            for (int k = 0; k < w.length; k++) {
                double p = w[k] / 100;
                double got = (rec.ok.get(k) + rec.noop.get(k)) / (double) issued;
                assertThat(got)
                        .as("share of kind %d", k)
                        .isCloseTo(p, Offset.offset(4 * Math.sqrt(p * (1 - p) / issued) + 1e-9));
            }
            assertThat(rec.ok.get(Action.IF.index())).as("invitations happened").isPositive();
            assertThat(rec.ok.get(Action.AFR.index()))
                    .as("acceptances happened")
                    .isPositive();
            assertThat(StateComparison.differences(store, state, 10)).isEmpty();
        }
    }

    @Test
    void sessionsRunAndKeepTheStateExact() {
        try (DataStore store = loadedStore("emulator-sessions")) {
            GraphState state = new GraphState(graph);
            CountingRecorder rec = new CountingRecorder();
            double[] w = new double[Kind.count()];
            for (SessionType s : SessionType.values()) {
                w[s.index()] = 1;
            }
            EmulatorConfig cfg = EmulatorConfig.builder()
                    .threads(32)
                    .operations(20_000)
                    .topK(5)
                    .commentLength(20)
                    .locks(true)
                    .uniqueSocialites(true)
                    .seed(2)
                    .build();
            RunOutcome out =
                    new Emulator(store, state, new WeightedWorkload(graph.members(), w), cfg, t -> rec).run(() -> {});
            assertThat(out.errorSamples()).isEmpty();
            for (SessionType s : SessionType.values()) {
                assertThat(rec.ok.get(s.index()))
                        .as("session %s completed sometimes", s.code())
                        .isPositive();
            }
            assertThat(rec.ok.get(Action.VP.index()))
                    .as("sessions issue actions")
                    .isPositive();
            assertThat(StateComparison.differences(store, state, 10)).isEmpty();
        }
    }

    @Test
    void aRunOfNRequestsEndsWhenItsLastActionDoesNotAtTheNextPoll() throws Exception {
        try (DataStore memory = loadedStore("emulator-end")) {
            long[] lastReturn = {0};
            DataStore store = (DataStore) Proxy.newProxyInstance(
                    DataStore.class.getClassLoader(), new Class<?>[] {DataStore.class}, (p, m, a) -> {
                        Object r = m.invoke(memory, a);
                        if (!m.getName().equals("openSession")) {
                            return r;
                        }
                        StoreSession s = (StoreSession) r;
                        return Proxy.newProxyInstance(
                                DataStore.class.getClassLoader(), new Class<?>[] {StoreSession.class}, (p2, m2, a2) -> {
                                    Object x = m2.invoke(s, a2);
                                    lastReturn[0] = System.nanoTime(); // one thread: no race
                                    return x;
                                });
                    });
            GraphState state = new GraphState(graph);
            CountingRecorder rec = new CountingRecorder();
            long[] ended = {0};
            EmulatorConfig cfg = EmulatorConfig.builder()
                    .threads(1)
                    .operations(200)
                    .topK(5)
                    .commentLength(20)
                    .locks(true)
                    .uniqueSocialites(true)
                    .seed(5)
                    .build();
            new Emulator(store, state, new WeightedWorkload(graph.members(), WeightedWorkload.high()), cfg, t -> rec)
                    .run(() -> {}, () -> ended[0] = System.nanoTime());
            // 200 memory-store actions take a few milliseconds; the period used to end at the emulator's next 50 ms
            // poll, which made a short run's measured time (an elasticity request set's) up to 50 ms too long.
            assertThat((ended[0] - lastReturn[0]) / 1e6)
                    .as("ms from the last reply to the period's end")
                    .isBetween(0.0, 20.0);
        }
    }

    @Test
    void runsForADurationWithWarmup() {
        try (DataStore store = loadedStore("emulator-duration")) {
            GraphState state = new GraphState(graph);
            CountingRecorder rec = new CountingRecorder();
            boolean[] warm = {false};
            EmulatorConfig cfg = EmulatorConfig.builder()
                    .threads(8)
                    .duration(Duration.ofMillis(300))
                    .warmup(Duration.ofMillis(100))
                    .topK(5)
                    .commentLength(20)
                    .locks(true)
                    .uniqueSocialites(true)
                    .seed(3)
                    .build();
            RunOutcome out = new Emulator(
                            store, state, new WeightedWorkload(graph.members(), WeightedWorkload.high()), cfg, t -> rec)
                    .run(() -> warm[0] = true);
            assertThat(out.completed()).isTrue();
            assertThat(warm[0]).isTrue();
            assertThat(rec.total(rec.ok)).isPositive();
            assertThat(StateComparison.differences(store, state, 10)).isEmpty();
        }
    }

    @Test
    void warmupByCountPrecedesTheMeasuredOperations() {
        try (DataStore store = loadedStore("emulator-warmup-count")) {
            GraphState state = new GraphState(graph);
            CountingRecorder rec = new CountingRecorder();
            long[] issuedAtWarmupEnd = {-1};
            EmulatorConfig cfg = EmulatorConfig.builder()
                    .threads(16)
                    .operations(5_000)
                    .warmupOperations(1_000)
                    .topK(5)
                    .commentLength(20)
                    .locks(true)
                    .uniqueSocialites(true)
                    .seed(4)
                    .build();
            new Emulator(store, state, new WeightedWorkload(graph.members(), WeightedWorkload.high()), cfg, t -> rec)
                    .run(() -> issuedAtWarmupEnd[0] = rec.total(rec.ok) + rec.total(rec.noop));
            long issued = rec.total(rec.ok) + rec.total(rec.noop);
            assertThat(issuedAtWarmupEnd[0])
                    .as("warm-up requests done or in flight")
                    .isBetween(1_000L - 16, 1_000L);
            assertThat(issued).isEqualTo(6_000L);
        }
    }
}
