package org.bgbench.emulator;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.bgbench.model.Action;
import org.bgbench.model.GraphSpec;
import org.bgbench.model.Kind;
import org.bgbench.model.SessionType;
import org.bgbench.model.generator.SocialGraph;
import org.bgbench.model.state.GraphState;
import org.bgbench.store.DataStore;
import org.bgbench.store.ProfileView;
import org.bgbench.store.StoreSession;
import org.bgbench.store.StoreSettings;
import org.bgbench.store.conformance.ForwardingStore;
import org.bgbench.store.conformance.StoreConformanceSuite;
import org.bgbench.store.memory.MemoryStoreProvider;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * BG's CPU per action: the emulator's platform threads against the in-memory store record, for a sample of the store
 * calls, the CPU time their thread spent in the call, per action and never per session.
 */
class EmulatorBgCpuTest {
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

    @BeforeEach
    void clock() {
        MeasuredSessionTest.assumeThreadCpuClock();
    }

    private DataStore loadedStore(String name) {
        DataStore store = new MemoryStoreProvider().open(StoreSettings.of(Map.of("memory.name", name)));
        StoreConformanceSuite.load(store, graph, 2);
        return store;
    }

    private static EmulatorConfig platform(int threads, long operations, long seed) {
        return EmulatorConfig.builder()
                .threads(threads)
                .operations(operations)
                .topK(5)
                .commentLength(20)
                .locks(true)
                .uniqueSocialites(true)
                .seed(seed)
                .threadKind(EmulatorConfig.ThreadKind.PLATFORM)
                .build();
    }

    @Test
    void everyActionThatRanHasAPlausibleCpuFigureAndNoSessionHasOne() {
        // The eleven actions of BG's mixes equally, and every session now and then (sessions issue actions too).
        Map<Kind, Double> w = new HashMap<>();
        for (Action a : Action.values()) {
            if (a != Action.SR && a != Action.VNF) {
                w.put(a, 1.0);
            }
        }
        for (SessionType s : SessionType.values()) {
            w.put(s, 0.1);
        }
        int threads = 4;
        CountingRecorder rec = new CountingRecorder();
        try (DataStore store = loadedStore("emulator-bg-cpu")) {
            RunOutcome out = new Emulator(
                            store,
                            new GraphState(graph),
                            new WeightedWorkload(graph.members(), WeightedWorkload.weights(w)),
                            platform(threads, 40_000, 11),
                            t -> rec)
                    .run(() -> {});
            assertThat(out.completed()).isTrue();
        }
        List<Action> ran = new ArrayList<>();
        long calls = 0;
        for (Action a : Action.values()) {
            int k = a.index();
            long n = rec.ok.get(k) + rec.errors.get(k);
            calls += n;
            if (n == 0) {
                assertThat(rec.cpuSamples.get(k)).as(a.code()).isZero();
                continue;
            }
            ran.add(a);
            // Enough calls that one in 8 of them is sampled surely ((7/8)^200 ≈ 3e-12), and roughly that share.
            assertThat(n).as("%s calls", a.code()).isGreaterThanOrEqualTo(200);
            assertThat(rec.cpuSamples.get(k))
                    .as("%s samples of %d calls", a.code(), n)
                    .isBetween(n / 16, n / 4);
            assertThat(rec.cpuMeanUs(k))
                    .as("%s µs of BG CPU per call", a.code())
                    .isGreaterThan(0.0)
                    .isLessThan(100_000.0);
        }
        assertThat(ran).hasSize(11);
        // Each thread samples its own 8th, 16th, ... call.
        assertThat(rec.total(rec.cpuSamples)).isBetween(calls / 8 - threads, calls / 8);
        for (SessionType s : SessionType.values()) {
            assertThat(rec.ok.get(s.index())).as("%s ran", s.code()).isPositive();
            assertThat(rec.cpuSamples.get(s.index()))
                    .as("%s: sessions get no CPU figure", s.code())
                    .isZero();
        }
    }

    @Test
    void anActionThatBurnsCpuInItsCallCostsMoreThanATrivialOne() {
        CountingRecorder rec = new CountingRecorder();
        try (DataStore memory = loadedStore("emulator-bg-cpu-burn")) {
            // VP burns 2 ms of its thread's CPU before the memory store answers; LF is the memory store's own.
            DataStore store = new ForwardingStore(memory) {
                @Override
                public StoreSession openSession() {
                    return new ForwardingStore.Session(memory.openSession()) {
                        @Override
                        public void viewProfile(int requester, int profile, ProfileView out) {
                            burn(2_000_000);
                            super.viewProfile(requester, profile, out);
                        }
                    };
                }
            };
            Map<Action, Double> w = new EnumMap<>(Action.class);
            w.put(Action.VP, 1.0);
            w.put(Action.LF, 1.0);
            RunOutcome out = new Emulator(
                            store,
                            new GraphState(graph),
                            new WeightedWorkload(graph.members(), WeightedWorkload.weights(w)),
                            platform(1, 480, 12),
                            t -> rec)
                    .run(() -> {});
            assertThat(out.completed()).isTrue();
        }
        Double vp = rec.cpuMeanUs(Action.VP.index());
        Double lf = rec.cpuMeanUs(Action.LF.index());
        assertThat(vp)
                .as("VP µs, %d samples", rec.cpuSamples.get(Action.VP.index()))
                .isNotNull()
                .isGreaterThanOrEqualTo(1_000.0);
        assertThat(lf)
                .as("LF µs, %d samples", rec.cpuSamples.get(Action.LF.index()))
                .isNotNull()
                .isGreaterThan(0.0)
                .isLessThan(vp / 4);
    }

    /** Spins until the current thread has used {@code nanos} more CPU time (not wall time: a busy machine waits). */
    private static void burn(long nanos) {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long end = threads.getCurrentThreadCpuTime() + nanos;
        long x = 0;
        while (threads.getCurrentThreadCpuTime() < end) {
            for (int i = 0; i < 1_000; i++) {
                x += i * x + 1;
            }
        }
        if (x == 42) {
            System.out.print("");
        }
    }
}
