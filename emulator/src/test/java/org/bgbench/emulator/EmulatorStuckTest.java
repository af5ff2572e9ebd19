package org.bgbench.emulator;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.bgbench.model.GraphSpec;
import org.bgbench.model.Kind;
import org.bgbench.model.generator.SocialGraph;
import org.bgbench.model.state.GraphState;
import org.bgbench.store.DataStore;
import org.bgbench.store.StoreException;
import org.bgbench.store.StoreSession;
import org.bgbench.store.StoreSettings;
import org.bgbench.store.conformance.ForwardingStore;
import org.bgbench.store.conformance.StoreConformanceSuite;
import org.bgbench.store.memory.MemoryStoreProvider;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A store whose calls stop returning part way through a run (every call blocks on a latch, as against a server that
 * was frozen): the measured period still ends on time, the calls still waiting are reported with how long they had
 * waited, the threads get the grace to leave and are then abandoned, and the run returns within duration + grace.
 */
@Tag("slow")
class EmulatorStuckTest {
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

    /** A store that passes calls to the memory store until {@link #freeze}, then blocks them until released. */
    private static final class FreezingStore extends ForwardingStore {
        final AtomicBoolean frozen = new AtomicBoolean();
        final CountDownLatch thawed = new CountDownLatch(1);
        final Duration timeout;

        FreezingStore(DataStore delegate, Duration timeout) {
            super(delegate);
            this.timeout = timeout;
        }

        @Override
        public StoreSession openSession() {
            StoreSession s = delegate.openSession();
            return (StoreSession) Proxy.newProxyInstance(
                    StoreSession.class.getClassLoader(), new Class<?>[] {StoreSession.class}, (proxy, method, args) -> {
                        if (!method.getName().equals("close") && frozen.get()) {
                            // A driver with a timeout gives up after it; one without waits until the store answers.
                            if (timeout.isZero()) {
                                thawed.await();
                            } else if (!thawed.await(timeout.toNanos(), TimeUnit.NANOSECONDS)) {
                                throw new StoreException("timed out");
                            }
                        }
                        try {
                            return method.invoke(s, args);
                        } catch (InvocationTargetException e) {
                            throw e.getCause();
                        }
                    });
        }

        @Override
        public Duration callTimeout() {
            return timeout;
        }
    }

    private DataStore loaded(String name) {
        DataStore store = new MemoryStoreProvider().open(StoreSettings.of(Map.of("memory.name", name)));
        StoreConformanceSuite.load(store, graph, 2);
        return store;
    }

    @Test
    void callsStillWaitingAtTheEndAreReportedAndTheRunEndsWithinDurationPlusGrace() throws Exception {
        int threads = 4;
        try (DataStore memory = loaded("emulator-stuck")) {
            FreezingStore store = new FreezingStore(memory, Duration.ZERO);
            EmulatorConfig cfg = EmulatorConfig.builder()
                    .threads(threads)
                    .duration(Duration.ofSeconds(3))
                    .topK(5)
                    .commentLength(20)
                    .locks(true)
                    .uniqueSocialites(true)
                    .seed(7)
                    .threadKind(EmulatorConfig.ThreadKind.PLATFORM)
                    .build();
            Emulator emulator = new Emulator(
                    store,
                    new GraphState(graph),
                    new WeightedWorkload(graph.members(), WeightedWorkload.high()),
                    cfg,
                    t -> new CountingRecorder());
            assertThat(emulator.grace())
                    .as("a store without timeouts gets the least grace")
                    .isEqualTo(Duration.ofSeconds(5));
            Thread freezer = Thread.ofPlatform().start(() -> {
                try {
                    Thread.sleep(1_000);
                    store.frozen.set(true);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            AtomicLong periodEndedAt = new AtomicLong();
            long start = System.nanoTime();
            try {
                boolean[] waitingAtTwoSeconds = {false};
                Thread probe = Thread.ofPlatform().start(() -> {
                    try {
                        Thread.sleep(2_500);
                        // Every thread has been inside one call since about 1 s.
                        waitingAtTwoSeconds[0] = emulator.inFlight().waitingSince(System.nanoTime() - 1_000_000_000L);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                });
                RunOutcome out = emulator.run(() -> {}, () -> periodEndedAt.set(System.nanoTime()));
                double seconds = (System.nanoTime() - start) / 1e9;
                double periodEnded = (periodEndedAt.get() - start) / 1e9;
                probe.join();
                freezer.join();

                assertThat(periodEnded).as("the measured period ends on time").isBetween(2.9, 4.5);
                assertThat(seconds)
                        .as("the run returns after duration + grace, not later")
                        .isBetween(3.0 + 5.0 - 0.2, 3.0 + 5.0 + 4.0);
                assertThat(out.completed()).as("nothing aborted the run").isTrue();
                assertThat(out.stuckThreads()).as("abandoned after the grace").isEqualTo(threads);
                List<InFlight.Call> waiting = out.inFlight();
                assertThat(waiting).hasSize(threads);
                assertThat(waiting).allSatisfy(c -> {
                    assertThat(c.action()).isTrue();
                    assertThat(Kind.isAction(c.kind())).isTrue();
                    assertThat(c.elapsedNanos() / 1e9)
                            .as("waited since the freeze at ~1 s")
                            .isBetween(1.5, 4.0);
                });
                assertThat(waiting).extracting(InFlight.Call::thread).containsExactlyInAnyOrder(0, 1, 2, 3);
                assertThat(waitingAtTwoSeconds[0])
                        .as("the in-flight table shows the wait while it lasts")
                        .isTrue();
            } finally {
                store.thawed.countDown();
            }
        }
    }

    @Test
    void aStoreWhoseCallsTimeOutLetsItsThreadsLeaveWithinTheGrace() throws Exception {
        try (DataStore memory = loaded("emulator-timeout")) {
            // Calls fail 6 s after the freeze: the grace is the store's timeout, and every thread is back within it.
            FreezingStore store = new FreezingStore(memory, Duration.ofSeconds(6));
            EmulatorConfig cfg = EmulatorConfig.builder()
                    .threads(2)
                    .duration(Duration.ofSeconds(2))
                    .topK(5)
                    .commentLength(20)
                    .locks(true)
                    .uniqueSocialites(true)
                    .seed(8)
                    .threadKind(EmulatorConfig.ThreadKind.PLATFORM)
                    .build();
            Emulator emulator = new Emulator(
                    store,
                    new GraphState(graph),
                    new WeightedWorkload(graph.members(), WeightedWorkload.high()),
                    cfg,
                    t -> new CountingRecorder());
            assertThat(emulator.grace()).isEqualTo(Duration.ofSeconds(6));
            Thread.ofPlatform().start(() -> {
                try {
                    Thread.sleep(1_000);
                    store.frozen.set(true);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            long start = System.nanoTime();
            try {
                RunOutcome out = emulator.run(() -> {});
                double seconds = (System.nanoTime() - start) / 1e9;
                assertThat(out.stuckThreads())
                        .as("their calls failed within the grace")
                        .isZero();
                assertThat(out.inFlight())
                        .hasSize(2)
                        .allSatisfy(c -> assertThat(c.elapsedNanos()).isPositive());
                assertThat(seconds)
                        .as("back when the calls timed out, ~1 s + 6 s")
                        .isBetween(6.5, 11.0);
            } finally {
                store.thawed.countDown();
            }
        }
    }
}
