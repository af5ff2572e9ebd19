package org.bgbench.measurement;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import org.bgbench.measurement.resource.ResourceMonitor;
import org.bgbench.model.Action;
import org.bgbench.model.SessionType;
import org.junit.jupiter.api.Test;

class BottlenecksTest {

    private static RunResult measured(boolean noopsAndErrors) {
        try (Measurements m = Measurements.builder()
                .resourceMonitor(ResourceMonitor.create(List.of()))
                .build()) {
            m.startMeasuring();
            Recorder r = m.recorder(0);
            for (int i = 0; i < 1_000; i++) {
                r.ok(Action.VP, 1_000_000);
                if (noopsAndErrors && i % 10 == 0) {
                    r.noop(Action.AFR);
                    r.noop(Action.AFR);
                    r.noop(Action.DCR);
                    r.error(Action.LF, 1_000_000);
                }
            }
            m.stopMeasuring();
            return m.result();
        }
    }

    /** A session mix whose sessions mostly end as no-ops: 455 AFS no-ops against 178 completed, 20 TFS completed. */
    private static RunResult sessionsMostlyNoops() {
        try (Measurements m = Measurements.builder()
                .resourceMonitor(ResourceMonitor.create(List.of()))
                .build()) {
            m.startMeasuring();
            Recorder r = m.recorder(0);
            for (int i = 0; i < 455; i++) {
                r.ok(Action.VP, 1_000_000);
                r.noop(SessionType.ACCEPT_FRIEND_REQUEST.index());
            }
            for (int i = 0; i < 178; i++) {
                r.ok(SessionType.ACCEPT_FRIEND_REQUEST.index(), 5_000_000);
            }
            for (int i = 0; i < 20; i++) {
                r.ok(SessionType.THAW_FRIENDSHIP.index(), 5_000_000);
            }
            m.stopMeasuring();
            return m.result();
        }
    }

    private static CpuResult cpu(Double bg, Double store, Double machine, Double iowait) {
        return CpuResult.builder()
                .bgCores(bg)
                .bgUsPerAction(10.0)
                .storeCores(store)
                .machineCores(machine)
                .machineIowaitCores(iowait)
                .bgCpuS(1.0)
                .storeCpuS(1.0)
                .bgAvailableCores(2)
                .machineCpus(4)
                .storePids(List.of(42L))
                .storeProcesses(3)
                .bgPeakCores(bg)
                .storePeakCores(store)
                .machinePeakCores(machine)
                .bgOutsideUsPerAction(null)
                .build();
    }

    private static RunResult with(RunResult r, CpuResult cpu, List<SeriesPoint> series) {
        return new RunResult(
                r.header(),
                r.rate(),
                r.figures().withSeries(series),
                new RunResult.Environment(cpu, r.bgWait(), List.of(), List.of()),
                r.context(),
                r.unpredictable(),
                null);
    }

    private static SeriesPoint second(int n, double intervalS, Double bgCores) {
        return SeriesPoint.builder()
                .second(n)
                .elapsedS(n)
                .intervalS(intervalS)
                .actions(10)
                .throughput(10)
                .sessions(0)
                .errors(0)
                .noops(0)
                .p50Ms(1.0)
                .p95Ms(1.0)
                .p99Ms(1.0)
                .maxMs(1.0)
                .withinBetaPct(100.0)
                .bgWaitMs(0)
                .bgCores(bgCores)
                .storeCores(null)
                .machineCores(null)
                .build();
    }

    @Test
    void cleanRunHasNoWarnings() {
        RunResult r = measured(false);
        assertThat(Bottlenecks.warnings(with(r, cpu(0.5, 0.5, 1.0, 0.0), r.series()), 1.0))
                .isEmpty();
    }

    @Test
    void flagsSaturatedCpus() {
        RunResult r = measured(false);
        assertThat(Bottlenecks.warnings(with(r, cpu(1.9, null, 2.0, 0.0), r.series()), 1.0))
                .containsExactly("BG's own CPU was saturated (1.9 of 2 cores): BG, not only the store, limited the"
                        + " throughput; use fewer threads per worker or more workers");
        assertThat(Bottlenecks.warnings(with(r, cpu(0.4, 3.7, 3.9, 1.0), r.series()), 1.0))
                .containsExactly(
                        "the machine's CPU was saturated (3.9 of 4 cores): BG competes with the store for it; run BG and"
                                + " the store on separate machines",
                        "the store's processes used 3.7 of 4 cores: the store is CPU-bound",
                        "CPUs sat idle waiting for I/O (1.0 of 4 cores): a local disk may be the bottleneck");
        List<SeriesPoint> bursty = List.of(
                second(1, 1, 2.0), second(2, 1, 1.95), second(3, 1, 0.2), second(4, 1, 0.2), second(5, 0.3, 0.1));
        assertThat(Bottlenecks.warnings(with(r, cpu(0.9, null, null, null), bursty), 1.0))
                .containsExactly(
                        "BG's own CPU was saturated in 2 of 5 seconds (2 cores): use fewer threads per worker or"
                                + " more workers");
    }

    @Test
    void aStoreInBgsProcessGetsNoBgCpuWarning() {
        // Its work is on BG's CPU, so a saturated BG says nothing about BG: neither the average nor the seconds are
        // flagged, and the machine's CPU is still not blamed on other processes.
        RunResult r = measured(false);
        assertThat(Bottlenecks.warnings(with(r, cpu(1.9, null, 2.0, 0.0), r.series()), 1.0, true))
                .isEmpty();
        List<SeriesPoint> bursty = List.of(
                second(1, 1, 2.0), second(2, 1, 1.95), second(3, 1, 0.2), second(4, 1, 0.2), second(5, 0.3, 0.1));
        assertThat(Bottlenecks.warnings(with(r, cpu(0.9, null, null, null), bursty), 1.0, true))
                .isEmpty();
        // Its other warnings stay.
        assertThat(Bottlenecks.warnings(with(r, cpu(0.4, 3.7, 3.9, 1.0), r.series()), 1.0, true))
                .hasSize(3);
        assertThat(Bottlenecks.warnings(with(r, cpu(1.9, null, 2.0, 0.0), r.series()), 1.0, false))
                .singleElement()
                .asString()
                .startsWith("BG's own CPU was saturated (1.9 of 2 cores)");
    }

    private static NodeResult node(String name, String role, int cpus, double busy, double diskPct, int missing) {
        NodeResult.MeanMax none = new NodeResult.MeanMax(null, null);
        return NodeResult.builder()
                .name(name)
                .role(role)
                .cpus(cpus)
                .seconds(10)
                .missingSeconds(missing)
                .busyCores(new NodeResult.MeanMax(busy, busy))
                .memUsedBytes(none)
                .memTotalBytes(none)
                .netRxBytesPerS(none)
                .netTxBytesPerS(none)
                .loBytesPerS(none)
                .diskReadBytesPerS(none)
                .diskWriteBytesPerS(none)
                .diskBusyPct(new NodeResult.MeanMax(diskPct, diskPct))
                .build();
    }

    @Test
    void namesTheSaturatedNodeAndResource() {
        RunResult r = measured(false);
        RunResult clean = with(r, cpu(0.5, 0.5, 1.0, 0.0), r.series());
        RunResult busy = new RunResult(
                new RunResult.Header(clean.format(), false, clean.startTime(), clean.endTime()),
                clean.rate(),
                clean.figures(),
                new RunResult.Environment(
                        clean.cpu(),
                        clean.bgWait(),
                        List.of(
                                node("vm", "bg", 4, 3.9, 95.0, 0),
                                node("db1:9100", "store", 8, 7.3, 50.0, 0),
                                node("db2:9100", "store", 8, 7.1, 89.9, 3),
                                node("db3:9100", "store", 8, 0.0, 0.0, 0)),
                        List.of()),
                clean.context(),
                null,
                null);
        assertThat(Bottlenecks.warnings(busy, 1.0))
                .containsExactly(
                        "BG's machine vm: its busiest disk was busy 95 % of the time: this node's disk limited the run",
                        "store host db1:9100: its CPU was saturated (7.3 of 8 cores busy on average): this node limited the"
                                + " run",
                        "store host db2:9100: its node exporter did not answer in 3 of 13 measured seconds; its figures cover"
                                + " the other seconds");
    }

    @Test
    void sessionNoopsAreWarnedAboutLikeActionNoops() {
        RunResult r = sessionsMostlyNoops();
        assertThat(r.total().noops()).as("the sessions' actions ran").isZero();
        // 455 / (455 + 178 + 20) = 69.7 %; AFS's own share 455 / 633 = 72 %.
        assertThat(Bottlenecks.warnings(with(r, cpu(0.1, null, null, null), List.of()), 1.0))
                .containsExactly("no-ops were 69.7 % of attempted sessions (AFS 72 %): those sessions ended without"
                        + " their write, so the issued mix differs from the configured mix");
    }

    @Test
    void flagsStallsErrorsAndNoops() {
        RunResult r = measured(true);
        List<SeriesPoint> stalled = List.of(second(1, 1.0, 0.1), second(2, 2.6, 0.1), second(3, 9.0, 0.1));
        assertThat(Bottlenecks.warnings(with(r, cpu(0.1, null, null, null), stalled), 1.0))
                .containsExactly(
                        "100 actions failed (7.14 % of attempted actions); errors count against the SLA",
                        "no-ops were 21.4 % of attempted actions (AFR 100 %, DCR 100 %): the issued mix differs from the"
                                + " configured mix; accepting and rejecting found no pending invitation: load a graph"
                                + " with some (e.g. -p confperc=0.9, a tenth of the friendships pending) or run longer"
                                + " so invitations accumulate",
                        // The last interval is cut short or long by stopMeasuring(), so only the 2.6 s one counts.
                        "a sampling interval took 2.6 s instead of 1.0 s: BG's JVM stalled (GC pause or CPU starvation)");
    }

    @Test
    void longRunsPrintGroupedFigures() {
        RunResult r = measured(false);
        // A 12,000 s run in which BG's CPU was saturated in its last 2,500 seconds.
        List<SeriesPoint> hours = IntStream.rangeClosed(1, 12_000)
                .mapToObj(n -> second(n, 1.0, n > 9_500 ? 2.0 : 0.2))
                .toList();
        RunResult missing = new RunResult(
                r.header(),
                r.rate(),
                r.figures().withSeries(hours),
                new RunResult.Environment(
                        cpu(0.9, null, null, null),
                        r.bgWait(),
                        List.of(node("db1:9100", "store", 8, 1.0, 10.0, 11_990)),
                        List.of()),
                r.context(),
                null,
                null);
        List<String> w = Bottlenecks.warnings(missing, 1.0);
        assertThat(w)
                .contains(
                        "BG's own CPU was saturated in 2,500 of 12,000 seconds (2 cores): use fewer threads per worker"
                                + " or more workers",
                        "store host db1:9100: its node exporter did not answer in 11,990 of 12,000 measured seconds;"
                                + " its figures cover the other seconds");
        assertThat(w)
                .noneMatch(
                        x -> Pattern.compile("(?<![\\d.,])\\d{5,}").matcher(x).find());
    }
}
