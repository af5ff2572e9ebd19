package org.bgbench.measurement.merge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.sun.management.OperatingSystemMXBean;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.HdrHistogram.Histogram;
import org.bgbench.measurement.CpuResult;
import org.bgbench.measurement.KindResult;
import org.bgbench.measurement.Latencies;
import org.bgbench.measurement.Measurements;
import org.bgbench.measurement.NodeResult;
import org.bgbench.measurement.RunResult;
import org.bgbench.measurement.SeriesPoint;
import org.bgbench.measurement.Unpredictable;
import org.bgbench.measurement.resource.ResourceMonitor;
import org.bgbench.model.Action;
import org.junit.jupiter.api.Test;

class ResultMergerTest {
    private static Measurements measurements() {
        return Measurements.builder()
                .threads(2)
                .resourceMonitor(ResourceMonitor.create(List.of()))
                .build();
    }

    /** Records the same random stream into a worker's measurements and into the single reference. */
    private static void record(Measurements worker, Measurements all, long seed, int n) {
        SplittableRandom rnd = new SplittableRandom(seed);
        for (int i = 0; i < n; i++) {
            Action a = Action.values()[rnd.nextInt(Action.count())];
            // Log-uniform latencies from 50 µs to 2 s, so many land on either side of β = 100 ms.
            long nanos = (long) Math.exp(Math.log(50_000) + rnd.nextDouble() * (Math.log(2e9) - Math.log(50_000)));
            switch (rnd.nextInt(20)) {
                case 0 -> {
                    worker.recorder(0).error(a, nanos);
                    all.recorder(0).error(a, nanos);
                }
                case 1 -> {
                    worker.recorder(0).noop(a);
                    all.recorder(0).noop(a);
                }
                default -> {
                    worker.recorder(0).ok(a, nanos);
                    all.recorder(0).ok(a, nanos);
                }
            }
        }
    }

    @Test
    void mergingWorkersEqualsMeasuringEverythingInOnePlace() {
        RunResult r1;
        RunResult r2;
        RunResult r3;
        RunResult ref;
        try (Measurements w1 = measurements();
                Measurements w2 = measurements();
                Measurements w3 = measurements();
                Measurements all = measurements()) {
            for (Measurements m : List.of(w1, w2, w3, all)) {
                m.startMeasuring();
            }
            record(w1, all, 1, 20_000);
            record(w2, all, 2, 5_000);
            record(w3, all, 3, 40_000);
            for (Measurements m : List.of(w1, w2, w3, all)) {
                m.stopMeasuring();
            }
            r1 = w1.result();
            r2 = w2.result();
            r3 = w3.result();
            ref = all.result();
        }
        RunResult merged = ResultMerger.merge(List.of(r1, r2, r3), List.of("a:1", "b:2", "c:3"), List.of(), Map.of());
        for (String code : ref.actions().keySet()) {
            KindResult m = merged.actions().get(code);
            KindResult want = ref.actions().get(code);
            assertThat(m.histogram()).as(code).isEqualTo(want.histogram());
            assertThat(m.count()).isEqualTo(want.count());
            assertThat(m.withinBetaCount()).isEqualTo(want.withinBetaCount());
            assertThat(m.noops()).isEqualTo(want.noops());
            assertThat(m.errors()).isEqualTo(want.errors());
            assertThat(m.p95Ms()).isEqualTo(want.p95Ms());
            assertThat(m.p99Ms()).isEqualTo(want.p99Ms());
            assertThat(m.maxMs()).isEqualTo(want.maxMs());
        }
        assertThat(merged.total().histogram()).isEqualTo(ref.total().histogram());
        assertThat(merged.total().withinBetaPct()).isEqualTo(ref.total().withinBetaPct());
        assertThat(merged.throughput()).isCloseTo(r1.throughput() + r2.throughput() + r3.throughput(), within(1e-9));
        assertThat(merged.threads()).isEqualTo(6);
        // Averaging the workers' p95 would be wrong: the skewed worker sizes make it differ from the true one.
        double averaged = (r1.total().p95Ms() + r2.total().p95Ms() + r3.total().p95Ms()) / 3;
        assertThat(merged.total().p95Ms()).isEqualTo(ref.total().p95Ms());
        assertThat(averaged).isNotEqualTo(ref.total().p95Ms());
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> workers =
                (List<Map<String, Object>>) merged.config().get("workers");
        assertThat(workers).extracting(w -> w.get("worker")).containsExactly("a:1", "b:2", "c:3");
        assertThat(workers.stream().mapToLong(w -> (Long) w.get("count")).sum())
                .isEqualTo(ref.total().count());
    }

    @Test
    void bgCpuPerActionMergesAsIfMeasuredInOnePlace() {
        RunResult r1;
        RunResult r2;
        RunResult ref;
        try (Measurements w1 = measurements();
                Measurements w2 = measurements();
                Measurements all = measurements()) {
            for (Measurements m : List.of(w1, w2, all)) {
                m.startMeasuring();
            }
            SplittableRandom rnd = new SplittableRandom(7);
            for (int i = 0; i < 30_000; i++) {
                // VP on both workers, LF on the first only, IF on the second only; odd CPU times, so means are
                // fractional.
                Action a = List.of(Action.VP, Action.LF, Action.IF).get(rnd.nextInt(3));
                Measurements w = a == Action.LF || (a == Action.VP && rnd.nextBoolean()) ? w1 : w2;
                long cpu = 1_000 + rnd.nextLong(500_000);
                for (Measurements m : List.of(w, all)) {
                    m.recorder(i & 1).ok(a, 1_000_000);
                    if (i % 8 == 0) {
                        m.recorder(i & 1).cpu(a.index(), cpu);
                    }
                }
            }
            burnCpuUntilTheProcessClockMoves();
            for (Measurements m : List.of(w1, w2, all)) {
                m.stopMeasuring();
            }
            r1 = w1.result();
            r2 = w2.result();
            ref = all.result();
        }
        assertThat(r1.actions().get("IF").bgCpuUs()).isNull();
        assertThat(r2.actions().get("LF").bgCpuUs()).isNull();
        RunResult merged = ResultMerger.merge(List.of(r1, r2), List.of("a:1", "b:2"), List.of(), Map.of());
        List<KindResult> kinds = new ArrayList<>(ref.actions().values());
        kinds.add(ref.total());
        List<KindResult> got = new ArrayList<>(merged.actions().values());
        got.add(merged.total());
        for (int i = 0; i < kinds.size(); i++) {
            KindResult want = kinds.get(i);
            KindResult m = got.get(i);
            assertThat(m.bgCpuSamples()).as("kind %d", i).isEqualTo(want.bgCpuSamples());
            if (want.bgCpuUs() == null) {
                assertThat(m.bgCpuUs()).as("kind %d", i).isNull();
            } else {
                assertThat(m.bgCpuUs()).as("kind %d", i).isCloseTo(want.bgCpuUs(), within(1e-9));
            }
        }
        assertThat(merged.actions().get("VP").bgCpuSamples())
                .isEqualTo(r1.actions().get("VP").bgCpuSamples()
                        + r2.actions().get("VP").bgCpuSamples());
        assertThat(merged.total().bgCpuSamples()).isPositive();
        // Outside the calls: from the merged figures.
        assertThat(merged.cpu().bgUsPerAction()).isNotNull();
        assertThat(merged.cpu().bgOutsideUsPerAction())
                .isNotNull()
                .isEqualTo(CpuResult.outsideUsPerAction(
                        merged.cpu().bgUsPerAction(), merged.actions().values()));
        for (RunResult p : List.of(r1, r2, ref)) {
            assertThat(p.cpu().bgOutsideUsPerAction())
                    .isEqualTo(CpuResult.outsideUsPerAction(
                            p.cpu().bgUsPerAction(), p.actions().values()));
        }
    }

    // The JVM's CPU clock may tick in 10 ms steps: without this, BG's CPU per action can honestly be 0 or unknown.
    private static void burnCpuUntilTheProcessClockMoves() {
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

    @Test
    void unpredictableReadsAddUpAndThePercentageIsRecomputed() {
        RunResult a = withUnpredictable(1000, 0);
        RunResult b = withUnpredictable(3000, 30);
        Unpredictable u = ResultMerger.unpredictable(List.of(a, b));
        assertThat(u.readsChecked()).isEqualTo(4000L);
        assertThat(u.unpredictableReads()).isEqualTo(30L);
        assertThat(u.pct()).isCloseTo(0.75, within(1e-12));
        assertThat(u.meetsTau()).isFalse();
        assertThat(u.actions().get("VP").readsChecked()).isEqualTo(4000L);
        assertThat(u.mergedFromWorkers()).isEqualTo(2);
        assertThat(ResultMerger.unpredictable(List.of(a, withoutValidation())))
                .as("one worker did not validate")
                .isNull();
    }

    @Test
    void oneWorkersIncompleteValidationMakesTheMergedVerdictIncomplete() {
        RunResult a = withUnpredictable(1000, 0);
        RunResult b = withoutValidation()
                .withUnpredictable(Unpredictable.builder()
                        .readsChecked(0)
                        .unpredictableReads(0)
                        .pct(0)
                        .tauPct(0.01)
                        .meetsTau(true)
                        .readsSkipped(0L)
                        .actions(Map.of())
                        .freshness(null)
                        .samples(List.of())
                        .validation(null)
                        .mergedFromWorkers(null)
                        .complete(false)
                        .incompleteReason("thread-00001.bglog is missing")
                        .readsUnchecked(700L)
                        .files(List.of(new Unpredictable.FileProblem("thread-00001.bglog", null, "missing")))
                        .build());
        Unpredictable u = ResultMerger.unpredictable(List.of(a, b), List.of("h1:7420", "h2:7420"));
        assertThat(u.verdictComplete()).isFalse();
        assertThat(u.meetsTau()).isFalse();
        assertThat(u.incompleteReason()).isEqualTo("h2:7420: thread-00001.bglog is missing");
        assertThat(u.readsUnchecked()).isEqualTo(700L);
        assertThat(u.files()).singleElement().extracting(f -> f.file()).isEqualTo("h2:7420: thread-00001.bglog");
        assertThat(ResultMerger.unpredictable(List.of(a, a)).verdictComplete()).isTrue();
    }

    @Test
    void aMergedSecondTakesPercentilesFromTheSummedHistograms() {
        Histogram h1 = Latencies.newHistogram();
        Histogram h2 = Latencies.newHistogram();
        for (int i = 1; i <= 900; i++) {
            h1.recordValue(1_000_000L); // 1 ms
        }
        for (int i = 1; i <= 100; i++) {
            h2.recordValue(500_000_000L); // 500 ms
        }
        SeriesPoint p1 = SeriesPoint.builder()
                .second(3)
                .elapsedS(3.0)
                .intervalS(1.0)
                .actions(900)
                .throughput(900)
                .sessions(0)
                .errors(0)
                .noops(0)
                .p50Ms(1.0)
                .p95Ms(1.0)
                .p99Ms(1.0)
                .maxMs(1.0)
                .withinBetaPct(100.0)
                .bgWaitMs(0)
                .bgCores(0.5)
                .storeCores(null)
                .machineCores(null)
                .build();
        SeriesPoint p2 = SeriesPoint.builder()
                .second(3)
                .elapsedS(3.01)
                .intervalS(1.01)
                .actions(100)
                .throughput(99)
                .sessions(0)
                .errors(2)
                .noops(0)
                .p50Ms(500.0)
                .p95Ms(500.0)
                .p99Ms(500.0)
                .maxMs(500.0)
                .withinBetaPct(0.0)
                .bgWaitMs(0)
                .bgCores(0.5)
                .storeCores(null)
                .machineCores(null)
                .build();
        SeriesPoint m = ResultMerger.mergeSecond(List.of(p1, p2), List.of(h1, h2), 100_000_000L);
        assertThat(m.actions()).isEqualTo(1000);
        assertThat(m.errors()).isEqualTo(2);
        assertThat(m.p50Ms()).isCloseTo(1.0, within(0.01));
        assertThat(m.p95Ms()).isCloseTo(500.0, within(1.0));
        assertThat(m.withinBetaPct()).isCloseTo(90.0, within(1e-9));
        assertThat(m.bgCores()).isCloseTo(1.0, within(1e-12));
    }

    @Test
    void everyWorkersMachineAndEachStoreHostOnce() {
        RunResult a = withNodes(node("worker-a", "bg"), node("db1:9100", "store"), node("db2:9100", "store"));
        RunResult b = withNodes(node("worker-b", "bg"), node("db1:9100", "store"), node("db2:9100", "store"));
        RunResult merged = ResultMerger.merge(List.of(a, b), List.of("a:1", "b:2"), List.of(), Map.of());
        assertThat(merged.nodes())
                .extracting(n -> n.role() + " " + n.name())
                .containsExactly("bg worker-a", "store db1:9100", "store db2:9100", "bg worker-b");
        assertThat(merged.nodes().get(1)).isSameAs(a.nodes().get(1));
    }

    private static NodeResult node(String name, String role) {
        NodeResult.MeanMax m = new NodeResult.MeanMax(1.0, 2.0);
        return NodeResult.builder()
                .name(name)
                .role(role)
                .cpus(4)
                .seconds(10)
                .missingSeconds(0)
                .busyCores(m)
                .memUsedBytes(m)
                .memTotalBytes(m)
                .netRxBytesPerS(m)
                .netTxBytesPerS(m)
                .loBytesPerS(m)
                .diskReadBytesPerS(m)
                .diskWriteBytesPerS(m)
                .diskBusyPct(m)
                .build();
    }

    private static RunResult withNodes(NodeResult... nodes) {
        RunResult r = withoutValidation();
        return r.withOpen(null).withEnvironment(r.environment().withNodes(List.of(nodes)));
    }

    private static RunResult withoutValidation() {
        try (Measurements m = measurements()) {
            m.startMeasuring();
            m.stopMeasuring();
            return m.result();
        }
    }

    private static RunResult withUnpredictable(long checked, long bad) {
        return withoutValidation()
                .withUnpredictable(Unpredictable.builder()
                        .readsChecked(checked)
                        .unpredictableReads(bad)
                        .pct(100.0 * bad / checked)
                        .tauPct(0.01)
                        .meetsTau(bad == 0)
                        .readsSkipped(0L)
                        .actions(Map.of("VP", new Unpredictable.ActionReads(checked, bad, 100.0 * bad / checked)))
                        .freshness(null)
                        .samples(List.of())
                        .validation(null)
                        .mergedFromWorkers(null)
                        .build());
    }
}
