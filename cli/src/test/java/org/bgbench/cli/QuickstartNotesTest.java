package org.bgbench.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.bgbench.measurement.RunResult;
import org.bgbench.measurement.report.ResultJson;
import org.bgbench.rating.RatingStatus;
import org.bgbench.rating.Sla;
import org.bgbench.rating.SoarRating;
import org.junit.jupiter.api.Test;

/** The quickstart explains a SoAR below one of its table's runs that met the SLA. */
class QuickstartNotesTest {
    private static final Sla SLA = Sla.parse("95%:100ms:0.01%:5s");

    /** A real 1 s run at T=1 on the memory store (its series cut to one second): 281,943 actions/s, all within β. */
    private static RunResult tableRun() throws Exception {
        try (InputStream in = QuickstartNotesTest.class.getResourceAsStream("one-run.json")) {
            return ResultJson.fromJson(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        }
    }

    @Test
    void aSoarBelowAnSlaMeetingTableRunGetsItsLine() throws Exception {
        SoarRating soar = new SoarRating(100_000, 4, RatingStatus.CONFIRMED, null, null);
        List<String> lines = QuickstartNotes.aboveSoar(List.of(tableRun()), soar, SLA, "5s", "2s");
        assertThat(lines)
                .singleElement()
                .asString()
                .contains("T=1 run above met the SLA with 281,943 actions/s, more than the SoAR")
                .contains("runs of 2s");
    }

    @Test
    void aSoarAboveTheTableNeedsNoLine() throws Exception {
        SoarRating soar = new SoarRating(300_000, 4, RatingStatus.CONFIRMED, null, null);
        assertThat(QuickstartNotes.aboveSoar(List.of(tableRun()), soar, SLA, "5s", "2s"))
                .isEmpty();
    }
}
