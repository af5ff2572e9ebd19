package org.bgbench.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.bgbench.runner.Interrupts;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Ctrl-C (a real SIGINT) to a {@code bg study run} process keeps every point measured, and {@code --resume} then
 * measures exactly the points left: the study ends with the same set of points as one run through.
 */
@Tag("server") // spawns processes
class StudySignalTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @AfterEach
    void forget() {
        Interrupts.reset();
    }

    private Process start(Path file, Path out) throws IOException {
        return StudyProcess.start(file, out, dir.resolve("state"), dir.resolve("study.log"));
    }

    /** The points study.json holds as done, by key, with their throughput. */
    private static Map<String, Double> done(Path study) throws IOException {
        return StudyProcess.done(study, "throughput");
    }

    @Test
    void anInterruptedStudyResumesToTheSamePointsAsOneRunThrough() throws Exception {
        Path file = StudyFixture.write(dir, "[vp, high, low]");
        Path study = dir.resolve("study");
        Process p = start(file, study);
        Map<String, Double> before;
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            while (done(study).size() < 3 && p.isAlive() && System.nanoTime() < deadline) {
                Thread.sleep(100);
            }
            assertThat(p.isAlive())
                    .as(Files.readString(dir.resolve("study.log")))
                    .isTrue();
            assertThat(StudyProcess.interrupt(p)).isTrue();
            assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        } finally {
            p.destroyForcibly().waitFor();
        }
        String log = Files.readString(dir.resolve("study.log"));
        assertThat(p.exitValue()).as(log).isEqualTo(130);
        assertThat(log).contains("bg: study stopped at ").contains("--resume " + study);
        JsonNode stopped = JSON.readTree(study.resolve("study.json").toFile());
        assertThat(stopped.path("complete").asBoolean()).isFalse();
        before = done(study);
        assertThat(before).hasSizeBetween(3, 11);

        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        System.setProperty("bg.state.dir", dir.resolve("state").toString());
        int code = Bg.run(
                new PrintWriter(out, true),
                new PrintWriter(err, true),
                "study",
                "run",
                file.toString(),
                "--resume",
                study.toString());
        assertThat(code).as(err.toString()).isZero();
        assertThat(err.toString()).contains("12 points (" + before.size() + " done before)");
        Map<String, Double> after = done(study);
        // One run through: every point of the plan once, in its order; those measured before the signal kept as they
        // were.
        StringWriter plan = new StringWriter();
        assertThat(Bg.run(
                        new PrintWriter(plan, true),
                        new PrintWriter(new StringWriter(), true),
                        "study",
                        "show",
                        file.toString()))
                .isZero();
        List<String> keys = plan.toString()
                .lines()
                .filter(l -> l.startsWith("  sqlite/"))
                .map(String::strip)
                .toList();
        assertThat(keys).hasSize(12);
        assertThat(new ArrayList<>(after.keySet())).containsExactlyElementsOf(keys);
        before.forEach((k, v) -> assertThat(after.get(k)).as(k).isEqualTo(v));
        JsonNode resumed = JSON.readTree(study.resolve("study.json").toFile());
        assertThat(resumed.path("complete").asBoolean()).isTrue();
        assertThat(resumed.path("started").asText())
                .isEqualTo(stopped.path("started").asText());
        assertThat(Files.readAllLines(study.resolve("throughput.csv"))).hasSize(1 + 6);
    }
}
