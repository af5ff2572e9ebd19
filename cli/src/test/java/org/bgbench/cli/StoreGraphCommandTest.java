package org.bgbench.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.util.Map;
import org.bgbench.store.DataStore;
import org.bgbench.store.StoreSettings;
import org.bgbench.store.sqlite.SqliteStoreProvider;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The graph from the store, with {@code bg} run in process against a SQLite file that holds M=2,000: commands that
 * name no graph key use the store's graph and say so, named keys that differ are refused in one line naming each with
 * both values, {@code --load} without keys does not load the default graph over the store's, and {@code bg verify}
 * names the held and the asked-for graph.
 */
@Tag("slow") // eight loads and runs
class StoreGraphCommandTest extends BgCommandFixture {
    private static final String[] HELD = {
        "-p", "usercount=2000", "-p", "friendcountperuser=10", "-p", "resourcecountperuser=4"
    };

    @BeforeEach
    void load() {
        assertThat(bg(with(HELD, "load", "--store", "sqlite", "-p", db)))
                .as(err.toString())
                .isZero();
        out.getBuffer().setLength(0);
        err.getBuffer().setLength(0);
    }

    private String[] run(Path result, String... more) {
        return with(
                more,
                "run",
                "--store",
                "sqlite",
                "-p",
                db,
                "--threads",
                "2",
                "--operations",
                "200",
                "--quiet",
                "--out",
                result.toString());
    }

    private static JsonNode graphOf(Path result) throws Exception {
        return new ObjectMapper().readTree(result.toFile()).path("graph");
    }

    private String recorded() {
        try (DataStore s = new SqliteStoreProvider()
                .open(StoreSettings.of(
                        Map.of("sqlite.file", dir.resolve("bg.sqlite").toString())))) {
            return s.loadedGraph().orElse("none");
        }
    }

    @Test
    void aRunNamingNoGraphKeyRunsOnTheStoresGraph() throws Exception {
        Path result = dir.resolve("r.json");
        assertThat(bg(run(result))).as(err.toString()).isZero();
        assertThat(err.toString())
                .contains("bg: graph from the store: usercount=2000 friendcountperuser=10 resourcecountperuser=4");
        assertThat(graphOf(result).path("members").asInt()).isEqualTo(2000);
        assertThat(graphOf(result).path("friends_per_member").asInt()).isEqualTo(10);
    }

    @Test
    void aNamedKeyThatMatchesKeepsTheStoresOtherKeys() throws Exception {
        Path result = dir.resolve("r.json");
        assertThat(bg(run(result, "-p", "usercount=2000"))).as(err.toString()).isZero();
        assertThat(err.toString()).contains("as the store holds it");
        assertThat(graphOf(result).path("resources_per_member").asInt()).isEqualTo(4);
    }

    @Test
    void aNamedKeyThatDiffersIsRefusedInOneLineNamingBothValues() {
        assertThat(bg(run(dir.resolve("r.json"), "-p", "usercount=3000"))).isEqualTo(2);
        String e = err.toString().strip();
        assertThat(e.lines()).hasSize(1);
        assertThat(e)
                .startsWith("bg: error: usercount: the store holds another graph than the -p keys ask for")
                .contains("(usercount 2000 (held) vs 3000 (asked));")
                .contains("pass --load to load the one asked for")
                .doesNotContain("bg-graph/1");
    }

    @Test
    void loadWithoutGraphKeysKeepsTheStoresGraph() throws Exception {
        String before = recorded();
        Path result = dir.resolve("r.json");
        assertThat(bg(run(result, "--load"))).as(err.toString()).isZero();
        assertThat(err.toString()).contains("graph from the store").doesNotContain("loading");
        assertThat(graphOf(result).path("members").asInt()).isEqualTo(2000);
        assertThat(recorded()).isEqualTo(before).contains("M=2000 ");
    }

    @Test
    void loadWithKeysThatDifferLoadsTheGraphNamed() throws Exception {
        Path result = dir.resolve("r.json");
        assertThat(bg(run(result, "--load", "-p", "usercount=1000")))
                .as(err.toString())
                .isZero();
        assertThat(err.toString())
                .contains("the store holds usercount=2000 friendcountperuser=10 resourcecountperuser=4; loading "
                        + "usercount=1000 friendcountperuser=10 resourcecountperuser=4 in its place");
        assertThat(graphOf(result).path("members").asInt()).isEqualTo(1000);
        assertThat(recorded()).contains("M=1000 ");
    }

    @Test
    void aSweepNamingNoGraphKeyRunsOnTheStoresGraph() {
        String[] sweep = {
            "sweep",
            "--store",
            "sqlite",
            "-p",
            db,
            "--workload",
            "high",
            "--threads",
            "1",
            "--duration",
            "1s",
            "--warmup",
            "0s",
            "--quiet",
            "--out",
            dir.resolve("sweep.json").toString()
        };
        assertThat(bg(sweep)).as(err.toString()).isZero();
        assertThat(err.toString()).contains("bg: graph from the store: usercount=2000");
    }

    @Test
    void aDeltaNamingAnotherGraphIsRefusedWithTheLoadThatWouldServeIt() {
        assertThat(bg("delta", "--store", "sqlite", "-p", db, "-p", "usercount=3000", "-p", "friendcountperuser=12"))
                .isEqualTo(2);
        assertThat(err.toString().strip())
                .hasLineCount(1)
                .contains("(usercount 2000 (held) vs 3000 (asked), friendcountperuser 10 (held) vs 12 (asked));")
                .endsWith("(bg load --store sqlite --replace -p usercount=3000 -p friendcountperuser=12 "
                        + "-p resourcecountperuser=4)");
    }

    @Test
    void verifyNamesTheStoresGraphAndBothWhenTheyDiffer() {
        assertThat(bg("verify", "--store", "sqlite", "-p", db))
                .as(out + "\n" + err)
                .isZero();
        assertThat(out.toString())
                .contains("Graph: usercount=2000 friendcountperuser=10 resourcecountperuser=4 (from the store)");
        out.getBuffer().setLength(0);
        assertThat(bg("verify", "--store", "sqlite", "-p", db, "-p", "usercount=3000"))
                .isEqualTo(Bg.FAILED);
        assertThat(out.toString())
                .contains("Graph held by the store:   *usercount=2000* friendcountperuser=10 resourcecountperuser=4\n")
                .contains("Graph the -p keys ask for: *usercount=3000* friendcountperuser=10 resourcecountperuser=4\n")
                .contains("usercount 2000 (held) vs 3000 (asked)");
    }
}
