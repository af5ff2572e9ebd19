package org.bgbench.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code bg scale} end to end on a real PostgreSQL primary and streaming replica (scripts/postgres-replica.sh): the
 * primary alone (1 node), the primary with its replica taking the reads (2 nodes, settings from the script's
 * {@code urls} command), and a configuration whose start command fails. Every node is on this machine, so the report
 * must say its figures demonstrate the method only.
 */
@Tag("server")
class ScaleCommandTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    @TempDir
    static Path state;

    /** BG's saved states go to a temporary directory, in this JVM and (passed on) in the bg children. */
    @BeforeAll
    static void stateDir() {
        System.setProperty("bg.state.dir", state.toString());
    }

    @AfterAll
    static void noStateDir() {
        System.clearProperty("bg.state.dir");
    }

    private int bg(String... args) {
        return Bg.run(new PrintWriter(out, true), new PrintWriter(err, true), args);
    }

    private static Path script() {
        for (Path d = Path.of("").toAbsolutePath(); d != null; d = d.getParent()) {
            if (Files.isRegularFile(d.resolve("scripts/postgres-replica.sh"))) {
                return d.resolve("scripts/postgres-replica.sh");
            }
        }
        throw new IllegalStateException("scripts/postgres-replica.sh not found");
    }

    @Test
    void twoPostgresConfigurationsAndOneThatCannotStart(@TempDir Path dir) throws Exception {
        Path results = dir.resolve("scale");
        Path stopped = dir.resolve("stopped-after-failed-start");
        // No apply delay: the replica is as fresh as streaming makes it, and the second configuration asks the
        // script for both URLs as a plan across hosts would; τ = 100 % so a stale read cannot fail the SLA.
        // The second configuration's start and stop commands run a real node exporter in the background (the
        // store's host is this machine), so its bottleneck comes from a store host's figures.
        boolean exporter = Files.isExecutable(Path.of("/usr/bin/prometheus-node-exporter"));
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        String exporterAddress = "127.0.0.1:" + port;
        Path pid = dir.resolve("exporter.pid");
        String startExporter =
                ("/usr/bin/prometheus-node-exporter --web.listen-address=%s --collector.disable-defaults "
                                + "--collector.cpu --collector.meminfo --collector.netdev --collector.diskstats > '%s' 2>&1 < /dev/null & "
                                + "echo $! > '%s'; timeout 15 bash -c 'until (exec 3<>/dev/tcp/127.0.0.1/%d) 2>/dev/null; do sleep 0.1; "
                                + "done'")
                        .formatted(exporterAddress, dir.resolve("exporter.log"), pid, port);
        String replicaExtras = !exporter
                ? ""
                : ", \"storeHosts\": [\"%s\"], \"start\": \"%s\", \"stop\": \"kill $(cat '%s')\""
                        .formatted(
                                exporterAddress,
                                startExporter.replace("\\", "\\\\").replace("\"", "\\\""),
                                pid);
        try (ReplicaPair pair = ReplicaPair.postgres("0ms")) {
            String plan = """
                    {"store": "postgres", "configurations": [
                      {"name": "primary", "nodes": 1, "settings": {"postgres.url": "%s"}},
                      {"name": "replica", "nodes": 2, "settingsCommand": "bash '%s' urls '%s'"%s},
                      {"name": "broken", "nodes": 3, "start": "echo starting; echo 'port 5999 is in use' >&2; exit 3",
                       "stop": "touch '%s'"}
                    ]}""".formatted(pair.url(), script(), pair.dir(), replicaExtras, stopped);
            Path planFile = Files.writeString(dir.resolve("plan.json"), plan);
            int code = bg(
                    "scale",
                    "--plan",
                    planFile.toString(),
                    "--mode",
                    "speedup",
                    "--workload",
                    "verylow",
                    "--sla",
                    "95%:100ms:100%:1s",
                    "--delta",
                    "1s",
                    "--warmup",
                    "0s",
                    "--max-threads",
                    "2",
                    "--search",
                    "approximate",
                    "--no-confirm",
                    "-p",
                    "usercount=100",
                    "-p",
                    "friendcountperuser=10",
                    "-p",
                    "thinktime=0", // a run key: bg rate takes it, bg load would refuse it
                    "-p",
                    "resourcecountperuser=2",
                    "--out",
                    results.toString());
            String log = out + "\n" + err;
            // One configuration failed: the command says so by its exit code, and still reports the others.
            assertThat(code).as(log).isEqualTo(Bg.FAILED);
            JsonNode scale = JSON.readTree(results.resolve("scale.json").toFile());
            JsonNode configs = scale.path("configurations");
            assertThat(configs).as(log).hasSize(3);
            JsonNode one = configs.get(0);
            JsonNode two = configs.get(1);
            JsonNode broken = configs.get(2);
            assertThat(one.path("status").asText()).as(log).isEqualTo("rated");
            assertThat(two.path("status").asText()).as(log).isEqualTo("rated");
            // The ratio is computed from the two ratings as bg rate wrote them.
            double soar1 = JSON.readTree(results.resolve(one.path("rating_dir").asText())
                            .resolve("rating.json")
                            .toFile())
                    .path("soar")
                    .path("actions_per_second")
                    .asDouble();
            double soar2 = JSON.readTree(results.resolve(two.path("rating_dir").asText())
                            .resolve("rating.json")
                            .toFile())
                    .path("soar")
                    .path("actions_per_second")
                    .asDouble();
            // Whether a SoAR is a lower bound (T=max-threads=2 still met the SLA) comes from its rating too.
            JsonNode rating2 = JSON.readTree(
                            results.resolve(two.path("rating_dir").asText())
                                    .resolve("rating.json")
                                    .toFile())
                    .path("soar");
            assertThat(two.path("lower_bound").asBoolean())
                    .as(log)
                    .isEqualTo(rating2.path("lower_bound").asBoolean());
            assertThat(soar1).isPositive();
            assertThat(soar2).isPositive();
            assertThat(one.path("rating_dir").asText()).isEqualTo("01-primary");
            assertThat(one.path("soar").asDouble()).isEqualTo(soar1);
            assertThat(two.path("ratio").asDouble()).isCloseTo(soar2 / soar1, within(1e-9));
            assertThat(two.path("ideal").asDouble()).isEqualTo(2.0);
            assertThat(two.path("efficiency").asDouble()).isCloseTo(soar2 / soar1 / 2, within(1e-9));
            // No store hosts, but the server runs on this machine, where BG measured its processes: the machine's CPU
            // is named with the store's and BG's shares (a store host's figures would be this machine's too).
            JsonNode b1 = one.path("bottleneck");
            assertThat(b1.path("known").asBoolean()).as(b1.toString()).isTrue();
            assertThat(b1.path("text").asText())
                    .startsWith("this machine's CPU, shared by every node and BG: ")
                    .contains("the store's ", " BG ");
            assertThat(one.path("resources").get(0).path("role").asText()).isEqualTo("bg");
            if (exporter) {
                // A store host answered: the bottleneck is known, the store host or BG's own host (both this machine).
                JsonNode resources = two.path("resources");
                assertThat(resources).hasSize(2);
                assertThat(resources.get(1).path("name").asText()).isEqualTo(exporterAddress);
                assertThat(resources.get(1).path("role").asText()).isEqualTo("store");
                assertThat(resources.get(1).path("seconds").asInt()).isPositive();
                JsonNode b = two.path("bottleneck");
                assertThat(b.path("known").asBoolean()).as(b.toString()).isTrue();
                assertThat(b.path("node").asText())
                        .isIn(exporterAddress, resources.get(0).path("name").asText(), "this machine");
                assertThat(b.path("resource").asText()).isIn("cpu", "disk");
                assertThat(out.toString()).contains("  store host " + exporterAddress + ": CPU ");
                assertThat(b.path("text").asText())
                        .containsAnyOf("store host " + exporterAddress + ": ", "BG's own host (", "this machine's CPU");
            }
            // The failed start: its own line, stop still run, the others rated.
            assertThat(broken.path("status").asText()).isEqualTo("failed");
            assertThat(broken.path("error").asText()).isEqualTo("start command exited 3: port 5999 is in use");
            assertThat(broken.path("soar").isNull()).isTrue();
            assertThat(stopped).exists();
            // Everything on this machine: the honest warning, in the file and on the console.
            assertThat(one.path("one_host").asBoolean()).isTrue();
            assertThat(scale.path("warnings").toString())
                    .contains("every configuration's nodes and BG ran on this " + "one machine")
                    .contains("demonstrate the method, not the store's scalability");
            assertThat(out.toString()).contains("warning: every configuration's nodes and BG ran on this one machine");
            // The children saved BG's expected state where this JVM was told to keep it.
            try (var saved = Files.list(state)) {
                assertThat(saved.filter(f -> f.getFileName().toString().endsWith(".state"))
                                .count())
                        .isPositive();
            }
            // The children's output is streamed with the configuration's prefix.
            assertThat(log).contains("[02-replica] ").contains("[03-broken] starting");
            assertThat(Files.readString(results.resolve("scale.svg")))
                    .startsWith("<svg")
                    .contains("ideal")
                    .contains("replica");
            assertThat(Files.readString(results.resolve("scale.svg")).split("<circle", -1))
                    .hasSize(3);
        }
    }

    @Test
    void scaleupGrowsTheGraphWithTheNodes(@TempDir Path dir) throws Exception {
        // SQLite in BG's process: two "configurations" of one file each, only to check what scaleup loads and rates.
        Path planFile = Files.writeString(
                dir.resolve("plan.json"), """
                {"store": "sqlite", "configurations": [
                  {"name": "small", "nodes": 1, "settings": {"sqlite.file": "%s"}},
                  {"name": "double", "nodes": 2, "settings": {"sqlite.file": "%s"}}]}""".formatted(dir.resolve("a.sqlite"), dir.resolve("b.sqlite")));
        Path results = dir.resolve("scaleup");
        int code = bg(
                "scale",
                "--plan",
                planFile.toString(),
                "--mode",
                "scaleup",
                "--workload",
                "vp",
                "--sla",
                "95%:100ms:0.01%:1s",
                "--delta",
                "1s",
                "--warmup",
                "0s",
                "--max-threads",
                "1",
                "--no-confirm",
                "-p",
                "usercount=60",
                "-p",
                "friendcountperuser=4",
                "-p",
                "resourcecountperuser=1",
                "--out",
                results.toString());
        String log = out + "\n" + err;
        assertThat(code).as(log).isZero();
        JsonNode configs = JSON.readTree(results.resolve("scale.json").toFile()).path("configurations");
        assertThat(configs.get(0).path("members").asLong()).isEqualTo(60);
        assertThat(configs.get(1).path("members").asLong()).isEqualTo(120);
        // The rating of the 2-node configuration really ran on the doubled graph, φ and ρ unchanged.
        JsonNode graph =
                JSON.readTree(results.resolve("02-double/01-T1.json").toFile()).path("graph");
        assertThat(graph.path("members").asInt()).as(log).isEqualTo(120);
        assertThat(graph.path("friends_per_member").asInt()).isEqualTo(4);
        double soar1 = configs.get(0).path("soar").asDouble();
        double soar2 = configs.get(1).path("soar").asDouble();
        assertThat(configs.get(1).path("ideal").asDouble()).isEqualTo(1.0);
        assertThat(configs.get(1).path("ratio").asDouble()).isCloseTo(soar2 / soar1, within(1e-9));
        assertThat(configs.get(1).path("efficiency").asDouble()).isCloseTo(soar2 / soar1, within(1e-9));
        // A store inside BG's process is on this machine too.
        assertThat(configs.get(0).path("one_host").asBoolean()).isTrue();
        assertThat(out.toString()).contains("scaleup").contains("warning: every configuration's nodes and BG ran");
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "{\"store\":\"postgres\",\"configurations\":[{\"name\":\"a\",\"nodes\":1},{\"name\":\"b\",\"nodes\":0}]}|speedup"
                        + "|bg: error: --plan: configurations[1].nodes: expected a whole number ≥ 1, got 0",
                "{\"store\":\"nosuch\",\"configurations\":[{\"name\":\"a\",\"nodes\":1}]}|speedup|bg: error: --plan: store: ",
                "{\"store\":\"postgres\",\"configurations\":[{\"name\":\"a\",\"nodes\":1}]}|sideways"
                        + "|bg: error: --mode: expected speedup or scaleup, got 'sideways'",
                "{\"store\":\"postgres\",\"configurations\":[{\"name\":\"a\",\"nodes\":2},{\"name\":\"b\",\"nodes\":3}]}|scaleup"
                        + "|bg: error: -p usercount: scaleup needs usercount × N / 2",
                "{\"store\":\"postgres\",\"configurations\":[{\"name\":\"a\",\"nodes\":1}]}|speedup|bg: error: --sla",
                "not json|speedup|bg: error: --plan: not JSON: ",
                "{\"store\":\"postgres\",\"configurations\":[{\"name\":\"a\",\"nodes\":1}]}|speedup"
                        + "|bg: error: --search: expected optimal or approximate, got 'best'",
                "{\"store\":\"postgres\",\"configurations\":[{\"name\":\"a\",\"nodes\":1}]}|speedup"
                        + "|bg: error: --workload: 'nosuchmix' is not a named mix",
                "{\"store\":\"postgres\",\"configurations\":[{\"name\":\"a\",\"nodes\":1,\"settings\":{\"postgres.nosuch\":1}}]}|speedup"
                        + "|bg: error: --plan: configurations[0].settings.postgres.nosuch: not a setting of store postgres",
                "{\"store\":\"postgres\",\"configurations\":[{\"name\":\"a\",\"nodes\":1}]}|speedup|bg: error: nosuchkey: unknown parameter",
            })
    void badInputIsOneLineAndExitTwo(String plan, String mode, String message, @TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("plan.json"), plan);
        List<String> args = new ArrayList<>(List.of(
                "scale",
                "--plan",
                file.toString(),
                "--mode",
                mode,
                "-p",
                "usercount=101",
                "--out",
                dir.resolve("out").toString()));
        if (message.contains("--search")) {
            args.addAll(List.of("--search", "best"));
        }
        if (message.contains("--workload")) {
            args.addAll(List.of("--workload", "nosuchmix"));
        }
        if (message.contains("nosuchkey")) {
            args.addAll(List.of("-p", "nosuchkey=1"));
        }
        if (message.endsWith("--sla")) {
            args.addAll(List.of("--sla", "95%:100ms"));
        }
        assertThat(bg(args.toArray(String[]::new))).as(err.toString()).isEqualTo(Bg.BAD_INPUT);
        assertThat(err.toString().strip().lines().toList()).as(err.toString()).hasSize(1);
        assertThat(err.toString()).startsWith(message);
        assertThat(dir.resolve("out")).doesNotExist();
    }

    @Test
    void aMissingPlanFile(@TempDir Path dir) {
        assertThat(bg("scale", "--plan", dir.resolve("none.json").toString(), "--mode", "speedup"))
                .isEqualTo(Bg.BAD_INPUT);
        assertThat(err.toString().strip()).isEqualTo("bg: error: --plan: no such file: " + dir.resolve("none.json"));
    }

    @Test
    void settingsCommandLines() {
        assertThat(ScaleCommand.keyValues("starting the servers\npostgres.url=jdbc:postgresql://h:1/bg\n"
                        + "postgres.read-urls = jdbc:postgresql://h:2/bg\n"))
                .containsExactly(
                        Map.entry("postgres.url", "jdbc:postgresql://h:1/bg"),
                        Map.entry("postgres.read-urls", "jdbc:postgresql://h:2/bg"));
    }

    /**
     * A bg scale killed with SIGKILL while a configuration's start command runs: the configuration's stop command
     * still runs (from BG's watchdog), so the servers the plan started do not outlive BG.
     */
    @Test
    void aScaleKilledWithSigkillStillRunsTheStopCommand(@TempDir Path dir) throws Exception {
        Path started = dir.resolve("started");
        Path stopped = dir.resolve("stopped");
        Path sleeper = dir.resolve("sleeper.pid");
        String plan = """
                {"store": "sqlite", "configurations": [
                  {"name": "one", "nodes": 1, "start": "echo $$ > '%s'; touch '%s'; exec sleep 120",
                   "stop": "touch '%s'"}
                ]}""".formatted(sleeper, started, stopped);
        Path planFile = Files.writeString(dir.resolve("plan.json"), plan);
        List<String> cmd = new ArrayList<>(BgProcess.bgCommand());
        cmd.addAll(List.of(
                "scale",
                "--plan",
                planFile.toString(),
                "--mode",
                "speedup",
                "--workload",
                "verylow",
                "--sla",
                "95%:100ms:100%:1s",
                "--delta",
                "1s",
                "--warmup",
                "0s",
                "--max-threads",
                "2",
                "--no-confirm",
                "-p",
                "usercount=100",
                "-p",
                "friendcountperuser=10",
                "-p",
                "resourcecountperuser=2",
                "--out",
                dir.resolve("scale").toString()));
        Process p = new ProcessBuilder(cmd)
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("scale.log").toFile())
                .start();
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (!Files.exists(started)) {
                assertThat(p.isAlive())
                        .as(Files.readString(dir.resolve("scale.log")))
                        .isTrue();
                assertThat(System.nanoTime()).as("the start command runs").isLessThan(deadline);
                Thread.sleep(50);
            }
            assertThat(stopped).doesNotExist();
            p.destroyForcibly(); // SIGKILL
            assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
            deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (!Files.exists(stopped) && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            assertThat(stopped)
                    .as("the stop command ran after bg scale was killed")
                    .exists();
        } finally {
            p.destroyForcibly();
            // The start command's sleep stands for a server; this test stops it itself.
            if (Files.exists(sleeper)) {
                ProcessHandle.of(Long.parseLong(Files.readString(sleeper).trim()))
                        .ifPresent(ProcessHandle::destroy);
            }
        }
    }
}
