package org.bgbench.measurement.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Locale;
import org.bgbench.measurement.CpuResult;
import org.bgbench.measurement.RunResult;
import org.bgbench.measurement.SeriesPoint;
import org.junit.jupiter.api.Test;

class SummaryPrinterTest {

    @Test
    void summaryHasARowPerKindThatRanAndTotal() {
        RunResult r = ResultJsonTest.sampleResult();
        String summary = SummaryPrinter.summary(r);
        List<String> lines = summary.lines().toList();
        // AFR only had no-ops and PCR only errors: they ran; the kinds never issued get no row of zeros.
        for (String code : List.of("VP", "LF", "AFR", "PCR", "total", "VSP")) {
            assertThat(lines).as(code).anyMatch(l -> l.startsWith(code + " "));
        }
        for (String code : List.of("VFR", "IF", "RFR", "TF", "VTR", "VCR", "DCR", "SR", "VNF", "AFS", "RFS")) {
            assertThat(lines).as(code).noneMatch(l -> l.startsWith(code + " "));
        }
        String total =
                lines.stream().filter(l -> l.startsWith("total ")).findFirst().orElseThrow();
        assertThat(total).contains("1,000").contains("100.00");
        String pcr =
                lines.stream().filter(l -> l.startsWith("PCR ")).findFirst().orElseThrow();
        assertThat(pcr.trim()).endsWith("50");
        // Fixed width: every table row as long as the header.
        int width = lines.get(1).length();
        assertThat(lines.subList(1, 6)).allMatch(l -> l.length() == width);
        assertThat(summary).contains("CPU      BG ").contains("BG wait ").contains("no-ops were");
        // BG's CPU per action, right-aligned under its header; '-' where nothing was sampled.
        String header = lines.get(1);
        int end = header.indexOf("BG µs") + "BG µs".length();
        assertThat(header.indexOf("≤β %")).isLessThan(end).isLessThan(header.indexOf("noops"));
        assertThat(row(lines, "VP").substring(0, end)).endsWith(" 12.3");
        assertThat(row(lines, "LF").substring(0, end)).endsWith(" 45.0");
        assertThat(row(lines, "AFR").substring(0, end)).endsWith(" -");
        assertThat(row(lines, "VSP").substring(0, end)).endsWith(" -");
        String totalCpu = String.format(Locale.ROOT, " %.1f", r.total().bgCpuUs());
        assertThat(row(lines, "total").substring(0, end)).endsWith(totalCpu);
        assertThat(lines)
                .anyMatch(l -> l.startsWith("session ")
                        && l.length() == width
                        && l.substring(0, end).endsWith("BG µs"));
        String cpu =
                lines.stream().filter(l -> l.startsWith("CPU ")).findFirst().orElseThrow();
        assertThat(r.cpu().bgOutsideUsPerAction()).isNotNull();
        assertThat(cpu)
                .contains(String.format(
                        Locale.ROOT,
                        " µs/action, outside calls %,.1f µs/action)",
                        r.cpu().bgOutsideUsPerAction()));
    }

    @Test
    void aLegendExplainsTheCodesThatAppearOnce() {
        List<String> lines =
                SummaryPrinter.summary(ResultJsonTest.sampleResult()).lines().toList();
        List<String> legend =
                lines.stream().filter(l -> l.startsWith("legend ")).toList();
        assertThat(legend).hasSize(1);
        assertThat(legend.getFirst())
                .contains("VP = View Profile")
                .contains("AFR = Accept Friend Request")
                .contains("VSP = ViewSelfProfile")
                .contains("BG µs = ")
                .contains("≤β % = ")
                .doesNotContain("VFR")
                .doesNotContain("AFS");
    }

    @Test
    void withoutBgsCpuPerActionTheCpuLineSaysNothingOfIt() {
        RunResult r = ResultJsonTest.sampleResult();
        CpuResult c = r.cpu();
        RunResult unknown = r.withOpen(null)
                .withEnvironment(r.environment()
                        .withCpu(CpuResult.builder()
                                .bgCores(c.bgCores())
                                .bgUsPerAction(c.bgUsPerAction())
                                .storeCores(c.storeCores())
                                .machineCores(c.machineCores())
                                .machineIowaitCores(c.machineIowaitCores())
                                .bgCpuS(c.bgCpuS())
                                .storeCpuS(c.storeCpuS())
                                .bgAvailableCores(c.bgAvailableCores())
                                .machineCpus(c.machineCpus())
                                .storePids(c.storePids())
                                .storeProcesses(c.storeProcesses())
                                .bgPeakCores(c.bgPeakCores())
                                .storePeakCores(c.storePeakCores())
                                .machinePeakCores(c.machinePeakCores())
                                .bgOutsideUsPerAction(null)
                                .build()));
        String cpu = SummaryPrinter.summary(unknown)
                .lines()
                .filter(l -> l.startsWith("CPU "))
                .findFirst()
                .orElseThrow();
        assertThat(cpu).doesNotContain("outside").containsPattern("\\(\\S+ µs/action\\)");
    }

    private static String row(List<String> lines, String code) {
        return lines.stream().filter(l -> l.startsWith(code + " ")).findFirst().orElseThrow();
    }

    @Test
    void theShortIntervalEndingAPhaseGetsNoProgressLine() {
        SeriesPoint whole = new SeriesPoint(
                12, 12.0, 1.0, 45_120, 45_120.4, 0, 0, 0, 0.4, 1.234, 2.0, 9.0, 99.9, 0, 0.91, 1.1, 1.9);
        SeriesPoint tail =
                new SeriesPoint(13, 12.2, 0.2, 900, 4_500, 0, 0, 0, 0.4, 1.234, 2.0, 9.0, 99.9, 0, 0.91, 1.1, 1.9);
        assertThat(SummaryPrinter.worthALine(whole)).isTrue();
        assertThat(SummaryPrinter.worthALine(tail)).isFalse();
    }

    @Test
    void progressLine() {
        SeriesPoint p = SeriesPoint.builder()
                .second(12)
                .elapsedS(12.0)
                .intervalS(1.0)
                .actions(45_120)
                .throughput(45_120.4)
                .sessions(0)
                .errors(0)
                .noops(0)
                .p50Ms(0.4)
                .p95Ms(1.234)
                .p99Ms(2.0)
                .maxMs(9.0)
                .withinBetaPct(99.9)
                .bgWaitMs(0)
                .bgCores(0.91)
                .storeCores(1.1)
                .machineCores(1.9)
                .build();
        assertThat(SummaryPrinter.progress(p, false))
                .isEqualTo("  12s    45,120 act/s  p95 1.2 ms  errors 0  bg 0.9 cores  store 1.1 cores");
        SeriesPoint idle = SeriesPoint.builder()
                .second(3)
                .elapsedS(3.0)
                .intervalS(1.0)
                .actions(0)
                .throughput(0)
                .sessions(0)
                .errors(2)
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
        assertThat(SummaryPrinter.progress(idle, true))
                .isEqualTo("warm-up    3s         0 act/s  p95 - ms  errors 2 (100 %)");
    }

    /** A sampler late on a busy host: seconds 2 and 3 ended at 2.6 s and 3.4 s, which both round to "3s". */
    @Test
    void lateSamplesAreLabelledByTheirSecondNotTheirRoundedEnd() {
        SeriesPoint.Builder late = SeriesPoint.builder()
                .intervalS(1.0)
                .actions(10)
                .throughput(10)
                .sessions(0)
                .errors(0)
                .noops(0)
                .bgWaitMs(0);
        assertThat(SummaryPrinter.progress(late.second(2).elapsedS(2.6).build(), false))
                .startsWith("   2s ");
        assertThat(SummaryPrinter.progress(late.second(3).elapsedS(3.4).build(), false))
                .startsWith("   3s ");
    }
}
