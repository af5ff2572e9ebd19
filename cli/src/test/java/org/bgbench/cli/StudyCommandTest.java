package org.bgbench.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** bg study list, show and run end to end, in process, on a real SQLite store. */
@Tag("server")
class StudyCommandTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private StringWriter out = new StringWriter();
    private StringWriter err = new StringWriter();

    @BeforeEach
    void stateDir() {
        System.setProperty("bg.state.dir", dir.resolve("state").toString());
    }

    private int bg(String... args) {
        out = new StringWriter();
        err = new StringWriter();
        return Bg.run(new PrintWriter(out, true), new PrintWriter(err, true), args);
    }

    @Test
    void listNamesEachStudyItsSourceItsStoresAndItsTimes() {
        assertThat(bg("study", "list")).isZero();
        assertThat(out.toString())
                .contains("dissertation-fig-3.3\n")
                .contains("dissertation-fig-8.2\n")
                .contains("figures 1.1, 3.3, 3.4 and 4.1")
                .contains("stores: sqlite [BG starts it], memory [BG starts it], postgres [BG starts it]")
                .containsPattern("time: +tiny 50 points, 1m 15s; small 250 points, 41m 40s; paper 600 points, 110h");
    }

    @Test
    void aRateStudyIsListedAndShownByItsRatingsAndTheirOptions() {
        assertThat(bg("study", "list")).isZero();
        assertThat(out.toString())
                .containsPattern("dissertation-tables-7.4-7.7\n(.*\n){4} +time: +tiny 10 ratings, about ");
        assertThat(bg("study", "show", "dissertation-tables-8.3-8.4"))
                .as(err.toString())
                .isZero();
        assertThat(out.toString())
                .contains("scale:      tiny, 32 ratings, 1 repetition(s), about ")
                .contains("  sqlite/boosted-100k/high/r1\n")
                .contains("  graph: zipfianmean=0.27, usercount=1000,")
                .contains("  rating: sla=95%:100ms:0.01%:1s, delta=250ms, search=optimal, climbing_factor=2.0,"
                        + " max_threads=2, reset=auto, target=soar, warmup=0s, confirm=false")
                .contains("deviation:  usercount=1000 (paper: 100000) for basic-100k, boosted-100k,");
    }

    @Test
    void showPrintsEveryPointInTheOrderItRuns() throws Exception {
        Path file = StudyFixture.write(dir, "[vp, high]");
        assertThat(bg("study", "show", file.toString())).as(err.toString()).isZero();
        List<String> keys = out.toString()
                .lines()
                .filter(l -> l.startsWith("  sqlite/"))
                .map(String::strip)
                .toList();
        assertThat(keys)
                .containsExactly(
                        "sqlite/vp/T=1/r1",
                        "sqlite/vp/T=1/r2",
                        "sqlite/vp/T=2/r1",
                        "sqlite/vp/T=2/r2",
                        "sqlite/high/T=1/r1",
                        "sqlite/high/T=1/r2",
                        "sqlite/high/T=2/r1",
                        "sqlite/high/T=2/r2");
        assertThat(out.toString()).contains("deviation:  usercount=100 (paper: 10000)");
        assertThat(bg("study", "show", "dissertation-fig-8.2", "--scale", "paper"))
                .isZero();
        assertThat(out.toString()).contains("  postgres/fs-12kb/vp/T=128/r3");
    }

    @Test
    void badInputIsOneLine() throws Exception {
        assertThat(bg("study", "show", "dissertation-fig-3.3", "--scale", "huge"))
                .isEqualTo(Bg.BAD_INPUT);
        assertThat(err.toString()).isEqualTo("bg: error: --scale: expected tiny, small, paper, got 'huge'\n");
        assertThat(bg("study", "run", "nonesuch")).isEqualTo(Bg.BAD_INPUT);
        assertThat(err.toString().lines()).singleElement().asString().startsWith("bg: error: nonesuch: no such study");
        Path bad = Files.writeString(
                dir.resolve("bad.yaml"),
                Files.readString(StudyFixture.write(dir, "[vp]")).replace("duration: 1s", "duration: fast"));
        assertThat(bg("study", "run", bad.toString())).isEqualTo(Bg.BAD_INPUT);
        assertThat(err.toString())
                .isEqualTo("bg: error: " + bad + ": scales.tiny.duration: expected a duration such as 500ms, 2s "
                        + "or 1m longer than 0, got 'fast'\n");
        assertThat(bg("study", "run", "dissertation-fig-3.3", "--store", "neo4j"))
                .isEqualTo(Bg.BAD_INPUT);
        assertThat(err.toString())
                .isEqualTo("bg: error: --store: has no store 'neo4j'; it measures sqlite, memory, postgres, mariadb, "
                        + "mongodb (--store)\n");
    }

    @Test
    void aTinyStudyRunsAndItsJsonAndCsvAgreeWithEachPointsResult() throws Exception {
        Path file = StudyFixture.write(dir, "[vp, high]");
        Path study = dir.resolve("study");
        assertThat(bg("study", "run", file.toString(), "--out", study.toString()))
                .as(err.toString())
                .isZero();
        JsonNode doc = JSON.readTree(study.resolve("study.json").toFile());
        assertThat(doc.path("study").asText()).isEqualTo("tiny-study");
        assertThat(doc.path("scale").asText()).isEqualTo("tiny");
        assertThat(doc.path("complete").asBoolean()).isTrue();
        assertThat(doc.path("command").asText()).startsWith("bg study run " + file);
        assertThat(doc.path("machine").path("cores").asInt()).isPositive();
        assertThat(doc.path("deviations").toString()).contains("usercount=100 (paper: 10000)");
        assertThat(doc.path("findings").get(0).path("kind").asText()).isEqualTo("winner");
        // The report beside study.json, its finding computed from the points measured.
        String report = Files.readString(study.resolve("report.html"));
        assertThat(report).contains("tiny-study").containsAnyOf("agrees", "differs");
        // The terminal says the same verdict as the report, then where both files are.
        String verdict = report.contains(">agrees<") ? "f1: agrees — " : "f1: differs — ";
        assertThat(out.toString())
                .contains("Findings:\n  " + verdict)
                .contains("Report: " + study.toAbsolutePath().resolve("report.html"));
        assertThat(doc.path("points")).hasSize(8);
        Map<String, List<Double>> runs = new HashMap<>();
        for (JsonNode p : doc.path("points")) {
            assertThat(p.path("status").asText()).as(p.toString()).isEqualTo("done");
            JsonNode result =
                    JSON.readTree(study.resolve(p.path("result").asText()).toFile());
            assertThat(p.path("measures").path("throughput").asDouble())
                    .isEqualTo(result.path("throughput").asDouble())
                    .isPositive();
            assertThat(p.path("measures").path("p95_ms").asDouble())
                    .isEqualTo(result.at("/total/p95_ms").asDouble());
            assertThat(p.path("measures").path("unpredictable_pct").asDouble()).isZero();
            assertThat(result.path("threads").asInt())
                    .isEqualTo(p.path("threads").asInt());
            assertThat(result.at("/workload/mix_name").asText())
                    .isEqualTo(p.path("mix").asText());
            runs.computeIfAbsent(
                            "sqlite " + p.path("mix").asText() + ","
                                    + p.path("threads").asInt(),
                            k -> new ArrayList<>())
                    .add(result.path("throughput").asDouble());
        }
        JsonNode fig = doc.path("figures").get(0);
        assertThat(fig.path("paper").get(0).path("y").asDouble()).isEqualTo(500);
        assertThat(fig.path("series"))
                .extracting(s -> s.path("name").asText())
                .containsExactly("sqlite vp", "sqlite high");
        for (JsonNode s : fig.path("series")) {
            for (JsonNode pt : s.path("points")) {
                List<Double> r =
                        runs.get(s.path("name").asText() + "," + pt.path("x").asInt());
                assertThat(pt.path("runs")).extracting(JsonNode::asDouble).containsExactlyElementsOf(r);
                assertThat(pt.path("y").asDouble()).isEqualTo((r.get(0) + r.get(1)) / 2);
            }
        }
        List<String> csv = Files.readAllLines(study.resolve("throughput.csv"));
        assertThat(csv.getFirst()).isEqualTo("series,x,median,run1,run2");
        assertThat(csv).hasSize(5);
        for (String row : csv.subList(1, csv.size())) {
            String[] c = row.split(",");
            List<Double> r = runs.get(c[0] + "," + c[1]);
            assertThat(c[3]).isEqualTo(String.format(Locale.ROOT, "%.4f", r.get(0)));
            assertThat(c[4]).isEqualTo(String.format(Locale.ROOT, "%.4f", r.get(1)));
        }
        assertThat(study.resolve("p95_ms.csv")).isRegularFile();

        // The same directory again is refused; a resume of a complete study measures nothing; another scale is refused.
        assertThat(bg("study", "run", file.toString(), "--out", study.toString()))
                .isEqualTo(Bg.BAD_INPUT);
        assertThat(err.toString()).contains("holds a study already; --resume");
        assertThat(bg("study", "run", file.toString(), "--resume", study.toString()))
                .as(err.toString())
                .isZero();
        assertThat(err.toString()).contains("8 points (8 done before)").doesNotContain("opening");
        assertThat(bg("study", "run", file.toString(), "--scale", "small", "--resume", study.toString()))
                .isEqualTo(Bg.BAD_INPUT);
        assertThat(err.toString().lines()).singleElement().asString().contains("scale: is tiny, not small");
        Path other = StudyFixture.write(dir.resolve("other").toFile().mkdirs() ? dir.resolve("other") : dir, "[vp]");
        assertThat(bg("study", "run", other.toString(), "--resume", study.toString()))
                .isEqualTo(Bg.BAD_INPUT);
        assertThat(err.toString().lines()).singleElement().asString().contains("the study file changed");
    }
}
