package org.bgbench.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** bg sweep end to end, in process, against the memory store in a push design, with validation on. */
@Tag("server")
class SweepCommandTest {
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

    private static final String[] GRAPH = {
        "-p",
        "usercount=600",
        "-p",
        "friendcountperuser=10",
        "-p",
        "resourcecountperuser=3",
        "-p",
        "pagecount=12",
        "-p",
        "pagesperuser=3"
    };

    @Test
    @SuppressWarnings("unchecked")
    void everyPointStartsFromTheLoadedGraphAndTheCurveIsWritten() throws Exception {
        Path json = dir.resolve("sweep.json");
        String[] args = concat(
                new String[] {
                    "sweep",
                    "--store",
                    "memory",
                    "-p",
                    "memory.name=sweep",
                    "-p",
                    "feed.design=push",
                    "--load",
                    "--workload",
                    "feed-sr10",
                    "--threads",
                    "1,3",
                    "--duration",
                    "1s",
                    "--quiet",
                    "--out",
                    json.toString()
                },
                GRAPH);
        int rc = bg(args);
        assertThat(rc).as(err.toString()).isZero();
        assertThat(out.toString()).contains("actions/s", "VNF unpredictable 0.000 %");
        Map<String, Object> m = new ObjectMapper().readValue(Files.readString(json), Map.class);
        assertThat(m)
                .containsEntry("format", "bg-sweep/1")
                .containsEntry("mix", "feed-sr10")
                .containsEntry("grows_data", true)
                .containsEntry("reset", "image");
        List<Map<String, Object>> points = (List<Map<String, Object>>) m.get("points");
        assertThat(points).extracting(p -> p.get("threads")).containsExactly(1, 3);
        for (Map<String, Object> p : points) {
            assertThat(((Number) p.get("throughput")).doubleValue()).isPositive();
            assertThat((Map<String, Object>) p.get("perAction")).containsKeys("SR", "VNF");
            assertThat(((Number) p.get("vnfUnpredictablePct")).doubleValue()).isZero();
            assertThat(Path.of((String) p.get("result"))).exists();
        }
        List<String> csv = Files.readAllLines(dir.resolve("sweep.csv"));
        assertThat(csv).hasSize(3);
        assertThat(csv.get(0)).startsWith("threads,throughput").contains("VNF_mean_ms", "SR_p95_ms");
        // Each point began from the loaded graph: the second could not have seen the first one's shares.
        assertThat(err.toString()).contains("reset by image");
    }

    @Test
    void aFullDiskStillPrintsTheMeasuredRowAndNamesTheFileItCannotWrite() throws Exception {
        Path mnt = dir.resolve("full-disk");
        SmallDisk.mount(mnt, "1m");
        try {
            SmallDisk.fill(mnt.resolve("filler"));
            Path json = mnt.resolve("sweep.json");
            int rc = bg(concat(
                    new String[] {
                        "sweep",
                        "--store",
                        "memory",
                        "-p",
                        "memory.name=sweep-full",
                        "--load",
                        "--workload",
                        "high",
                        "-p",
                        "validation=false",
                        "--threads",
                        "1,2",
                        "--duration",
                        "1s",
                        "--quiet",
                        "--out",
                        json.toString()
                    },
                    GRAPH));
            assertThat(rc).as(err.toString()).isEqualTo(Bg.FAILED);
            // the row of what was measured, then one line naming the file, then where the sweep stopped
            assertThat(out.toString())
                    .as(err.toString())
                    .containsPattern("(?m)^ +1 +[0-9,]+ +[0-9.]+ ")
                    .doesNotContain("Result: ");
            assertThat(err.toString())
                    .containsOnlyOnce("bg: error: cannot write ")
                    .contains("No space left on device")
                    .contains("; the table above is what was measured")
                    .contains("bg: the sweep stops at T=1")
                    .doesNotContain("Exception", "\tat ");
            assertThat(out.toString()).doesNotContainPattern("(?m)^ +2 +[0-9,]+ ");
            try (Stream<Path> left = Files.list(mnt)) {
                assertThat(left.map(p -> p.getFileName().toString()))
                        .as("no reserve or temporary file is left")
                        .noneMatch(n -> n.endsWith(".reserve") || n.endsWith(".tmp"));
            }
        } finally {
            SmallDisk.unmount(mnt);
        }
    }

    @Test
    void badInputNamesTheOption() {
        assertThat(bg(concat(new String[] {"sweep", "--store", "memory", "--threads", "0,2"}, GRAPH)))
                .isEqualTo(Bg.BAD_INPUT);
        assertThat(err.toString()).contains("--threads");
        assertThat(bg(concat(new String[] {"sweep", "--store", "memory", "--reset", "sometimes"}, GRAPH)))
                .isEqualTo(Bg.BAD_INPUT);
        assertThat(err.toString()).contains("--reset", "auto, image, repair, reload or none");
        assertThat(bg(concat(new String[] {"sweep", "--store", "memory", "--workload", "feedy"}, GRAPH)))
                .isEqualTo(Bg.BAD_INPUT);
        assertThat(err.toString()).contains("--workload", "feed-high");
        assertThat(err.toString()).doesNotContain("Exception", "\tat ");
    }

    private static String[] concat(String[] a, String[] b) {
        String[] c = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, c, a.length, b.length);
        return c;
    }
}
