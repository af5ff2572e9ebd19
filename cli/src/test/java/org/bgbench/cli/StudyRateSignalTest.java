package org.bgbench.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.bgbench.runner.Interrupts;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Ctrl-C (a real SIGINT) during a rate study's rating: the ratings done are kept, the one stopped is not a
 * measurement, and {@code --resume} rates it again from its first experiment, to the points of one run through.
 */
@Tag("server") // spawns processes
class StudyRateSignalTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String STUDY = """
            name: rate-signal
            kind: rate
            title: Repeated ratings
            source: {paper: A paper, where: table 1, finding: a rating}
            varies: [repetition]
            stores:
              - {store: sqlite, starts: true, settings: {sqlite.file: "${data}/bg.sqlite"}}
            graph: {zipfianmean: 0.27}
            mixes: [high]
            scales:
              tiny:
                graph: {usercount: 100, friendcountperuser: 4, resourcecountperuser: 2}
                repetitions: 3
                rating: {sla: "95%:100ms:0.01%:1s", delta: 300ms, warmup: 0s, max_threads: 4, target: soar, confirm: false}
              small: {graph: {usercount: 1000}}
              paper: {graph: {usercount: 10000}}
            measures: [soar, experiments]
            figures:
              - {id: soar, title: SoAR, x: {key: store}, y: {key: soar}, series_by: [mix]}
            """;

    @TempDir
    Path dir;

    @AfterEach
    void forget() {
        Interrupts.reset();
    }

    private Process start(Path file, Path out) throws IOException {
        return StudyProcess.start(file, out, dir.resolve("state"), dir.resolve("study.log"));
    }

    /** The points study.json holds as done, by key, with their soar. */
    private static Map<String, Double> done(Path study) throws IOException {
        return StudyProcess.done(study, "soar");
    }

    @Test
    void aRatingStoppedByCtrlCIsRatedAgainByTheResume() throws Exception {
        Path file = dir.resolve("rate-signal.yaml");
        Files.writeString(file, STUDY);
        Path study = dir.resolve("study");
        Process p = start(file, study);
        try {
            // Stop it while the second rating runs: once its directory holds an experiment.
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            Path second = study.resolve("points/sqlite_high_r2/experiments.jsonl");
            while (!(done(study).size() == 1 && Files.exists(second)) && p.isAlive() && System.nanoTime() < deadline) {
                Thread.sleep(20);
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
        assertThat(log).contains("bg: study stopped at sqlite/high/r2");
        Map<String, Double> before = done(study);
        assertThat(before).containsOnlyKeys("sqlite/high/r1");

        StringWriter err = new StringWriter();
        System.setProperty("bg.state.dir", dir.resolve("state").toString());
        int code = Bg.run(
                new PrintWriter(new StringWriter(), true),
                new PrintWriter(err, true),
                "study",
                "run",
                file.toString(),
                "--resume",
                study.toString());
        assertThat(code).as(err.toString()).isZero();
        assertThat(err.toString()).contains("3 points (1 done before)");
        Map<String, Double> after = done(study);
        assertThat(after).containsOnlyKeys("sqlite/high/r1", "sqlite/high/r2", "sqlite/high/r3");
        assertThat(after.get("sqlite/high/r1")).isEqualTo(before.get("sqlite/high/r1"));
        // The stopped rating was rated whole again: no experiment of it is one resumed from the stopped run.
        JsonNode rating =
                JSON.readTree(study.resolve("points/sqlite_high_r2/rating.json").toFile());
        assertThat(rating.path("complete").asBoolean()).isTrue();
        assertThat(rating.path("experiments")).isNotEmpty();
        rating.path("experiments")
                .forEach(e -> assertThat(e.path("resumed").asBoolean()).isFalse());
        assertThat(JSON.readTree(study.resolve("study.json").toFile())
                        .path("complete")
                        .asBoolean())
                .isTrue();
    }
}
