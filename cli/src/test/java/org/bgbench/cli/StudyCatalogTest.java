package org.bgbench.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.bgbench.study.StudyCatalog;
import org.bgbench.study.report.Findings;
import org.bgbench.study.report.Study;
import org.bgbench.study.report.Verdict;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebDriver;

/**
 * Every study of the catalog end to end at tiny scale on one store BG starts itself (or whose server it starts): its
 * points all measured, each linked from the report, the numbers its page draws (read in headless Chromium, a
 * screenshot kept under target/study-screenshots) those of study.json, and its findings computed from them.
 */
@Tag("server")
class StudyCatalogTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Path SHOTS = Path.of("target", "study-screenshots");
    private static WebDriver browser;

    @TempDir
    Path dir;

    @BeforeAll
    static void startBrowser() {
        browser = HeadlessChromium.start();
    }

    @AfterAll
    static void stopBrowser() {
        if (browser != null) {
            browser.quit();
        }
    }

    /** An x as the page and study.json both give it: a number compared as a number, a name as itself. */
    private static String x(String text) {
        try {
            return Double.toString(Double.parseDouble(text));
        } catch (NumberFormatException e) {
            return text;
        }
    }

    @BeforeEach
    void stateDir() {
        System.setProperty("bg.state.dir", dir.resolve("state").toString());
    }

    @ParameterizedTest(name = "{0} on {1}")
    @CsvSource({
        "dissertation-fig-3.3, sqlite",
        "dissertation-fig-8.2, sqlite",
        "cikm-physical-designs, postgres",
        "cikm-section-h-breakeven, postgres",
        "dissertation-8.4-feeds, sqlite",
        "dissertation-fig-6.3-6.4, casql",
        "dissertation-tables-8.3-8.4, sqlite",
        "dissertation-ch7-search, sqlite",
        "dissertation-tables-7.4-7.7, sqlite",
        // Servers BG starts through its scripts: one store each (two for the replicas, whose finding compares them).
        "scalability-hbase, hbase-manual",
        "gurevich-cassandra-nuodb, cassandra-1node",
        "read-replicas, replica-0s replica-2s"
    })
    void aCatalogStudyRunsAtTinyScaleAndItsReportIsItsJson(String name, String storeIds) throws Exception {
        List<String> stores = List.of(storeIds.split(" "));
        Path out = dir.resolve(name);
        StringWriter so = new StringWriter();
        StringWriter se = new StringWriter();
        int rc = Bg.run(
                new PrintWriter(so, true),
                new PrintWriter(se, true),
                "study",
                "run",
                name,
                "--store",
                String.join(",", stores),
                "--out",
                out.toString());
        assertThat(rc).as(se.toString()).isZero();
        JsonNode doc = JSON.readTree(out.resolve("study.json").toFile());
        String report = Files.readString(out.resolve("report.html"));

        List<JsonNode> ours = new ArrayList<>();
        doc.path("points").forEach(p -> {
            if (stores.contains(p.path("store").asText())) {
                ours.add(p);
            }
        });
        assertThat(ours).isNotEmpty();
        for (JsonNode p : ours) {
            assertThat(p.path("status").asText()).as(p.toString()).isEqualTo("done");
            assertThat(out.resolve(p.path("result").asText())).isRegularFile();
            assertThat(report).contains("href=\"" + p.path("result").asText() + "\"");
        }

        // Every point the page draws as ours, read in the browser, is a measured point of study.json, and every
        // measured one is drawn.
        browser.get(out.resolve("report.html").toUri().toString());
        @SuppressWarnings("unchecked")
        List<List<String>> circles = (List<List<String>>) ((JavascriptExecutor) browser)
                .executeScript("return Array.from(document.querySelectorAll('circle.ours, rect.ours'))"
                        + ".map(c => [c.dataset.series, c.dataset.x, c.dataset.y]);");
        HeadlessChromium.shot(browser, SHOTS, name + "-" + String.join("-", stores));
        List<String> drawn = new ArrayList<>();
        for (List<String> c : circles) {
            drawn.add(c.get(0) + " @" + x(c.get(1)) + " = " + Double.parseDouble(c.get(2)));
        }
        List<String> measured = new ArrayList<>();
        for (JsonNode f : doc.path("figures")) {
            for (JsonNode s : f.path("series")) {
                for (JsonNode pt : s.path("points")) {
                    if (!pt.path("y").isNull()) {
                        measured.add(
                                s.path("name").asText() + " @" + x(pt.path("x").asText()) + " = "
                                        + pt.path("y").asDouble());
                    }
                }
            }
        }
        assertThat(measured).isNotEmpty();
        assertThat(drawn).containsExactlyInAnyOrderElementsOf(measured);
        curvesAreTheirResults(out, doc);

        // The findings about this store are computed: agrees or differs, and the terminal says the same.
        List<Verdict> verdicts = Findings.evaluateAll(Study.of(doc));
        assertThat(verdicts).hasSize(doc.path("findings").size());
        List<Verdict> judged = verdicts.stream()
                .filter(v -> v.outcome() != Verdict.Outcome.NOT_ENOUGH_DATA)
                .toList();
        assertThat(judged).as(verdicts.toString()).isNotEmpty();
        for (Verdict v : judged) {
            assertThat(so.toString())
                    .contains("  " + v.id() + ": " + v.outcome().words() + " — ");
        }
        assertThat(StudyCatalog.names()).contains(name);
        if (doc.path("kind").asText().equals("rate")) {
            ratingPoints(out, ours);
        }
    }

    /**
     * A rating point keeps its rating's JSON, and its measures are that rating's: SoAR, the experiments the search
     * ran and the rating's time as rating.json records them.
     */
    private static void ratingPoints(Path out, List<JsonNode> points) throws Exception {
        for (JsonNode p : points) {
            assertThat(p.path("result").asText()).endsWith("/rating.json");
            JsonNode rating =
                    JSON.readTree(out.resolve(p.path("result").asText()).toFile());
            assertThat(rating.path("study_point").asText())
                    .isEqualTo(p.path("key").asText());
            JsonNode m = p.path("measures");
            if (m.has("soar")) {
                assertThat(m.path("soar").asDouble())
                        .isEqualTo(rating.at("/soar/actions_per_second").asDouble());
            }
            if (m.has("experiments")) {
                assertThat(m.path("experiments").asInt())
                        .isEqualTo(rating.path("experiments_run").asInt());
                assertThat(m.path("experiments").asInt()).isPositive();
            }
            if (m.has("rating_s")) {
                assertThat(m.path("rating_s").asDouble())
                        .isEqualTo(rating.at("/rating_time/total_s").asDouble())
                        .isPositive();
            }
        }
    }

    /**
     * Each series of a curve figure (one repetition at tiny scale) is its point's array in the result: every element
     * with an x and a y, in order.
     */
    private static void curvesAreTheirResults(Path out, JsonNode doc) throws Exception {
        for (JsonNode f : doc.path("figures")) {
            if (!f.has("curve")) {
                continue;
            }
            for (JsonNode s : f.path("series")) {
                JsonNode pts = s.path("points");
                assertThat(pts).as(s.path("name").asText()).isNotEmpty();
                JsonNode result = JSON.readTree(
                        out.resolve(pts.get(0).path("results").get(0).asText()).toFile());
                List<String> expected = new ArrayList<>();
                for (JsonNode e : result.at(f.path("curve").asText())) {
                    JsonNode x = e.path(f.path("x").path("key").asText());
                    JsonNode y = e.path(f.path("y").path("key").asText());
                    if (x.isNumber() && y.isNumber()) {
                        expected.add(x.asDouble() + " " + y.asDouble());
                    }
                }
                List<String> ours = new ArrayList<>();
                pts.forEach(
                        p -> ours.add(p.path("x").asDouble() + " " + p.path("y").asDouble()));
                assertThat(ours).as(s.path("name").asText()).isEqualTo(expected);
            }
        }
    }
}
