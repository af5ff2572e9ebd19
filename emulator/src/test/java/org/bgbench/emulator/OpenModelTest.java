package org.bgbench.emulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.bgbench.emulator.open.ArrivalSchedule;
import org.bgbench.model.Action;
import org.bgbench.model.log.ActionRecorder;
import org.bgbench.model.log.ArrivalRecorder;
import org.bgbench.model.state.GraphState;
import org.bgbench.store.DataStore;
import org.bgbench.store.ProfileView;
import org.bgbench.store.StoreSession;
import org.bgbench.store.StoreSettings;
import org.bgbench.store.conformance.ForwardingStore;
import org.bgbench.store.conformance.StoreConformanceSuite;
import org.bgbench.store.memory.MemoryStoreProvider;
import org.bgbench.validation.ValidationResult;
import org.bgbench.validation.Validator;
import org.bgbench.validation.ValueMode;
import org.bgbench.validation.log.LogDirectory;
import org.bgbench.validation.log.LogWriter;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The open model against a store with a scripted pause: it freezes for {@value #FREEZE_MS} ms every
 * {@value #PERIOD_MS} ms (from its first call), so what each model must report is known before the run. The closed
 * model's members wait out each freeze once each, so a handful of slow actions among millions: its p99 hides the pause.
 * Arrivals at a rate keep coming during it: one in ten arrives in a freeze and waits for its end, uniformly 0 to
 * 500 ms, so the open model's p95 is 250 ms and its p99 450 ms (the fraction above x is (500 − x)/5000).
 */
@Tag("slow")
class OpenModelTest {
    static final long PERIOD_MS = 5000;
    static final long FREEZE_MS = 500;
    /** Where in each period the freeze starts: clear of the run's first instants. */
    static final long FREEZE_AT_MS = 2000;

    static final int MEASURED_S = 10;

    @TempDir
    Path dir;

    /** The VP-only mix: no writes, so the locks do not add waits of their own. */
    private static final double[] VP_ONLY = WeightedWorkload.weights(Map.of(Action.VP, 100.0));

    @Test
    void aPauseTheClosedModelHidesIsInTheOpenModelsP95AndP99AsTheScriptSays() {
        // Closed: 4 members for 10 s; each waits out each of the 2 freezes once.
        LatencyLog closed = run(null, 4, false);
        long slow = closed.slow.get();
        // One per member and freeze (8), plus the few a loaded machine's own pauses (a collection, a descheduled
        // thread) make slower than 10 ms: at most a few per member.
        assertThat(slow)
                .as("actions slower than 10 ms: one per member and freeze")
                .isBetween(4L, 40L);
        assertThat((double) slow / closed.count.get())
                .as("the share the p99 would need")
                .isLessThan(0.0001);

        // Open: 400 arrivals a second and room for all of a freeze's (200) in flight.
        LatencyLog open = run(ArrivalSchedule.parse("400", null), 250, true);
        assertThat(open.count.get()).isCloseTo(400L * MEASURED_S, within(40L));
        double[] r = open.sorted();
        assertThat(percentile(r, 95)).isCloseTo(0.250, within(0.04));
        assertThat(percentile(r, 99)).isCloseTo(0.450, within(0.04));
        assertThat((double) open.slow.get() / open.count.get())
                .as("one arrival in ten waits on a freeze")
                .isCloseTo(0.098, within(0.02));
        // Threads were free at each due time: the service time is the response time.
        assertThat(percentile(open.sortedService(), 99)).isCloseTo(0.450, within(0.04));
        assertThat(open.queued.get()).isLessThan(open.count.get() / 100);
    }

    @Test
    void withTwoThreadsInFlightTheQueuedArrivalsCarryThePauseAndTheirServiceTimesDoNot() {
        // The two threads block in the freeze; the arrivals due meanwhile queue and start when it ends, so their
        // response times (from their due times) are the same as with room for all, their service times are not.
        LatencyLog open = run(ArrivalSchedule.parse("400", null), 2, true);
        double[] r = open.sorted();
        assertThat(percentile(r, 95)).isCloseTo(0.250, within(0.04));
        assertThat(percentile(r, 99)).isCloseTo(0.450, within(0.04));
        assertThat(percentile(open.sortedService(), 99)).as("service p99, s").isLessThan(0.010);
        assertThat(open.queued.get())
                .as("arrivals that found both threads busy")
                .isGreaterThan(300);
        assertThat(open.maxDelay.get()).as("the longest wait to start, ns").isBetween(400_000_000L, 560_000_000L);
    }

    @Test
    void everyCorruptedReadIsCaughtUnderTheOpenModel() {
        try (DataStore memory =
                new MemoryStoreProvider().open(StoreSettings.of(Map.of("memory.name", "open-corrupt")))) {
            StoreConformanceSuite.load(memory, EmulatorValidationTest.GRAPH, 2);
            EmulatorValidationTest.CorruptingStore store =
                    new EmulatorValidationTest.CorruptingStore(memory, 41, 1_000_000);
            GraphState state = new GraphState(EmulatorValidationTest.GRAPH);
            EmulatorConfig cfg = EmulatorConfig.builder()
                    .threads(16)
                    .duration(Duration.ofSeconds(3))
                    .topK(5)
                    .commentLength(20)
                    .locks(true)
                    .uniqueSocialites(true)
                    .seed(3)
                    .threadKind(EmulatorConfig.ThreadKind.AUTO)
                    .arrivals(ArrivalSchedule.parse("20000", "poisson"))
                    .build();
            RunOutcome out;
            Path logs = dir.resolve("logs");
            try (LogDirectory d = LogDirectory.create(logs)) {
                out = new Emulator(
                                store,
                                state,
                                new WeightedWorkload(
                                        state.graph().members(), EmulatorValidationTest.highWithComments()),
                                cfg,
                                t -> new CountingRecorder())
                        .withLogs(t -> d.newWriter())
                        .run(() -> {});
            }
            assertThat(out.completed()).isTrue();
            ValidationResult v = Validator.builder(
                            (kind, item) -> switch (kind) {
                                case LogWriter.FRIENDS -> state.friendCount((int) item);
                                case LogWriter.PENDING -> state.pendingCount((int) item);
                                default -> state.commentCount(item);
                            },
                            ValueMode.FINAL)
                    .threads(2)
                    .build()
                    .validate(logs);
            assertThat(store.corrupted.get()).isGreaterThan(100);
            assertThat(v.writeRecords()).as("writes were logged").isGreaterThan(100);
            assertThat(v.unpredictableReads()).isEqualTo(store.corrupted.get());
        }
    }

    /** One run of {@value #MEASURED_S} s against a fresh freezing store; {@code keep}: every latency kept. */
    private LatencyLog run(ArrivalSchedule arrivals, int threads, boolean keep) {
        try (DataStore memory = new MemoryStoreProvider()
                .open(StoreSettings.of(Map.of("memory.name", "freeze-" + threads + (arrivals != null))))) {
            StoreConformanceSuite.load(memory, EmulatorValidationTest.GRAPH, 2);
            FreezingStore store = new FreezingStore(memory);
            EmulatorConfig cfg = EmulatorConfig.builder()
                    .threads(threads)
                    .duration(Duration.ofSeconds(MEASURED_S))
                    .topK(5)
                    .commentLength(20)
                    .locks(true)
                    .uniqueSocialites(true)
                    .seed(7)
                    .threadKind(EmulatorConfig.ThreadKind.AUTO)
                    .arrivals(arrivals)
                    .build();
            LatencyLog log = new LatencyLog(keep);
            RunOutcome out = new Emulator(
                            store,
                            new GraphState(EmulatorValidationTest.GRAPH),
                            new WeightedWorkload(EmulatorValidationTest.GRAPH.members(), VP_ONLY),
                            cfg,
                            t -> log)
                    .withArrivals(t -> log)
                    .run(() -> {});
            assertThat(out.completed()).isTrue();
            assertThat(out.errorSamples()).isEmpty();
            return log;
        }
    }

    private static double percentile(double[] sorted, double p) {
        int i = (int) Math.ceil(p / 100 * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, i))];
    }

    /** The memory store, frozen {@value #FREEZE_MS} ms of every {@value #PERIOD_MS} ms from its first call. */
    static final class FreezingStore extends ForwardingStore {
        private final AtomicLong base = new AtomicLong();

        FreezingStore(DataStore delegate) {
            super(delegate);
        }

        /** Waits out the freeze the clock is in, if any. */
        void pass() {
            long now = System.nanoTime();
            base.compareAndSet(0, now);
            long at = (now - base.get()) % (PERIOD_MS * 1_000_000);
            long from = FREEZE_AT_MS * 1_000_000;
            long to = from + FREEZE_MS * 1_000_000;
            if (at >= from && at < to) {
                long end = now + (to - at);
                for (long left = end - System.nanoTime(); left > 0; left = end - System.nanoTime()) {
                    LockSupport.parkNanos(left);
                }
            }
        }

        @Override
        public StoreSession openSession() {
            return new ForwardingStore.Session(delegate.openSession()) {
                @Override
                public void viewProfile(int requester, int profile, ProfileView out) {
                    pass();
                    super.viewProfile(requester, profile, out);
                }
            };
        }
    }

    /** Response times (and, in the open model, service times and start delays), shared by all threads. */
    static final class LatencyLog implements ActionRecorder, ArrivalRecorder {
        final AtomicLong count = new AtomicLong();
        final AtomicLong slow = new AtomicLong();
        final AtomicLong queued = new AtomicLong();
        final AtomicLong maxDelay = new AtomicLong();
        private final boolean keep;
        private long[] all = new long[1024];
        private int n;
        private long[] service = new long[1024];
        private int ns;

        LatencyLog(boolean keep) {
            this.keep = keep;
        }

        @Override
        public void ok(int kind, long latencyNanos) {
            count.incrementAndGet();
            if (latencyNanos > 10_000_000) {
                slow.incrementAndGet();
            }
            if (keep) {
                synchronized (this) {
                    if (n == all.length) {
                        all = Arrays.copyOf(all, 2 * n);
                    }
                    all[n++] = latencyNanos;
                }
            }
        }

        @Override
        public void noop(int kind) {}

        @Override
        public void error(int kind, long latencyNanos) {
            throw new AssertionError("the memory store failed");
        }

        @Override
        public void bgWait(long nanos) {}

        @Override
        public void started(int phase, long delayNanos, boolean wasQueued) {
            if (wasQueued) {
                queued.incrementAndGet();
            }
            maxDelay.accumulateAndGet(delayNanos, Math::max);
        }

        @Override
        public synchronized void service(int kind, long nanos) {
            if (ns == service.length) {
                service = Arrays.copyOf(service, 2 * ns);
            }
            service[ns++] = nanos;
        }

        synchronized double[] sorted() {
            return Arrays.stream(all, 0, n).sorted().mapToDouble(v -> v / 1e9).toArray();
        }

        synchronized double[] sortedService() {
            return Arrays.stream(service, 0, ns)
                    .sorted()
                    .mapToDouble(v -> v / 1e9)
                    .toArray();
        }
    }
}
