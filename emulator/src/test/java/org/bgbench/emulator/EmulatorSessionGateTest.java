package org.bgbench.emulator;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.bgbench.model.Action;
import org.bgbench.model.GraphSpec;
import org.bgbench.model.generator.SocialGraph;
import org.bgbench.model.state.GraphState;
import org.bgbench.store.DataStore;
import org.bgbench.store.ProfileView;
import org.bgbench.store.StoreException;
import org.bgbench.store.StoreSession;
import org.bgbench.store.StoreSettings;
import org.bgbench.store.conformance.ForwardingStore;
import org.bgbench.store.conformance.StoreConformanceSuite;
import org.bgbench.store.memory.MemoryStoreProvider;
import org.junit.jupiter.api.Test;

/** Members act only once every member has its store session, and a session that cannot open still ends the run. */
class EmulatorSessionGateTest {
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

    private DataStore loadedStore(String name) {
        DataStore store = new MemoryStoreProvider().open(StoreSettings.of(Map.of("memory.name", name)));
        StoreConformanceSuite.load(store, graph, 2);
        return store;
    }

    private EmulatorConfig config(int threads, EmulatorConfig.ThreadKind kind) {
        return EmulatorConfig.builder()
                .threads(threads)
                .duration(Duration.ofMillis(400))
                .warmup(Duration.ofMillis(100))
                .topK(5)
                .commentLength(20)
                .locks(true)
                .uniqueSocialites(true)
                .seed(3)
                .threadKind(kind)
                .build();
    }

    private WeightedWorkload vpOnly() {
        Map<Action, Double> w = new EnumMap<>(Action.class);
        w.put(Action.VP, 1.0);
        return new WeightedWorkload(graph.members(), WeightedWorkload.weights(w));
    }

    @Test
    void noMemberActsBeforeTheSlowestSessionHasOpened() {
        for (EmulatorConfig.ThreadKind kind : EmulatorConfig.ThreadKind.values()) {
            AtomicInteger opened = new AtomicInteger();
            AtomicLong lastOpenedAt = new AtomicLong();
            AtomicLong firstActionAt = new AtomicLong(Long.MAX_VALUE);
            try (DataStore memory = loadedStore("gate-" + kind)) {
                // Every fourth session takes 300 ms to open, like a connection a loaded server is slow to accept.
                DataStore store = new ForwardingStore(memory) {
                    @Override
                    public StoreSession openSession() {
                        if (opened.getAndIncrement() % 4 == 3) {
                            sleep(300);
                        }
                        StoreSession s = new ForwardingStore.Session(memory.openSession()) {
                            @Override
                            public void viewProfile(int requester, int profile, ProfileView out) {
                                firstActionAt.accumulateAndGet(System.nanoTime(), Math::min);
                                super.viewProfile(requester, profile, out);
                            }
                        };
                        lastOpenedAt.accumulateAndGet(System.nanoTime(), Math::max);
                        return s;
                    }
                };
                RunOutcome out = new Emulator(
                                store, new GraphState(graph), vpOnly(), config(8, kind), t -> new CountingRecorder())
                        .run(() -> {});
                assertThat(out.completed()).as(kind.name()).isTrue();
            }
            assertThat(opened.get()).as(kind.name()).isEqualTo(8);
            assertThat(firstActionAt.get())
                    .as("%s: the first action came after the last session opened", kind)
                    .isGreaterThan(lastOpenedAt.get());
        }
    }

    @Test
    void aSessionThatCannotOpenEndsTheRunAndTheOthersNeverAct() {
        AtomicInteger opened = new AtomicInteger();
        AtomicInteger actions = new AtomicInteger();
        try (DataStore memory = loadedStore("gate-fails")) {
            DataStore store = new ForwardingStore(memory) {
                @Override
                public StoreSession openSession() {
                    if (opened.getAndIncrement() == 5) {
                        sleep(200);
                        throw new StoreException("no connection within the timeout");
                    }
                    return new ForwardingStore.Session(memory.openSession()) {
                        @Override
                        public void viewProfile(int requester, int profile, ProfileView out) {
                            actions.incrementAndGet();
                            super.viewProfile(requester, profile, out);
                        }
                    };
                }
            };
            RunOutcome out = new Emulator(
                            store,
                            new GraphState(graph),
                            vpOnly(),
                            config(8, EmulatorConfig.ThreadKind.PLATFORM),
                            t -> new CountingRecorder())
                    .run(() -> {});
            assertThat(out.completed()).isFalse();
            assertThat(out.abortReason()).contains("no connection within the timeout");
        }
        assertThat(actions.get())
                .as("actions issued while a session failed to open")
                .isZero();
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
