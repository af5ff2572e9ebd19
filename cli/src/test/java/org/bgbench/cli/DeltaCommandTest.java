package org.bgbench.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.bgbench.rating.DeltaAnalyzer;
import org.bgbench.workload.WorkloadParameters;
import org.bgbench.workload.WorkloadSpec;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** bg delta end to end, in process, against the memory store. */
@Tag("slow")
class DeltaCommandTest {
    @TempDir
    Path dir;

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    @BeforeEach
    void stateDir() {
        System.setProperty("bg.state.dir", dir.resolve("state").toString());
    }

    private int bg(String... args) {
        return Bg.run(new PrintWriter(out, true), new PrintWriter(err, true), args);
    }

    @Test
    @SuppressWarnings("unchecked")
    void findsADeltaFromOneRunAndWritesTheJson() throws Exception {
        Path json = dir.resolve("delta.json");
        int rc = bg(
                "delta",
                "--method",
                "windows",
                "--store",
                "memory",
                "-p",
                "usercount=300",
                "-p",
                "friendcountperuser=10",
                "-p",
                "resourcecountperuser=4",
                "--threads",
                "2",
                "--duration",
                "8s",
                "--m",
                "2",
                "--out",
                json.toString());
        assertThat(rc).as(err.toString()).isZero();
        assertThat(out.toString()).contains("δ = ", "window throughputs", "reason: ");
        Map<String, Object> m = new ObjectMapper().readValue(Files.readString(json), Map.class);
        assertThat(m).containsKeys("delta_s", "converged", "window_throughputs", "reason", "trials", "probes");
        assertThat(((Number) m.get("delta_s")).doubleValue()).isPositive();
        assertThat(m).containsEntry("threads", 2).containsEntry("m", 2);
        assertThat((List<Object>) m.get("window_throughputs")).hasSizeGreaterThanOrEqualTo(2);
        assertThat(dir.resolve("delta-run.json")).exists();
    }

    @Test
    void badInputNamesTheOption() {
        assertThat(bg("delta", "--store", "memory", "--pi", "0", "--threads", "2"))
                .isEqualTo(Bg.BAD_INPUT);
        assertThat(err.toString()).contains("--pi");
        assertThat(bg("delta", "--store", "memory", "--m", "1", "--threads", "2"))
                .isEqualTo(Bg.BAD_INPUT);
        assertThat(err.toString()).contains("--m");
        assertThat(bg("delta", "--store", "memory", "--duration", "2s", "--threads", "2"))
                .isEqualTo(Bg.BAD_INPUT);
        assertThat(err.toString()).contains("--duration", "too short");
    }

    @Test
    void saysWhyDeltaCannotConvergeWhenSharesGrowTheData() {
        // Throughput falling window after window, as feeds lengthen (dissertation figure 7.12).
        double[] falling = new double[120];
        for (int t = 0; t < falling.length; t++) {
            falling[t] = Math.max(1, 10_000 * Math.pow(0.7, t));
        }
        DeltaAnalyzer.Result r = DeltaAnalyzer.analyze(falling, DeltaAnalyzer.Settings.defaults(), 120);
        assertThat(r.converged()).isFalse();
        WorkloadSpec feeds = WorkloadParameters.toSpec(Map.of("mix", "feed-sr80"));
        assertThat(DeltaCommand.growthNote(r, feeds))
                .contains("SR 80.00 %", "figure 7.12", "bg sweep", "throughput fell");
        assertThat(DeltaCommand.growthNote(r, WorkloadParameters.toSpec(Map.of("mix", "high"))))
                .as("a mix without shares does not grow the data")
                .isNull();
    }
}
