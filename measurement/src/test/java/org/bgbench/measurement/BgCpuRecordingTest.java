package org.bgbench.measurement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import com.sun.management.OperatingSystemMXBean;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import org.bgbench.measurement.report.ResultJson;
import org.bgbench.measurement.resource.ResourceMonitor;
import org.bgbench.model.Action;
import org.bgbench.model.Kind;
import org.bgbench.model.SessionType;
import org.junit.jupiter.api.Test;

/**
 * BG's CPU per action: {@link Recorder#cpu} adds to two counters per kind (CPU ns, samples) in the stripes; they come
 * out exactly in the intervals, the totals, the result's {@code bg_cpu_us} and {@code bg_cpu_samples}, and the CPU
 * outside the store calls.
 */
class BgCpuRecordingTest {
    private static final int ACTIONS = Action.count();

    private static MeasurementsBuilder builder() {
        return Measurements.builder().threads(8).resourceMonitor(ResourceMonitor.create(List.of()));
    }

    /** Thread t's j-th sample: an action, and its CPU ns (a few negative ones, which count as 0). */
    private static int kindOf(int t, int j) {
        // Action SR (index 11) never gets a sample: its figure must stay null.
        int k = (t * 7 + j) % (ACTIONS - 1);
        return k >= Action.SR.index() ? k + 1 : k;
    }

    private static long nanosOf(int t, int j) {
        return j % 501 == 0 ? -5 : 1_000 + (t * 131L + j * 17L) % 90_000;
    }

    @Test
    void samplesAreCountedExactlyAcrossStripesThreadsAndSeconds() throws Exception {
        int platform = 6;
        int virtual = 200;
        int steps = 2_000;
        List<SecondSample> samples = new CopyOnWriteArrayList<>();
        try (Measurements m = builder().stripes(4).listener(samples::add).build()) {
            // Warm-up: excluded, as everything recorded before the measured period.
            m.recorder(0).cpu(Action.VP.index(), 1_000_000_000L);
            m.recorder(1).cpu(Action.LF.index(), 1_000_000_000L);
            m.sample();
            m.startMeasuring();
            AtomicBoolean done = new AtomicBoolean();
            Thread sampler = Thread.ofPlatform().start(() -> {
                while (!done.get()) {
                    m.sample();
                }
            });
            CountDownLatch go = new CountDownLatch(1);
            List<Thread> threads = new ArrayList<>();
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
                        r.cpu(kindOf(index, j), nanosOf(index, j));
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
            done.set(true);
            sampler.join();
            m.stopMeasuring();
            RunResult r = m.result();

            long[] nanos = new long[Kind.count()];
            long[] count = new long[Kind.count()];
            for (int t = 0; t < platform + virtual; t++) {
                for (int j = 0; j < steps; j++) {
                    nanos[kindOf(t, j)] += Math.max(0, nanosOf(t, j));
                    count[kindOf(t, j)]++;
                }
            }
            long allNanos = 0;
            long allCount = 0;
            for (Action a : Action.values()) {
                KindResult k = r.actions().get(a.code());
                assertThat(k.bgCpuSamples()).as(a.code()).isEqualTo(count[a.index()]);
                if (count[a.index()] == 0) {
                    assertThat(k.bgCpuUs()).as(a.code()).isNull();
                } else {
                    assertThat(k.bgCpuUs())
                            .as(a.code())
                            .isCloseTo(nanos[a.index()] / 1e3 / count[a.index()], within(1e-9));
                }
                allNanos += nanos[a.index()];
                allCount += count[a.index()];
            }
            assertThat(r.actions().get("SR").bgCpuUs()).isNull();
            assertThat(r.total().bgCpuSamples()).isEqualTo(allCount).isEqualTo((long) (platform + virtual) * steps);
            assertThat(r.total().bgCpuUs()).isCloseTo(allNanos / 1e3 / allCount, within(1e-9));
            for (KindResult s : r.sessions().values()) {
                assertThat(s.bgCpuSamples()).isZero();
                assertThat(s.bgCpuUs()).isNull();
            }
            // The measured seconds add up to the totals, counter for counter; warm-up seconds hold the warm-up's.
            assertThat(samples.stream().filter(s -> !s.warmup()).count()).isGreaterThan(1);
            for (int k = 0; k < Kind.count(); k++) {
                KindCounts sum = KindCounts.empty(m.kindCodes().get(k));
                for (SecondSample s : samples) {
                    if (!s.warmup()) {
                        sum = sum.plus(s.kinds().get(k));
                    }
                }
                assertThat(sum.cpuNanos()).as(sum.code()).isEqualTo(nanos[k]);
                assertThat(sum.cpuSamples()).as(sum.code()).isEqualTo(count[k]);
            }
            SecondSample warm = samples.getFirst();
            assertThat(warm.warmup()).isTrue();
            assertThat(warm.kinds().get(Action.VP.index()).cpuNanos()).isEqualTo(1_000_000_000L);
            assertThat(warm.kinds().get(Action.LF.index()).cpuSamples()).isEqualTo(1);
        }
    }

    @Test
    void theCountersDoNotDisturbTheOthersOfTheirKind() {
        try (Measurements m = builder().stripes(1).build()) {
            m.startMeasuring();
            Recorder r = m.recorder(0);
            r.ok(Action.VP, 1_000_000);
            r.error(Action.VP, 3_000_000);
            r.noop(Action.VP);
            r.cpu(Action.VP.index(), 7_000);
            r.cpu(Action.VP.index(), 9_000);
            r.cpu(SessionType.VIEW_SELF_PROFILE.index(), 4_000);
            r.ok(Action.LF, 2_000_000);
            m.stopMeasuring();
            RunResult res = m.result();
            KindResult vp = res.actions().get("VP");
            assertThat(vp.count()).isEqualTo(1);
            assertThat(vp.errors()).isEqualTo(1);
            assertThat(vp.noops()).isEqualTo(1);
            assertThat(vp.errorMeanMs()).isEqualTo(3.0);
            assertThat(vp.bgCpuUs()).isEqualTo(8.0);
            assertThat(vp.bgCpuSamples()).isEqualTo(2);
            KindResult lf = res.actions().get("LF");
            assertThat(lf.bgCpuUs()).isNull();
            assertThat(lf.bgCpuSamples()).isZero();
            // A session's figure, if one were recorded, stays its own: not in the actions' total.
            assertThat(res.sessions().get("VSP").bgCpuUs()).isEqualTo(4.0);
            assertThat(res.total().bgCpuUs()).isEqualTo(8.0);
            assertThat(res.total().bgCpuSamples()).isEqualTo(2);
            assertThatThrownBy(() -> r.cpu(Kind.count(), 1)).isInstanceOf(IndexOutOfBoundsException.class);
        }
    }

    @Test
    void theCpuOutsideTheStoreCallsIsTheWholeLessTheCountWeightedMeanOfTheActions() {
        try (Measurements m = builder().build()) {
            m.startMeasuring();
            Recorder r = m.recorder(0);
            for (int i = 0; i < 300; i++) {
                r.ok(Action.VP, 1_000_000);
                if (i % 3 == 0) {
                    r.ok(Action.LF, 1_000_000);
                    r.cpu(Action.LF.index(), 40_000);
                }
                if (i % 10 == 0) {
                    r.cpu(Action.VP.index(), 4_000);
                }
                r.ok(Action.VTR, 1_000_000); // no samples: left out of the mean
            }
            burnCpu();
            m.stopMeasuring();
            RunResult res = m.result();
            CpuResult cpu = res.cpu();
            assertThat(cpu.bgUsPerAction()).isNotNull().isPositive();
            // 300 VP at 4 µs and 100 LF at 40 µs: 13 µs per action in the store calls.
            assertThat(cpu.bgOutsideUsPerAction()).isCloseTo(Math.max(0, cpu.bgUsPerAction() - 13.0), within(1e-9));
            String json = ResultJson.toJson(res);
            assertThat(json)
                    .contains("\"bg_outside_us_per_action\"")
                    .contains("\"bg_cpu_us\" : 4.0")
                    .contains("\"bg_cpu_samples\" : 30");
            assertThat(ResultJson.fromJson(json)).isEqualTo(res);
        }
    }

    @Test
    void outsideIsUnknownWhenEitherPartIs() {
        KindResult vp = KindResult.of(
                new KindCounts(
                        "VP", Latencies.newHistogram(), 0, 0, KindCounts.NO_OUTCOMES, new KindCounts.Cpu(30_000, 3)),
                1);
        KindResult withCount = withCount(5, 20_000, 2);
        KindResult noFigure = withCount(7, 0, 0);
        assertThat(withCount.bgCpuUs()).isEqualTo(10.0);
        assertThat(noFigure.bgCpuUs()).isNull();
        assertThat(CpuResult.outsideUsPerAction(null, List.of(withCount))).isNull();
        assertThat(CpuResult.outsideUsPerAction(50.0, List.of(noFigure))).isNull();
        // An action with samples but nothing completed weighs nothing.
        assertThat(CpuResult.outsideUsPerAction(50.0, List.of(vp))).isNull();
        KindResult other = withCount(15, 40_000, 2); // 20 µs
        assertThat(CpuResult.outsideUsPerAction(50.0, List.of(withCount, noFigure, other, vp)))
                .isCloseTo(50.0 - (5 * 10.0 + 15 * 20.0) / 20, within(1e-12));
    }

    @Test
    void outsideIsNeverNegative() {
        // The calls' sampled thread CPU (20 µs) above the process's CPU per action (15 µs): disagreement, read as 0.
        KindResult heavy = withCount(10, 40_000, 2);
        assertThat(CpuResult.outsideUsPerAction(15.0, List.of(heavy))).isEqualTo(0.0);
    }

    @Test
    void kindCountsAddTheirCpuCounters() {
        KindCounts a = new KindCounts(
                "VP", Latencies.newHistogram(), 1, 5, new KindCounts.Outcomes(2, 3, 4), new KindCounts.Cpu(600, 7));
        KindCounts b = new KindCounts(
                "VP",
                Latencies.newHistogram(),
                10,
                50,
                new KindCounts.Outcomes(20, 30, 40),
                new KindCounts.Cpu(6_000, 70));
        KindCounts sum = a.plus(b);
        assertThat(sum.cpuNanos()).isEqualTo(6_600);
        assertThat(sum.cpuSamples()).isEqualTo(77);
        assertThat(sum.errorNanos()).isEqualTo(44);
        assertThat(sum.stuck()).isEqualTo(55);
        KindCounts stuck = a.withStuck(Latencies.newHistogram(), 9);
        assertThat(stuck.cpuNanos()).isEqualTo(600);
        assertThat(stuck.cpuSamples()).isEqualTo(7);
        assertThat(stuck.stuck()).isEqualTo(9);
    }

    private static KindResult withCount(int count, long cpuNanos, long cpuSamples) {
        org.HdrHistogram.Histogram h = Latencies.newHistogram();
        h.recordValueWithCount(1_000_000, count);
        return KindResult.of(
                new KindCounts("X", h, count, 0, KindCounts.NO_OUTCOMES, new KindCounts.Cpu(cpuNanos, cpuSamples)), 1);
    }

    /** The process CPU clock may tick in 10 ms steps: burn until it has moved, so bg_us_per_action is known. */
    private static void burnCpu() {
        var os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        long start = os.getProcessCpuTime();
        long deadline = System.nanoTime() + 10_000_000_000L;
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
}
