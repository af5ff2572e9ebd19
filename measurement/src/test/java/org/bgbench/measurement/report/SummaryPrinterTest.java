package org.bgbench.measurement.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.bgbench.measurement.RunResult;
import org.bgbench.measurement.SeriesPoint;
import org.junit.jupiter.api.Test;

class SummaryPrinterTest {

    @Test
    void summaryHasARowPerActionSessionAndTotal() {
        RunResult r = ResultJsonTest.sampleResult();
        String summary = SummaryPrinter.summary(r);
        List<String> lines = summary.lines().toList();
        for (String code : List.of("VP", "LF", "VFR", "IF", "AFR", "RFR", "TF", "VTR", "VCR", "PCR", "DCR", "total",
                "VSP", "AFS")) {
            assertThat(lines).as(code).anyMatch(l -> l.startsWith(code + " "));
        }
        String total = lines.stream().filter(l -> l.startsWith("total ")).findFirst().orElseThrow();
        assertThat(total).contains("1,000").contains("100.00");
        String pcr = lines.stream().filter(l -> l.startsWith("PCR ")).findFirst().orElseThrow();
        assertThat(pcr.trim()).endsWith("50");
        // Fixed width: every table row as long as the header.
        int width = lines.get(1).length();
        assertThat(lines.subList(1, 14)).allMatch(l -> l.length() == width);
        assertThat(summary).contains("CPU      BG ").contains("BG wait ").contains("no-ops were");
    }

    @Test
    void progressLine() {
        SeriesPoint p = new SeriesPoint(12, 12.0, 1.0, 45_120, 45_120.4, 0, 0, 0, 0.4, 1.234, 2.0, 9.0, 99.9, 0,
                0.91, 1.1, 1.9);
        assertThat(SummaryPrinter.progress(p, false))
                .isEqualTo("  12s    45,120 act/s  p95 1.2 ms  errors 0  bg 0.9 cores  store 1.1 cores");
        SeriesPoint idle = new SeriesPoint(3, 3.0, 1.0, 0, 0, 0, 2, 0, null, null, null, null, null, 0, null, null,
                null);
        assertThat(SummaryPrinter.progress(idle, true)).isEqualTo("warm-up    3s         0 act/s  p95 - ms  errors 2");
    }
}
