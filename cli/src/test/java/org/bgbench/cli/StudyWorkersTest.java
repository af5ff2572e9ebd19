package org.bgbench.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@code bg study run --workers}: a tiny study measured by two real {@code bg worker} processes, each with a SQLite
 * store of its own under its directory. The graph is loaded through them, every point is a merged run of both
 * (each worker's part kept beside it, the merged counts their sum), and every point's reads validate, the second
 * after a point that wrote.
 */
@Tag("server") // spawns processes
class StudyWorkersTest extends BgCommandFixture {
    private static final String SECRET = "a-secret-for-the-study-workers-test";
    private WorkerProcesses workers;

    @AfterEach
    void stopWorkers() throws Exception {
        if (workers != null) {
            workers.close();
        }
    }

    @Test
    void aStudyRunsOnWorkersAndEachPointMergesBoth() throws Exception {
        workers = new WorkerProcesses(dir, SECRET);
        String addresses = workers.start(1) + "," + workers.start(2);
        Path file = dir.resolve("workers-study.yaml");
        Files.writeString(file, """
                name: workers-study
                title: A tiny study on two workers
                source: {paper: the tests, where: figure 0, finding: writes lower throughput}
                varies: [mix, T]
                stores:
                  - store: sqlite
                    starts: true
                    settings: {sqlite.file: graph.sqlite}
                graph: {fragments: 2}
                mixes: [high, vp]
                beta: 5s
                scales:
                  tiny:
                    graph: {usercount: 200, friendcountperuser: 4, resourcecountperuser: 2}
                    threads: [2]
                    duration: 1s
                  small:
                    graph: {usercount: 1000}
                    threads: [2]
                    duration: 1s
                  paper:
                    graph: {usercount: 1000}
                    threads: [2]
                    duration: 1s
                measures: [throughput, unpredictable_pct]
                figures:
                  - {id: tp, title: T, x: {key: threads}, y: {key: throughput}, series_by: [store, mix]}
                """);
        Path out = dir.resolve("out");
        int rc = bg(
                "study", "run", file.toString(), "--out", out.toString(), "--workers", addresses, "--secret", SECRET);
        assertThat(rc).as(err.toString()).isZero();
        assertThat(err.toString())
                .contains("on 2 workers")
                .contains("loading sqlite through the workers")
                .contains("bg: worker 0 owns 100 members")
                .contains("bg: worker 1 owns 100 members");
        JsonNode doc = new ObjectMapper().readTree(out.resolve("study.json").toFile());
        assertThat(doc.path("points")).hasSize(2);
        for (JsonNode p : doc.path("points")) {
            assertThat(p.path("status").asText()).as(p.toString()).isEqualTo("done");
            JsonNode result = new ObjectMapper()
                    .readTree(out.resolve(p.path("result").asText()).toFile());
            assertThat(result.path("throughput").asDouble()).isPositive();
            assertThat(result.at("/unpredictable/unpredictable_reads").asLong())
                    .as(p.toString())
                    .isZero();
            assertThat(result.at("/unpredictable/reads_checked").asLong())
                    .as(p.toString())
                    .isPositive();
            Path point = out.resolve(p.path("result").asText());
            Path parts = point.resolveSibling(point.getFileName().toString().replace(".json", "-workers"));
            long total = 0;
            for (String w : new String[] {"w0.json", "w1.json"}) {
                JsonNode part = new ObjectMapper().readTree(parts.resolve(w).toFile());
                assertThat(part.at("/total/count").asLong()).as(w).isPositive();
                total += part.at("/total/count").asLong();
            }
            assertThat(result.at("/total/count").asLong()).isEqualTo(total);
        }
    }

    /** What workers cannot run is refused in one line before any worker is called: ratings, and servers BG starts. */
    @Test
    void aRateStudyAndAServerBgWouldStartAreRefusedOnWorkers() {
        String[] args = {
            "--workers",
            "127.0.0.1:1",
            "--secret",
            SECRET,
            "--out",
            dir.resolve("x").toString()
        };
        int rc = bg(concat(new String[] {"study", "run", "dissertation-tables-7.4-7.7"}, args));
        assertThat(rc).isEqualTo(Bg.BAD_INPUT);
        assertThat(err.toString())
                .contains("bg: error: --workers: a rate study rates on this host only; bg rate --workers rates on"
                        + " workers");
        rc = bg(concat(new String[] {"study", "run", "scalability-hbase", "--store", "hbase-basic"}, args));
        assertThat(rc).isEqualTo(Bg.BAD_INPUT);
        assertThat(err.toString())
                .contains("bg: error: --workers: hbase-basic is a server BG would start on this host; on workers give"
                        + " the keys of a server they reach with --store hbase-basic -p KEY=VALUE")
                .doesNotContain("\tat ");
        assertThat(dir.resolve("x")).doesNotExist();
    }

    private static String[] concat(String[] a, String[] b) {
        String[] all = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }
}
