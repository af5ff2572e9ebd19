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
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.bgbench.study.StudyCatalog;
import org.bgbench.study.report.Findings;
import org.bgbench.study.report.Study;
import org.bgbench.study.report.Verdict;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Every study of the catalog end to end at tiny scale on one store BG starts itself (or whose server it starts): its points all measured, each
 * linked from the report, the report's plotted numbers those of study.json, and its findings computed from them.
 */
@Tag("server")
class StudyCatalogTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern OURS = Pattern.compile(
            "<circle class=\"ours\"[^>]*data-series=\"([^\"]*)\" data-x=\"([^\"]*)\" data-y=\"([^\"]*)\"");

    @TempDir
    Path dir;

    @BeforeEach
    void stateDir() {
        System.setProperty("bg.state.dir", dir.resolve("state").toString());
    }

    @ParameterizedTest(name = "{0} on {1}")
    @CsvSource({
        "dissertation-fig-3.3, sqlite",
        "dissertation-fig-8.2, sqlite",
        "cikm-physical-designs, postgres",
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

        // Every point the report draws as ours is a measured point of study.json, and every measured one is drawn.
        List<String> drawn = new ArrayList<>();
        Matcher m = OURS.matcher(report);
        while (m.find()) {
            drawn.add(m.group(1) + " @" + Double.parseDouble(m.group(2)) + " = " + Double.parseDouble(m.group(3)));
        }
        List<String> measured = new ArrayList<>();
        for (JsonNode f : doc.path("figures")) {
            for (JsonNode s : f.path("series")) {
                for (JsonNode pt : s.path("points")) {
                    if (!pt.path("y").isNull()) {
                        measured.add(s.path("name").asText() + " @"
                                + pt.path("x").asDouble() + " = " + pt.path("y").asDouble());
                    }
                }
            }
        }
        assertThat(measured).isNotEmpty();
        assertThat(drawn).containsExactlyInAnyOrderElementsOf(measured);

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
    }
}
