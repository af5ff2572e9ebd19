package org.bgbench.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.bgbench.model.GraphKeys;
import org.bgbench.store.DataStore;
import org.bgbench.store.StoreSettings;
import org.bgbench.store.sqlite.SqliteStoreProvider;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The graph from the store with {@code --workers}: two {@code bg worker} processes, each with a SQLite store of its
 * own under its directory (which the coordinator cannot reach), loaded with {@code -p usercount=260}. A command that
 * names no graph key runs on that graph and says so; one that names another value is refused naming the key; and
 * {@code --load} without graph keys keeps the graph the store holds.
 */
@Tag("server") // spawns processes
class ClusterStoreGraphTest extends BgCommandFixture {
    private static final String SECRET = "a-secret-for-the-store-graph-test";
    private WorkerProcesses workers;
    private String addresses;

    private String startWorkerProcess(int n) throws Exception {
        if (workers == null) {
            workers = new WorkerProcesses(dir, SECRET);
        }
        return workers.start(n);
    }

    /** The graph worker {@code n}'s store records, as its keys. */
    private String heldGraph(int n) {
        Path file = dir.resolve("worker-" + n).resolve("graph.sqlite");
        try (DataStore s = new SqliteStoreProvider().open(StoreSettings.of(Map.of("sqlite.file", file.toString())))) {
            return s.loadedGraph()
                    .flatMap(GraphKeys::fromFingerprint)
                    .map(GraphKeys::text)
                    .orElse("(none)");
        }
    }

    @AfterEach
    void stopWorkers() throws Exception {
        if (workers != null) {
            workers.close();
        }
    }

    /** {@code bg <command> --store sqlite --workers … [more]}, with no graph key unless {@code more} names one. */
    private String[] cluster(String command, String... more) {
        List<String> all = new ArrayList<>(List.of(
                command,
                "--store",
                "sqlite",
                "-p",
                "sqlite.file=graph.sqlite",
                "--workers",
                addresses,
                "--secret",
                SECRET));
        all.addAll(List.of(more));
        return all.toArray(String[]::new);
    }

    /** What {@code args} wrote to stderr; asserts the exit code. */
    private String expect(int code, String... args) {
        int before = err.getBuffer().length();
        int beforeOut = out.getBuffer().length();
        int exit = bg(args);
        String said = err.toString().substring(before) + out.toString().substring(beforeOut);
        assertThat(exit).as(said).isEqualTo(code);
        return said;
    }

    private String[] run(String... more) {
        List<String> all = new ArrayList<>(List.of(
                "--threads",
                "2",
                "--duration",
                "1s",
                "--warmup",
                "0s",
                // A loaded test machine must not make an action count as stuck (longer than max(β, 1 s)).
                "--beta",
                "5s",
                "--quiet",
                "--out",
                dir.resolve("run-" + out.getBuffer().length() + ".json").toString()));
        all.addAll(List.of(more));
        return cluster("run", all.toArray(String[]::new));
    }

    @Test
    void aCommandWithoutGraphKeysRunsOnTheGraphTheWorkersStoreHolds() throws Exception {
        addresses = startWorkerProcess(1) + "," + startWorkerProcess(2);
        expect(
                0,
                cluster(
                        "load",
                        "-p",
                        "usercount=260",
                        "-p",
                        "friendcountperuser=4",
                        "-p",
                        "resourcecountperuser=2",
                        "-p",
                        "fragments=2"));

        // No graph key: the store's graph (M=260), said on stderr as a local run says it.
        String said = expect(0, run());
        assertThat(said)
                .contains("bg: graph from the store: usercount=260 friendcountperuser=4 resourcecountperuser=2")
                .contains("bg: worker 0 owns 130 members")
                .contains("bg: worker 1 owns 130 members");

        // A key with another value than the store's is refused, naming it, before anything runs.
        said = expect(Bg.BAD_INPUT, run("-p", "usercount=300"));
        assertThat(said)
                .contains("bg: error: usercount: the store holds another graph than the -p keys ask for "
                        + "(usercount 260 (held) vs 300 (asked))")
                .doesNotContain("owns");
        said = expect(
                Bg.BAD_INPUT,
                cluster("rate", "--sla", "95%:100ms:0.01%:1s", "--delta", "1s", "-p", "friendcountperuser=6"));
        assertThat(said).contains("bg: error: friendcountperuser: the store holds another graph");

        // --load without graph keys keeps the graph the store holds: it is not replaced by the default graph.
        said = expect(0, run("--load"));
        assertThat(said).contains("bg: graph from the store: usercount=260").contains("bg: worker 0 owns 130 members");
        for (int n = 1; n <= 2; n++) {
            assertThat(heldGraph(n)).as("worker %d's store", n).contains("usercount=260");
        }

        // verify takes the store's graph too, and finds the state the runs left.
        said = expect(0, cluster("verify"));
        assertThat(said)
                .contains("Graph: usercount=260 friendcountperuser=4 resourcecountperuser=2")
                .contains("(from the store)")
                .contains("The store holds exactly the state BG expects.");
        said = expect(Bg.FAILED, cluster("verify", "-p", "usercount=300"));
        assertThat(said).contains("*usercount=260*").contains("*usercount=300*");
    }

    /** Workers whose stores hold different graphs: a command naming no graph key is refused, naming each. */
    @Test
    void workersWhoseStoresHoldDifferentGraphsAreRefusedNamingEach() throws Exception {
        String a = startWorkerProcess(1);
        String b = startWorkerProcess(2);
        addresses = a;
        expect(0, cluster("load", "-p", "usercount=200", "-p", "friendcountperuser=4", "-p", "fragments=2"));
        addresses = b;
        expect(0, cluster("load", "-p", "usercount=240", "-p", "friendcountperuser=4", "-p", "fragments=2"));
        addresses = a + "," + b;
        String said = expect(Bg.FAILED, run());
        assertThat(said)
                .contains("the workers' stores hold different graphs (")
                .contains("worker 0 " + a + ": usercount=200 friendcountperuser=4")
                .contains("worker 1 " + b + ": usercount=240 friendcountperuser=4")
                .doesNotContain("owns")
                .doesNotContain("\tat ");
    }
}
