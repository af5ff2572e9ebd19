package org.bgbench.emulator;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.bgbench.model.Action;
import org.bgbench.model.GraphSpec;
import org.bgbench.model.generator.SocialGraph;
import org.bgbench.model.state.GraphState;
import org.bgbench.store.DataStore;
import org.bgbench.store.ProfileView;
import org.bgbench.store.StoreSession;
import org.bgbench.store.StoreSettings;
import org.bgbench.store.conformance.ForwardingStore;
import org.bgbench.store.conformance.StoreConformanceSuite;
import org.bgbench.store.memory.MemoryStoreProvider;
import org.junit.jupiter.api.Test;

/**
 * A warm-up of N requests (USC BG's {@code warmup} count): the first N requests the members issue are not measured, the
 * request after them starts the measured period, and the period lasts the run's duration from there.
 */
class EmulatorWarmupCountTest {
    private final SocialGraph graph = new SocialGraph(GraphSpec.builder()
            .members(200)
            .friendsPerMember(10)
            .resourcesPerMember(5)
            .commentsPerResource(2)
            .confirmedFraction(0.8)
            .attributeCount(4)
            .attributeLength(6)
            .commentLength(20)
            .fragments(4)
            .seed(5)
            .build());

    @Test
    void theFirstNRequestsAreNotMeasuredAndThePeriodStartsAfterThem() {
        int threads = 4;
        long warmup = 5000;
        AtomicLong calls = new AtomicLong();
        AtomicLong callsAtStart = new AtomicLong(-1);
        AtomicLong startedAt = new AtomicLong();
        AtomicLong recordedAtStart = new AtomicLong();
        CountingRecorder rec = new CountingRecorder();
        long endedAt;
        try (DataStore memory =
                new MemoryStoreProvider().open(StoreSettings.of(Map.of("memory.name", "warmup-count")))) {
            StoreConformanceSuite.load(memory, graph, 2);
            DataStore store = new ForwardingStore(memory) {
                @Override
                public StoreSession openSession() {
                    return new ForwardingStore.Session(memory.openSession()) {
                        @Override
                        public void viewProfile(int requester, int profile, ProfileView out) {
                            calls.incrementAndGet();
                            super.viewProfile(requester, profile, out);
                        }
                    };
                }
            };
            Map<Action, Double> w = new EnumMap<>(Action.class);
            w.put(Action.VP, 1.0);
            EmulatorConfig config = EmulatorConfig.builder()
                    .threads(threads)
                    .duration(Duration.ofMillis(300))
                    .warmupOperations(warmup)
                    .topK(5)
                    .commentLength(20)
                    .locks(true)
                    .uniqueSocialites(true)
                    .seed(3)
                    .threadKind(EmulatorConfig.ThreadKind.PLATFORM)
                    .build();
            RunOutcome out = new Emulator(
                            store,
                            new GraphState(graph),
                            new WeightedWorkload(graph.members(), WeightedWorkload.weights(w)),
                            config,
                            t -> rec)
                    .run(() -> {
                        // The caller resets its measurements here (as the runner does): what was recorded so far is
                        // the warm-up's.
                        callsAtStart.set(calls.get());
                        recordedAtStart.set(rec.ok.get(Action.VP.index()) + rec.noop.get(Action.VP.index()));
                        startedAt.set(System.nanoTime());
                    });
            endedAt = System.nanoTime();
            assertThat(out.completed()).isTrue();
        }
        long measured = rec.ok.get(Action.VP.index()) + rec.noop.get(Action.VP.index()) - recordedAtStart.get();
        assertThat(callsAtStart.get())
                .as("requests issued when the period started")
                .isBetween(warmup - threads, warmup + threads);
        // Requests already on their way when the period starts may be counted either side, one per member at most.
        assertThat(calls.get() - measured).as("requests not measured").isBetween(warmup - threads, warmup + threads);
        assertThat(measured).as("the measured period had requests of its own").isPositive();
        assertThat(endedAt - startedAt.get())
                .as("the period lasted the run's duration from its start")
                .isGreaterThanOrEqualTo(Duration.ofMillis(300).toNanos());
    }
}
