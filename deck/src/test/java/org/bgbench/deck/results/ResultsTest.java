package org.bgbench.deck.results;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.bgbench.deck.TestRuns;
import org.bgbench.measurement.RunResult;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The runs directory as the deck lists, opens and exports it, with a real run's result and a rating in progress. */
class ResultsTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path dir;

    static Path runs;
    static RunResult result;

    @BeforeAll
    static void aRunAndARating() throws Exception {
        runs = dir.resolve("runs");
        Files.createDirectories(runs);
        result = TestRuns.run(runs.resolve("x.json"));
        Path rating = Files.createDirectories(runs.resolve("rate-memory"));
        Files.writeString(rating.resolve("experiments.jsonl"), """
                {"threads":1,"throughput":100.0,"meets_sla":true}
                {"threads":2,"throughput":190.0,"meets_sla":false}
                """);
        // The rating is the newer one.
        Files.setLastModifiedTime(runs.resolve("x.json"), FileTime.fromMillis(System.currentTimeMillis() - 60_000));
        Files.setLastModifiedTime(rating, FileTime.fromMillis(System.currentTimeMillis()));
        // Not results: the list must skip them.
        Files.writeString(runs.resolve("notes.json"), "{\"hello\":1}");
        Files.writeString(runs.resolve("broken.json"), "{not json");
    }

    @Test
    void listFindsTheRunAndTheRatingNewestFirst() throws Exception {
        List<Map<String, Object>> list = new Results(runs).list();

        assertThat(list).extracting(m -> m.get("path")).containsExactly("rate-memory", "x.json");
        Map<String, Object> rating = list.get(0);
        assertThat(rating).containsEntry("kind", "rating").containsEntry("running", true);
        Map<String, Object> run = list.get(1);
        JsonNode written = JSON.readTree(runs.resolve("x.json").toFile());
        assertThat(run)
                .containsEntry("kind", "run")
                .containsEntry("store", "memory")
                .containsEntry("mix", "high")
                .containsEntry("threads", 2)
                .containsEntry("throughput", result.throughput())
                .containsEntry("p95_ms", written.path("total").path("p95_ms").asDouble())
                .containsEntry(
                        "within_beta_pct",
                        written.path("total").path("within_beta_pct").asDouble());
        assertThat((Double) run.get("throughput")).isPositive();
        assertThat(new Results(dir.resolve("none")).list()).isEmpty();
    }

    @Test
    void openStripsTheEncodedHistograms() throws Exception {
        JsonNode written = JSON.readTree(runs.resolve("x.json").toFile());
        assertThat(written.path("total").has("hdr"))
                .as("the written result carries its histogram")
                .isTrue();

        JsonNode opened = new Results(runs).open("x.json");

        assertThat(opened.path("kind").asText()).isEqualTo("run");
        assertThat(opened.path("path").asText()).isEqualTo("x.json");
        assertThat(opened.path("total").has("hdr")).isFalse();
        assertThat(opened.path("total").path("count").asLong())
                .isEqualTo(result.total().count());
        List<JsonNode> parts = new ArrayList<>();
        opened.path("actions").forEach(parts::add);
        opened.path("sessions").forEach(parts::add);
        assertThat(parts).isNotEmpty().allSatisfy(a -> assertThat(a.has("hdr")).isFalse());

        JsonNode rating = new Results(runs).open("rate-memory");
        assertThat(rating.path("kind").asText()).isEqualTo("rating");
        assertThat(rating.path("experiments")).hasSize(2);
        assertThat(rating.path("experiments").get(1).path("threads").asInt()).isEqualTo(2);
    }

    @Test
    void csvHasAHeaderAndOneRowPerSecond() throws Exception {
        JsonNode series = JSON.readTree(runs.resolve("x.json").toFile()).path("series");
        assertThat(series.size()).isPositive();

        List<String> lines = new Results(runs).csv("x.json").lines().toList();

        List<String> columns = new ArrayList<>();
        series.get(0).fieldNames().forEachRemaining(columns::add);
        assertThat(lines.get(0).split(",")).containsExactlyElementsOf(columns);
        assertThat(lines).hasSize(series.size() + 1);
        int t = columns.indexOf("throughput");
        assertThat(t).isNotNegative();
        for (int i = 0; i < series.size(); i++) {
            String[] cells = lines.get(i + 1).split(",", -1);
            assertThat(cells).hasSameSizeAs(columns);
            assertThat(Double.parseDouble(cells[t]))
                    .isEqualTo(series.get(i).path("throughput").asDouble());
        }
        assertThatThrownBy(() -> new Results(runs).csv("notes.json")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void resolveStaysInsideTheRunsDirectory() throws Exception {
        Results r = new Results(runs);
        assertThat(r.resolve("x.json"))
                .isEqualTo(runs.toAbsolutePath().normalize().resolve("x.json"));
        assertThat(r.resolve("rate-memory/../x.json")).isEqualTo(r.resolve("x.json"));
        Files.writeString(dir.resolve("secret.txt"), "outside");
        for (String bad : List.of(
                "../secret.txt",
                "../x",
                "rate-memory/../../secret.txt",
                dir.resolve("secret.txt").toString(),
                "/etc/passwd",
                "",
                "  ")) {
            assertThatThrownBy(() -> r.resolve(bad))
                    .as(bad)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith("path:");
        }
        assertThatThrownBy(() -> r.open("../secret.txt")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> r.resolve(null)).isInstanceOf(IllegalArgumentException.class);
        // A sibling directory whose name starts with the runs directory's is outside too.
        Files.createDirectories(dir.resolve("runs2"));
        assertThatThrownBy(() -> r.resolve("../runs2/y.json")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void scaleDirectoriesAndElasticityResultsAreTheirOwnKinds(@TempDir Path other) throws Exception {
        Path r = Files.createDirectories(other.resolve("runs"));
        TestRuns.scaleAndElasticity(r);
        Results results = new Results(r);
        Map<String, Map<String, Object>> byPath = new HashMap<>();
        for (Map<String, Object> m : results.list()) {
            byPath.put((String) m.get("path"), m);
        }
        // scale.json is not listed as a run of its own; the configuration's rating inside is a rating.
        assertThat(byPath.keySet()).containsExactlyInAnyOrder("scale", "scale/01-primary", "elast/elasticity.json");
        Map<String, Object> scale = byPath.get("scale");
        assertThat(scale)
                .containsEntry("kind", "scale")
                .containsEntry("mode", "speedup")
                .containsEntry("store", "postgres")
                .containsEntry("complete", false);
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> configs = (List<Map<String, Object>>) scale.get("configurations");
        assertThat(configs).extracting(c -> c.get("nodes")).containsExactly(1, 2, 3);
        assertThat(configs.get(1)).containsEntry("soar", 1700.0).containsEntry("efficiency", 0.85);
        assertThat(configs.get(2).get("soar")).isNull();
        assertThat(byPath.get("scale/01-primary"))
                .containsEntry("kind", "rating")
                .containsEntry("soar", 1000.0);
        Map<String, Object> el = byPath.get("elast/elasticity.json");
        assertThat(el)
                .containsEntry("kind", "elasticity")
                .containsEntry("store", "cassandra")
                .containsEntry("nodes_before", 2)
                .containsEntry("nodes_after", 3)
                .containsEntry("elasticity", 123.4)
                .containsEntry("stabilisation_seconds", 54.9);

        JsonNode opened = results.open("scale");
        assertThat(opened.path("kind").asText()).isEqualTo("scale");
        JsonNode c = opened.path("scale").path("configurations");
        // Only a configuration whose rating exists gets a path to open it by.
        assertThat(c.get(0).path("rating_path").asText()).isEqualTo("scale/01-primary");
        assertThat(c.get(1).has("rating_path")).isFalse();
        assertThat(opened.path("scale").path("warnings").get(0).asText()).contains("demonstrate the method");
        JsonNode e = results.open("elast/elasticity.json");
        assertThat(e.path("kind").asText()).isEqualTo("elasticity");
        assertThat(e.path("path").asText()).isEqualTo("elast/elasticity.json");
        assertThat(e.path("points")).hasSize(9);
        assertThat(e.path("adds").get(0).path("t").asDouble()).isEqualTo(40.1);
        assertThat(e.path("svg_path").isNull()).isTrue();
        // bg elasticity's own name for its result, with its chart beside it.
        Files.writeString(
                r.resolve("elasticity-20261125-070000-cassandra-N2.json"), TestRuns.sample("elasticity.json"));
        Files.writeString(r.resolve("elasticity-20261125-070000-cassandra-N2.svg"), "<svg/>");
        assertThat(results.list())
                .anySatisfy(m -> assertThat(m)
                        .containsEntry("kind", "elasticity")
                        .containsEntry("path", "elasticity-20261125-070000-cassandra-N2.json"));
        assertThat(results.open("elasticity-20261125-070000-cassandra-N2.json")
                        .path("svg_path")
                        .asText())
                .isEqualTo("elasticity-20261125-070000-cassandra-N2.svg");
    }
}
