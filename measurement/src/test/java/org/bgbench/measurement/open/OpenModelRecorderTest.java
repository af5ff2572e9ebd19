package org.bgbench.measurement.open;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.HdrHistogram.Histogram;
import org.bgbench.measurement.Latencies;
import org.bgbench.measurement.SecondSample;
import org.bgbench.measurement.SeriesPoint;
import org.bgbench.model.Kind;
import org.bgbench.model.log.ArrivalRecorder;
import org.junit.jupiter.api.Test;

class OpenModelRecorderTest {
    private static final List<String> CODES =
            Kind.all().stream().map(Kind::code).toList();
    private static final List<OpenModelRecorder.PhasePlan> TWO_PHASES = List.of(
            new OpenModelRecorder.PhasePlan("100:2s", 0, 2, 100, 100),
            new OpenModelRecorder.PhasePlan("ramp:300:2s", 2, 4, 100, 300));

    private static OpenModelRecorder recorder(int inFlight) {
        return new OpenModelRecorder(
                "100:2s,ramp:300:2s", "constant", inFlight, Duration.ofMillis(100), 5, CODES, TWO_PHASES);
    }

    @Test
    void arrivalsFromManyThreadsAreCountedExactlyAcrossTheStripes() throws Exception {
        OpenModelRecorder r = recorder(8);
        int threads = 8;
        int each = 50_000;
        CountDownLatch go = new CountDownLatch(1);
        List<Thread> ts = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            ArrivalRecorder stripe = r.stripe(t);
            int index = t;
            ts.add(Thread.ofPlatform().start(() -> {
                try {
                    go.await();
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
                for (int i = 0; i < each; i++) {
                    // Every 100th late (200 ms > the 100 ms bound), every 10th queued, half in each phase.
                    stripe.started(i % 2, i % 100 == 0 ? 200_000_000L : 1_000L * (i % 50), i % 10 == 0);
                    stripe.service(index % 2, 2_000_000L);
                }
            }));
        }
        go.countDown();
        for (Thread t : ts) {
            t.join();
        }
        OpenModelResult o = r.result(4, 0, 0);
        long n = (long) threads * each;
        assertThat(o.started()).isEqualTo(n);
        assertThat(o.offered()).isEqualTo(n);
        assertThat(o.late()).isEqualTo(n / 100);
        assertThat(o.queued()).isEqualTo(n / 10);
        assertThat(o.startDelay().count()).isEqualTo(n);
        assertThat(o.startDelay().maxMs()).isCloseTo(200, within(0.2));
        assertThat(o.phases().get(0).started() + o.phases().get(1).started()).isEqualTo(n);
        assertThat(o.service()).containsOnlyKeys(CODES.get(0), CODES.get(1));
        assertThat(o.service().get(CODES.get(0)).count()
                        + o.service().get(CODES.get(1)).count())
                .isEqualTo(n);
        assertThat(o.service().get(CODES.get(0)).p99Ms()).isCloseTo(2.0, within(0.01));
        // 1 % late is within the 5 % allowed.
        assertThat(o.valid()).isTrue();
        assertThat(o.offeredRate()).isCloseTo(n / 4.0, within(1e-6));
    }

    @Test
    void tooManyLateArrivalsOrABacklogMakeTheRunInvalidAndSayWhy() {
        OpenModelRecorder r = recorder(2);
        ArrivalRecorder s = r.stripe(0);
        for (int i = 0; i < 90; i++) {
            s.started(0, 1_000, false);
        }
        // 4 of 94 started late: within the 5 % allowed.
        for (int i = 0; i < 4; i++) {
            s.started(1, 150_000_000L, true);
        }
        OpenModelResult ok = r.result(4, 0, 0);
        assertThat(ok.valid()).as("4 of 94 late").isTrue();
        // 6 more were due and never started, though only for 50 ms (less than the 100 ms bound): late all the same.
        OpenModelResult bad = r.result(4, 6, 50_000_000L);
        assertThat(bad.offered()).isEqualTo(100);
        assertThat(bad.oldestUnstartedMs()).isEqualTo(50.0);
        assertThat(bad.late()).isEqualTo(10);
        assertThat(bad.latePct()).isEqualTo(10.0);
        assertThat(bad.valid()).isFalse();
        assertThat(bad.invalidReason())
                .contains(
                        "fell behind its schedule",
                        "10.0 %",
                        "100 ms",
                        "4 started more than",
                        "6 never started",
                        "found all 2 threads busy");
    }

    @Test
    void aRunInWhichAlmostNoArrivalStartedIsInvalidThoughNoneWaitedLongerThanTheBound() {
        // A period as long as the bound: no unstarted arrival can have waited longer than it.
        OpenModelRecorder r = new OpenModelRecorder(
                "1000000000",
                "constant",
                1,
                Duration.ofSeconds(1),
                5,
                CODES,
                List.of(new OpenModelRecorder.PhasePlan("1000000000", 0, Double.POSITIVE_INFINITY, 1e9, 1e9)));
        for (int i = 0; i < 1000; i++) {
            r.stripe(0).started(0, 500_000_000L, true);
        }
        OpenModelResult o = r.result(1, 999_999_000L, 999_000_000L);
        assertThat(o.offered()).isEqualTo(1_000_000_000L);
        assertThat(o.started()).isEqualTo(1000);
        assertThat(o.late()).isEqualTo(999_999_000L);
        assertThat(o.valid()).isFalse();
        assertThat(o.invalidReason()).contains("999,999,000 never started");
    }

    @Test
    void eachSecondsResponsesGoToThePhaseThatHoldsItsMiddle() {
        OpenModelRecorder r = recorder(1);
        r.accept(second(false, 1.0, 1.0, 100, 5_000_000L));
        r.accept(second(false, 2.0, 1.0, 100, 5_000_000L));
        // 1.8 s to 2.9 s: its middle, 2.35 s, is in the ramp.
        r.accept(second(false, 2.9, 1.1, 220, 50_000_000L));
        r.accept(second(false, 4.0, 1.1, 330, 50_000_000L));
        r.accept(second(true, 1.0, 1.0, 999, 900_000_000L));
        OpenModelResult o = r.result(4, 0, 0);
        OpenModelResult.PhaseResult first = o.phases().get(0);
        OpenModelResult.PhaseResult ramp = o.phases().get(1);
        assertThat(first.response().count()).isEqualTo(200);
        assertThat(first.throughput()).isCloseTo(100, within(1e-9));
        assertThat(first.response().p99Ms()).isCloseTo(5.0, within(0.01));
        assertThat(ramp.response().count()).isEqualTo(550);
        assertThat(ramp.throughput()).isCloseTo(550 / 2.2, within(1e-9));
        assertThat(ramp.response().p50Ms()).isCloseTo(50.0, within(0.1));
        assertThat(ramp.label()).isEqualTo("ramp:300:2s");
        assertThat(ramp.startS()).isEqualTo(2.0);
        assertThat(ramp.endS()).isEqualTo(4.0);
    }

    /** A sampled second ending {@code elapsed} s into its phase, with {@code n} actions of {@code nanos} each. */
    static SecondSample second(boolean warmup, double elapsed, double interval, long n, long nanos) {
        Histogram h = Latencies.newHistogram();
        h.recordValueWithCount(nanos, n);
        SeriesPoint p = SeriesPoint.builder()
                .second(1)
                .elapsedS(elapsed)
                .intervalS(interval)
                .actions(n)
                .throughput(n / interval)
                .sessions(0)
                .errors(0)
                .noops(0)
                .p50Ms(null)
                .p95Ms(null)
                .p99Ms(null)
                .maxMs(null)
                .withinBetaPct(null)
                .bgWaitMs(0)
                .bgCores(null)
                .storeCores(null)
                .machineCores(null)
                .build();
        return new SecondSample(warmup, p, List.of(), h, 0, null);
    }
}
