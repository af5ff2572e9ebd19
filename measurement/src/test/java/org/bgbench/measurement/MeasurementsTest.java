package org.bgbench.measurement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import com.sun.management.OperatingSystemMXBean;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.IntStream;
import org.HdrHistogram.Histogram;
import org.bgbench.measurement.resource.ResourceMonitor;
import org.bgbench.model.Action;
import org.bgbench.model.Kind;
import org.bgbench.model.SessionType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class MeasurementsTest {
    private static final int KINDS = Kind.count();

    private static MeasurementsBuilder builder() {
        return Measurements.builder().threads(8).resourceMonitor(ResourceMonitor.create(List.of()));
    }

    /** What thread {@code t} records in its {@code j}-th step: a fixed function, so a reference can replay it. */
    private static int kindOf(int t, int j) {
        return (t + j) % KINDS;
    }

    private static long latencyOf(int t, int j) {
        // 1 µs .. ~40 ms, plus a few beyond the histogram's range and a few negative ones (clamped).
        if (j % 1_009 == 0) {
            return Latencies.HIGHEST_NS + 5;
        }
        if (j % 1_013 == 0) {
            return -3;
        }
        // Few distinct values, so concurrent threads keep hitting the same slots (lost updates would show).
        return ((t * 31L + j * 17L) % 40 + 1) * 7_919 + (j % 3) * 1_000_003;
    }

    private static int outcomeOf(int t, int j) {
        return j % 97 == 0 ? 1 : j % 89 == 0 ? 2 : 0; // 1 error, 2 no-op, 0 ok
    }

    private static void step(Recorder r, int t, int j) {
        switch (outcomeOf(t, j)) {
            case 1 -> r.error(kindOf(t, j), latencyOf(t, j));
            case 2 -> r.noop(kindOf(t, j));
            default -> r.ok(kindOf(t, j), latencyOf(t, j));
        }
    }

    private record Expected(
            Histogram[] latencies, long[] noops, long[] errors, long[] errorNanos, List<List<Long>> values) {}

    private static Expected replay(int threads, int steps) {
        Histogram[] h = new Histogram[KINDS];
        List<List<Long>> values = new ArrayList<>();
        for (int k = 0; k < KINDS; k++) {
            h[k] = Latencies.newHistogram();
            values.add(new ArrayList<>());
        }
        long[] noops = new long[KINDS];
        long[] errors = new long[KINDS];
        long[] errorNanos = new long[KINDS];
        for (int t = 0; t < threads; t++) {
            for (int j = 0; j < steps; j++) {
                int k = kindOf(t, j);
                long v = Latencies.LAYOUT.clamp(latencyOf(t, j));
                switch (outcomeOf(t, j)) {
                    case 1 -> {
                        errors[k]++;
                        errorNanos[k] += Math.max(0, latencyOf(t, j));
                    }
                    case 2 -> noops[k]++;
                    default -> {
                        h[k].recordValue(v);
                        values.get(k).add(v);
                    }
                }
            }
        }
        return new Expected(h, noops, errors, errorNanos, values);
    }

    /** Runs {@code platform} platform threads and {@code virtual} virtual threads, thread indexes 0.. in that order. */
    private static void recordConcurrently(Measurements m, int platform, int virtual, int steps)
            throws InterruptedException {
        List<Thread> threads = new ArrayList<>();
        CountDownLatch go = new CountDownLatch(1);
        for (int t = 0; t < platform + virtual; t++) {
            int index = t;
            Runnable body = () -> {
                try {
                    go.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
                Recorder r = m.recorder(index);
                for (int j = 0; j < steps; j++) {
                    step(r, index, j);
                }
            };
            threads.add(
                    t < platform
                            ? Thread.ofPlatform().start(body)
                            : Thread.ofVirtual().start(body));
        }
        go.countDown();
        for (Thread t : threads) {
            t.join();
        }
    }

    @ParameterizedTest
    @CsvSource({"1, 8, 0, 200000", "4, 24, 3000, 1500", "2, 0, 2000, 1000"})
    void manyPlatformAndVirtualThreadsRecordExactly(int stripes, int platform, int virtual, int steps)
            throws Exception {
        try (Measurements m = builder().stripes(stripes).build()) {
            m.startMeasuring();
            recordConcurrently(m, platform, virtual, steps);
            m.stopMeasuring();
            RunResult r = m.result();
            Expected e = replay(platform + virtual, steps);

            for (int k = 0; k < KINDS; k++) {
                String code = m.kindCodes().get(k);
                KindResult kind = k < Action.count()
                        ? r.actions().get(code)
                        : r.sessions().get(code);
                // Same slots as a single-threaded HdrHistogram fed the same values: nothing lost, nothing moved.
                assertThat(kind.histogram()).as(code).isEqualTo(e.latencies[k]);
                assertThat(kind.count()).isEqualTo(e.values.get(k).size());
                assertThat(kind.noops()).isEqualTo(e.noops[k]);
                assertThat(kind.errors()).isEqualTo(e.errors[k]);
                assertThat(kind.errorMeanMs()).isCloseTo(e.errorNanos[k] / 1e6 / e.errors[k], within(1e-9));

                long[] sorted = e.values.get(k).stream()
                        .mapToLong(Long::longValue)
                        .sorted()
                        .toArray();
                assertPercentile(kind.p50Ms(), sorted, 50);
                assertPercentile(kind.p95Ms(), sorted, 95);
                assertPercentile(kind.p99Ms(), sorted, 99);
                assertPercentile(kind.p999Ms(), sorted, 99.9);
                assertPercentile(kind.maxMs(), sorted, 100);
                double mean = Arrays.stream(sorted).average().orElseThrow();
                assertThat(kind.meanMs() * 1e6).isCloseTo(mean, within(mean * 0.001 + 512));
                long withinBeta =
                        Arrays.stream(sorted).filter(v -> v <= 100_000_000L).count();
                assertThat(kind.withinBetaCount()).isEqualTo(withinBeta);
            }
            long okTotal = e.values.stream()
                    .limit(Action.count())
                    .mapToLong(List::size)
                    .sum();
            assertThat(r.total().count()).isEqualTo(okTotal);
        }
    }

    /** HdrHistogram reports the top of the slot holding the value at rank ceil(p·n/100): never below, < 0.1 % above. */
    private static void assertPercentile(double reportedMs, long[] sorted, double p) {
        long exact = sorted[(int) Math.max(Math.ceil(p * sorted.length / 100) - 1, 0)];
        double reported = reportedMs * 1e6;
        assertThat(reported).as("p%s", p).isBetween((double) exact, exact * (1 + 1.0 / 1024) + 512);
    }

    @Test
    void warmUpIsExcluded() {
        try (Measurements m = builder().build()) {
            Recorder r = m.recorder(0);
            for (int i = 0; i < 1_000; i++) {
                r.ok(Action.VP, 5_000_000);
                r.noop(Action.AFR);
                r.error(Action.LF, 1_000);
                r.bgWait(1_000);
                r.ok(SessionType.VIEW_SELF_PROFILE.index(), 9_000_000);
            }
            m.sample(); // a warm-up sample must not leak into the measured series either
            m.startMeasuring();
            r.ok(Action.VP, 2_000_000);
            r.ok(Action.VP, 3_000_000);
            r.bgWait(7_000);
            m.stopMeasuring();
            RunResult result = m.result();
            assertThat(result.actions().get("VP").count()).isEqualTo(2);
            assertThat(result.actions().get("VP").maxMs()).isCloseTo(3.0, within(0.003));
            assertThat(result.actions().get("AFR").noops()).isZero();
            assertThat(result.actions().get("LF").errors()).isZero();
            assertThat(result.sessions().get("VSP").count()).isZero();
            assertThat(result.bgWait().count()).isEqualTo(1);
            assertThat(result.bgWait().totalMs()).isEqualTo(0.007);
            assertThat(result.series()).hasSize(1);
            assertThat(result.series().getFirst().actions()).isEqualTo(2);
            assertThat(result.partial()).isFalse();
        }
    }

    @Test
    void countsAddUpAndEveryActionIsPresent() {
        try (Measurements m = builder().build()) {
            m.startMeasuring();
            Recorder r = m.recorder(3);
            // Only some kinds see traffic; the others must still be reported, with zeros.
            for (int i = 0; i < 100; i++) {
                r.ok(Action.VP, 1_000_000 + i);
                r.ok(Action.PCR, 20_000_000);
                r.noop(Action.DCR);
                r.error(Action.IF, 5);
                r.ok(SessionType.INVITE_FRIEND.index(), 50_000_000);
            }
            m.stopMeasuring();
            RunResult result = m.result();
            assertThat(result.actions().keySet())
                    .containsExactly(
                            "VP", "LF", "VFR", "IF", "AFR", "RFR", "TF", "VTR", "VCR", "PCR", "DCR", "SR", "VNF");
            assertThat(result.sessions().keySet())
                    .containsExactly("VSP", "VFP", "PCS", "DCS", "IFS", "AFS", "RFS", "TFS");
            long count = result.actions().values().stream()
                    .mapToLong(KindResult::count)
                    .sum();
            long noops = result.actions().values().stream()
                    .mapToLong(KindResult::noops)
                    .sum();
            long errors = result.actions().values().stream()
                    .mapToLong(KindResult::errors)
                    .sum();
            long withinBeta = result.actions().values().stream()
                    .mapToLong(KindResult::withinBetaCount)
                    .sum();
            assertThat(result.total().count()).isEqualTo(count).isEqualTo(200);
            assertThat(result.total().noops()).isEqualTo(noops).isEqualTo(100);
            assertThat(result.total().errors()).isEqualTo(errors).isEqualTo(100);
            assertThat(result.total().withinBetaCount()).isEqualTo(withinBeta).isEqualTo(200);
            double tput = result.actions().values().stream()
                    .mapToDouble(KindResult::throughput)
                    .sum();
            assertThat(result.throughput()).isCloseTo(tput, within(1e-6 * tput));
            KindResult lf = result.actions().get("LF");
            assertThat(lf.count()).isZero();
            assertThat(lf.p50Ms()).isNull();
            assertThat(lf.withinBetaPct()).isNull();
            assertThat(lf.throughput()).isZero();
            assertThat(result.actions().get("IF").withinBetaPctCountingErrors()).isZero();
            assertThat(result.sessions().get("IFS").count()).isEqualTo(100);
            assertThat(result.total().histogram().getTotalCount()).isEqualTo(200);
        }
    }

    @ParameterizedTest
    @ValueSource(
            longs = {
                0,
                1,
                511,
                512,
                999_999,
                1_234_567,
                2_047_999,
                100_000_000,
                99_999_999,
                3_000_000_017L,
                3_600_000_000_000L,
                3_600_000_000_000L - 40_000,
                7_200_000_000_000L
            })
    void withinBetaIsExactAroundBeta(long beta) {
        try (Measurements m = builder().beta(Duration.ofNanos(beta)).build()) {
            m.startMeasuring();
            Recorder r = m.recorder(1);
            long expected = 0;
            long recorded = 0;
            // Every nanosecond around β (a whole histogram slot around 100 ms is 64 µs wide).
            for (long v = beta - 70_000; v <= beta + 70_000; v += v > beta - 70 && v < beta + 70 ? 1 : 997) {
                r.ok(Action.VTR, v);
                recorded++;
                if (v <= beta) {
                    expected++;
                }
            }
            m.stopMeasuring();
            KindResult vtr = m.result().actions().get("VTR");
            assertThat(vtr.count()).isEqualTo(recorded);
            assertThat(vtr.withinBetaCount()).isEqualTo(expected);
            assertThat(vtr.withinBetaPct()).isCloseTo(100.0 * expected / vtr.count(), within(1e-9));
            // The histogram alone cannot split β's slot; that is what the separate count is for.
            Histogram h = vtr.histogram();
            long slotTop = h.highestEquivalentValue(Math.min(beta, Latencies.HIGHEST_NS));
            assertThat(h.getCountBetweenValues(0, slotTop)).isGreaterThanOrEqualTo(expected);
        }
    }

    @Test
    void perSecondSamplesAddUpToTheTotals() throws Exception {
        List<SecondSample> samples = new ArrayList<>();
        try (Measurements m = builder().listener(samples::add).build()) {
            m.startMeasuring();
            AtomicBoolean done = new AtomicBoolean();
            Thread sampler = Thread.ofPlatform().start(() -> {
                while (!done.get()) {
                    m.sample();
                }
            });
            recordConcurrently(m, 4, 500, 2_000);
            done.set(true);
            sampler.join();
            m.stopMeasuring();
            RunResult r = m.result();

            assertThat(samples).allMatch(s -> !s.warmup());
            assertThat(r.series()).hasSameSizeAs(samples).hasSizeGreaterThan(1);
            assertThat(r.series().stream().mapToLong(SeriesPoint::actions).sum())
                    .isEqualTo(r.total().count());
            assertThat(r.series().stream().mapToLong(SeriesPoint::errors).sum())
                    .isEqualTo(r.total().errors()
                            + r.sessions().values().stream()
                                    .mapToLong(KindResult::errors)
                                    .sum());
            assertThat(r.series().stream().mapToDouble(SeriesPoint::intervalS).sum())
                    .isCloseTo(r.durationS(), within(1e-6));
            assertThat(r.series().stream().mapToDouble(SeriesPoint::bgWaitMs).sum())
                    .isCloseTo(r.bgWait().totalMs(), within(1e-6));
            // Merging the interval histograms per kind gives back the final ones, slot for slot.
            for (int k = 0; k < KINDS; k++) {
                KindCounts merged = KindCounts.empty(m.kindCodes().get(k));
                for (SecondSample s : samples) {
                    merged = merged.plus(s.kinds().get(k));
                }
                KindResult fin = k < Action.count()
                        ? r.actions().get(merged.code())
                        : r.sessions().get(merged.code());
                assertThat(merged.latencies()).isEqualTo(fin.histogram());
                assertThat(merged.withinBeta()).isEqualTo(fin.withinBetaCount());
                assertThat(merged.noops()).isEqualTo(fin.noops());
                assertThat(merged.errors()).isEqualTo(fin.errors());
            }
            Histogram allActions = Latencies.newHistogram();
            samples.forEach(s -> allActions.add(s.actionLatencies()));
            assertThat(allActions).isEqualTo(r.total().histogram());
        }
    }

    /**
     * The sampler reads only the kinds recorded so far: kinds that appear one after another while it samples without a
     * pause (each thread on its own stripe, 4 stripes, so every kind's first value races with a scan) are counted
     * exactly, every interval's values once, and a kind never recorded stays empty.
     */
    @Test
    void kindsFirstRecordedWhileSamplingAreCountedExactly() throws Exception {
        int threads = 4;
        int perKind = 20_000;
        int used = KINDS - 1; // the last kind is never recorded
        List<SecondSample> samples = new ArrayList<>();
        try (Measurements m = builder().stripes(threads).listener(samples::add).build()) {
            m.startMeasuring();
            AtomicBoolean done = new AtomicBoolean();
            Thread sampler = Thread.ofPlatform().start(() -> {
                while (!done.get()) {
                    m.sample();
                }
            });
            CountDownLatch go = new CountDownLatch(1);
            List<Thread> recorders = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                Recorder r = m.recorder(t);
                int first = t;
                recorders.add(Thread.ofPlatform().start(() -> {
                    try {
                        go.await();
                    } catch (InterruptedException e) {
                        return;
                    }
                    // Thread t starts at kind t and walks through the kinds in turn: new kinds keep appearing.
                    for (int i = 0; i < used; i++) {
                        int kind = (first + i) % used;
                        for (int j = 0; j < perKind; j++) {
                            if (j % 10 == 9) {
                                r.noop(kind);
                            } else {
                                r.ok(kind, 1_000 + j % 500 * 1_000L);
                            }
                        }
                    }
                }));
            }
            go.countDown();
            for (Thread t : recorders) {
                t.join();
            }
            done.set(true);
            sampler.join();
            m.stopMeasuring();
            RunResult r = m.result();

            assertThat(samples).hasSizeGreaterThan(2);
            for (int k = 0; k < KINDS; k++) {
                String code = m.kindCodes().get(k);
                KindResult fin = k < Action.count()
                        ? r.actions().get(code)
                        : r.sessions().get(code);
                long oks = k < used ? (long) threads * perKind * 9 / 10 : 0;
                long noops = k < used ? (long) threads * perKind / 10 : 0;
                assertThat(fin.count()).as(code).isEqualTo(oks);
                assertThat(fin.noops()).as(code).isEqualTo(noops);
                KindCounts merged = KindCounts.empty(code);
                for (SecondSample s : samples) {
                    merged = merged.plus(s.kinds().get(k));
                }
                assertThat(merged.latencies().getTotalCount()).as(code).isEqualTo(oks);
                assertThat(merged.latencies()).as(code).isEqualTo(fin.histogram());
                assertThat(merged.noops()).as(code).isEqualTo(noops);
            }
        }
    }

    @Test
    void samplerThreadDeliversWarmupThenMeasuredSamples() throws Exception {
        CountDownLatch warm = new CountDownLatch(2);
        CountDownLatch measured = new CountDownLatch(3);
        List<SecondSample> seen = Collections.synchronizedList(new ArrayList<>());
        try (Measurements m = builder()
                .samplePeriod(Duration.ofMillis(20))
                .listener(s -> {
                    seen.add(s);
                    (s.warmup() ? warm : measured).countDown();
                })
                .build()) {
            m.startSampler();
            assertThat(warm.await(30, TimeUnit.SECONDS)).isTrue();
            m.startMeasuring();
            m.recorder(0).ok(Action.LF, 3_000_000);
            burnCpuUntilTheProcessClockMoves();
            assertThat(measured.await(30, TimeUnit.SECONDS)).isTrue();
            m.stopMeasuring();
            int size = seen.size();
            RunResult r = m.result();
            assertThat(r.total().count()).isEqualTo(1);
            assertThat(r.series())
                    .hasSize((int) seen.stream().filter(s -> !s.warmup()).count());
            assertThat(r.series().stream().map(SeriesPoint::second).toList())
                    .isEqualTo(
                            IntStream.rangeClosed(1, r.series().size()).boxed().toList());
            assertThat(r.cpu().bgCores()).isNotNull().isPositive();
            // Stopped: the sampler delivers nothing more, and sampling by hand is refused.
            assertThat(seen).hasSize(size);
            assertThatThrownBy(m::sample).isInstanceOf(IllegalStateException.class);
        }
    }

    // The JVM's CPU clock may tick in 10 ms steps; an idle 60 ms window can honestly read 0 cores.
    private static void burnCpuUntilTheProcessClockMoves() {
        var os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        long start = os.getProcessCpuTime();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        long x = 1;
        while (os.getProcessCpuTime() < start + 30_000_000L && System.nanoTime() < deadline) {
            for (int i = 0; i < 100_000; i++) {
                x = x * 6364136223846793005L + 1442695040888963407L;
            }
        }
        if (x == 42) {
            System.out.println(x);
        }
    }

    @Test
    void partialResultCoversTheSamplesTakenSoFar() {
        try (Measurements m = builder().build()) {
            assertThat(m.result().partial()).isTrue();
            assertThat(m.result().total().count()).isZero();
            m.startMeasuring();
            m.recorder(0).ok(Action.VP, 1_000);
            m.sample();
            m.recorder(0).ok(Action.VP, 1_000);
            RunResult partial = m.result();
            assertThat(partial.partial()).isTrue();
            assertThat(partial.total().count()).isEqualTo(1);
            m.stopMeasuring();
            assertThat(m.result().total().count()).isEqualTo(2);
            assertThat(m.result().partial()).isFalse();
        }
    }

    @Test
    void bgWaitIsComparedWithActionTime() {
        try (Measurements m = builder().build()) {
            m.startMeasuring();
            Recorder r = m.recorder(2);
            for (int i = 0; i < 1_000; i++) {
                r.ok(Action.VP, 1_000_000);
                r.bgWait(400_000);
            }
            r.bgWait(0); // not a wait
            m.stopMeasuring();
            RunResult result = m.result();
            assertThat(result.bgWait().count()).isEqualTo(1_000);
            assertThat(result.bgWait().totalMs()).isEqualTo(400.0);
            assertThat(result.bgWait().fraction()).isCloseTo(0.4, within(0.001));
            assertThat(result.bottleneckWarnings())
                    .anyMatch(w -> w.startsWith("threads waited inside BG for 40 % as long as the store took"));
        }
    }

    @Test
    void kindsAndArgumentsAreChecked() {
        try (Measurements m = builder().build()) {
            assertThat(m.kindCount()).isEqualTo(KINDS);
            assertThat(m.kindCodes().get(Action.DCR.index())).isEqualTo("DCR");
            assertThat(m.kindCodes().get(SessionType.INVITE_FRIEND.index())).isEqualTo("IFS");
            assertThat(m.recorder(5)).isSameAs(m.recorder(5 + m.stripeCount()));
            assertThatThrownBy(() -> m.recorder(0).ok(KINDS, 1)).isInstanceOf(IndexOutOfBoundsException.class);
            assertThatThrownBy(() -> m.recorder(0).noop(-1)).isInstanceOf(IndexOutOfBoundsException.class);
            assertThatThrownBy(() -> m.recorder(-1)).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(m::stopMeasuring).isInstanceOf(IllegalStateException.class);
        }
        assertThat(MeasurementsBuilder.defaultStripes(2)).isEqualTo(4);
        assertThat(MeasurementsBuilder.defaultStripes(3)).isEqualTo(8);
        assertThat(MeasurementsBuilder.defaultStripes(256)).isEqualTo(32);
        assertThat(Measurements.builder().stripes(5).build().stripeCount()).isEqualTo(8);
    }
}
