package org.bgbench.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.bgbench.model.GraphParameters;
import org.bgbench.model.generator.SocialGraph;
import org.bgbench.model.state.GraphState;
import org.bgbench.runner.Parameters;
import org.bgbench.runner.StateFiles;
import org.bgbench.store.DataStore;
import org.bgbench.store.StoreSettings;
import org.bgbench.store.conformance.StateComparison;
import org.bgbench.store.postgres.PostgresStoreProvider;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bg rate} end to end against a real PostgreSQL server (Maven Central's embedded binaries, started here so it
 * outlives each {@code bg} command): the rating completes with RepairDB and with the database image between
 * experiments, the store ends exactly where BG's saved state says, commands that name no graph key use the graph the
 * server holds, and a server that dies mid-rating leaves every experiment measured so far on disk.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Tag("server")
class RatePostgresTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String[] GRAPH = {
        "-p",
        "usercount=400",
        "-p",
        "friendcountperuser=10",
        "-p",
        "resourcecountperuser=4",
        "-p",
        "confperc=0.7",
        "-p",
        "commentcountperresource=1"
    };

    /** One directory for the class: BG's saved state must carry over from one rating to the next. */
    @TempDir
    static Path dir;

    private EmbeddedPostgres pg;
    private String url;
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    @BeforeAll
    void start() throws Exception {
        pg = EmbeddedPostgres.builder()
                .setPGStartupWait(Duration.ofSeconds(60))
                .setServerConfig("fsync", "off")
                .setServerConfig("synchronous_commit", "off")
                .start();
        url = "postgres.url=jdbc:postgresql://localhost:" + pg.getPort() + "/postgres";
    }

    @AfterAll
    void stop() throws Exception {
        if (pg != null) {
            pg.close();
        }
    }

    private int bg(String... args) {
        System.setProperty("bg.state.dir", dir.resolve("state").toString());
        return Bg.run(new PrintWriter(out, true), new PrintWriter(err, true), args);
    }

    private static String[] with(String... more) {
        List<String> all = new ArrayList<>(List.of(more));
        all.addAll(List.of(GRAPH));
        return all.toArray(String[]::new);
    }

    private String[] rate(Path to, String reset) {
        return with(
                "rate",
                "--store",
                "postgres",
                "-p",
                url,
                "--workload",
                "high",
                "--delta",
                "1s",
                "--warmup",
                "0s",
                "--sla",
                "95%:100ms:0.01%:2s",
                "--max-threads",
                "8",
                "--target",
                "both",
                "--reset",
                reset,
                "--out",
                to.toString());
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> json(Path file) throws Exception {
        return JSON.readValue(file.toFile(), Map.class);
    }

    @Test
    @Order(1)
    @SuppressWarnings("unchecked")
    void aRatingOfPostgresCompletesWithRepairDbAndLeavesTheStateBgSaved() throws Exception {
        assertThat(bg(with("load", "--store", "postgres", "-p", url, "--replace")))
                .as(err.toString())
                .isZero();
        Path rating = dir.resolve("repair");
        assertThat(bg(rate(rating, "repair"))).as(err + "\n" + out).isZero();
        Map<String, Object> r = json(rating.resolve("rating.json"));
        assertThat(((Map<String, Object>) r.get("soar")).get("actions_per_second"))
                .isInstanceOf(Number.class);
        assertThat(((Number) ((Map<String, Object>) r.get("soar")).get("actions_per_second")).doubleValue())
                .isPositive();
        assertThat(((Number) ((Map<String, Object>) r.get("socialites")).get("threads")).intValue())
                .isPositive();
        Map<String, Object> time = (Map<String, Object>) r.get("rating_time");
        Map<String, Object> resets = (Map<String, Object>) time.get("resets");
        assertThat(resets).containsKey("repair").doesNotContainKeys("reload", "repair+image", "repair+reload");
        assertThat(((Number) time.get("omega")).intValue()).isEqualTo(((Number) resets.get("repair")).intValue());
        assertThat(((Number) time.get("eta")).intValue()).isGreaterThanOrEqualTo(3);
        assertThat(((Number) time.get("repaired_relationships")).longValue()).isPositive();
        assertThat(out.toString()).contains("Rating time Λ = ζ + ω·ν + η·δ + Δ").contains("RepairDB restored");
        for (Object e : (List<Object>) r.get("experiments")) {
            Map<String, Object> m = (Map<String, Object>) e;
            assertThat(((Number) m.get("unpredictable_pct")).doubleValue())
                    .as("experiment %s", e)
                    .isZero();
        }
        // The last experiment's writes stay in the store; BG saved them as the state the next run starts from.
        SocialGraph graph = new SocialGraph(GraphParameters.toSpec(Parameters.of(
                        List.of(),
                        List.of(
                                "usercount=400",
                                "friendcountperuser=10",
                                "resourcecountperuser=4",
                                "confperc=0.7",
                                "commentcountperresource=1"))
                .asMap()));
        StoreSettings settings = StoreSettings.forProvider(
                new PostgresStoreProvider(), Map.of("postgres.url", url.substring("postgres.url=".length())));
        StateFiles states = StateFiles.defaultLocation();
        try (DataStore store = new PostgresStoreProvider().open(settings)) {
            // The store names the saved state it holds: the rating ended with the last experiment's token.
            String mark = store.stateMark().orElseThrow();
            assertThat(mark).startsWith("state:");
            GraphState saved =
                    states.read(mark.substring("state:".length()), graph).orElseThrow();
            assertThat(saved.touchedMembers()).isPositive();
            assertThat(StateComparison.differences(store, saved, 10)).isEmpty();
            try (var files = Files.list(states.dir())) {
                assertThat(files.map(f -> f.getFileName().toString()).toList())
                        .as("the earlier experiments' states " + "were deleted as the store moved on")
                        .containsExactly(mark.substring("state:".length()) + ".state");
            }
        }
    }

    @Test
    @Order(2)
    @SuppressWarnings("unchecked")
    void aRatingWithTheDatabaseImageRestoresItBetweenExperiments() throws Exception {
        Path rating = dir.resolve("image");
        assertThat(bg(rate(rating, "image"))).as(err + "\n" + out).isZero();
        Map<String, Object> time =
                (Map<String, Object>) json(rating.resolve("rating.json")).get("rating_time");
        assertThat((Map<String, Object>) time.get("resets"))
                .containsKey("image")
                .doesNotContainKey("repair");
        assertThat(((Number) time.get("omega")).intValue())
                .isEqualTo(((Number) ((Map<String, Object>) time.get("resets")).get("image")).intValue());
    }

    @Test
    @Order(3)
    void commandsNamingNoGraphKeyUseTheGraphTheServerHolds() throws Exception {
        String held = "usercount=400 friendcountperuser=10 resourcecountperuser=4 commentcountperresource=1 "
                + "confperc=0.7";
        Path result = dir.resolve("no-keys.json");
        String[] run = {
            "run",
            "--store",
            "postgres",
            "-p",
            url,
            "--threads",
            "2",
            "--operations",
            "200",
            "--quiet",
            "--out",
            result.toString()
        };
        assertThat(bg(run)).as(err + "\n" + out).isZero();
        assertThat(err.toString()).contains("bg: graph from the store: " + held);
        assertThat(JSON.readTree(result.toFile()).path("graph").path("members").asInt())
                .isEqualTo(400);
        out.getBuffer().setLength(0);
        assertThat(bg("verify", "--store", "postgres", "-p", url))
                .as(err + "\n" + out)
                .isZero();
        assertThat(out.toString()).contains("Graph: " + held + " (from the store)");
        err.getBuffer().setLength(0);
        List<String> other = new ArrayList<>(List.of(rate(dir.resolve("other"), "repair")));
        other.addAll(List.of("-p", "usercount=3000"));
        assertThat(bg(other.toArray(String[]::new))).isEqualTo(2);
        assertThat(err.toString().strip())
                .hasLineCount(1)
                .contains("(usercount 400 (held) vs 3000 (asked));")
                .contains("bg load --store postgres --replace -p usercount=3000 -p friendcountperuser=10");
    }

    @Test
    @Order(4)
    @SuppressWarnings("unchecked")
    void aServerThatDiesMidRatingLeavesWhatWasMeasured() throws Exception {
        Path rating = dir.resolve("dies");
        Thread killer = Thread.ofPlatform().start(() -> {
            try {
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
                while (System.nanoTime() < deadline && !Files.exists(rating.resolve("02-T2.json"))) {
                    Thread.sleep(50);
                }
                pg.close();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        int code = bg(rate(rating, "image"));
        killer.join();
        pg = null;
        assertThat(code).as(err + "\n" + out).isEqualTo(Bg.FAILED);
        assertThat(rating.resolve("rating.json")).as(err + "\n" + out).exists();
        Map<String, Object> r = json(rating.resolve("rating.json"));
        assertThat(r.get("complete")).isEqualTo(false);
        assertThat((String) r.get("stop_reason")).isNotBlank();
        assertThat((List<Object>) r.get("experiments")).isNotEmpty();
        assertThat(rating.resolve("01-T1.json")).exists();
        assertThat(out.toString()).contains("Stopped early");
    }
}
