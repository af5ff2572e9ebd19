package org.bgbench.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.bgbench.runner.Interrupts;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * bg delta --method experiments end to end, in process, against SQLite on a tiny graph: the T search reads this
 * machine through a real node exporter given with --store-host, then the doubling experiments from a reset store.
 */
@Tag("server")
class DeltaExperimentsCommandTest {
    private static final Path EXPORTER = Path.of("/usr/bin/prometheus-node-exporter");
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    @BeforeEach
    void stateDir() {
        System.setProperty("bg.state.dir", dir.resolve("state").toString());
        Interrupts.reset();
    }

    @AfterEach
    void forgetInterrupt() {
        Interrupts.reset();
    }

    private int bg(String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of(
                "--store",
                "sqlite",
                "-p",
                "sqlite.file=" + dir.resolve("db.sqlite"),
                "-p",
                "usercount=200",
                "-p",
                "friendcountperuser=6",
                "-p",
                "resourcecountperuser=2",
                "--load",
                "--warmup",
                "0s"));
        return Bg.run(new PrintWriter(out, true), new PrintWriter(err, true), all.toArray(String[]::new));
    }

    @Test
    void choosesTFromTheStoreHostsUtilisationThenDoublesDeltaFromAResetStore() throws Exception {
        if (!Files.isExecutable(EXPORTER)) {
            if (System.getenv("CI") != null) {
                throw new AssertionError(EXPORTER + " is missing (scripts/test-deps.sh installs it)");
            }
            Assumptions.abort(EXPORTER + " is missing");
        }
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        String address = "127.0.0.1:" + port;
        Process exporter = new ProcessBuilder(
                        EXPORTER.toString(),
                        "--web.listen-address=" + address,
                        "--collector.disable-defaults",
                        "--collector.cpu",
                        "--collector.meminfo",
                        "--collector.netdev",
                        "--collector.diskstats")
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("exporter.log").toFile())
                .start();
        try {
            awaitPort(exporter, port);
            Path json = dir.resolve("delta.json");
            int rc = bg(
                    "delta",
                    "--workload",
                    "high",
                    "--store-host",
                    address,
                    "--probe",
                    "1s",
                    "--max-threads",
                    "4",
                    "--duration",
                    "4s",
                    "--m",
                    "2",
                    "--pi",
                    "50",
                    "--out",
                    json.toString());
            assertThat(rc).as(err.toString()).isZero();
            JsonNode m = JSON.readTree(json.toFile());
            assertThat(m.path("format").asText()).isEqualTo("bg-delta-experiments/1");
            assertThat(m.path("reset").asText()).isIn("image", "repair");
            JsonNode t = m.path("threads");
            assertThat(t.path("source").asText()).isEqualTo("probed");
            assertThat(t.path("this_machine").asBoolean())
                    .as("the store host answered")
                    .isFalse();
            assertThat(t.path("threads").asInt()).isBetween(1, 4);
            assertThat(t.path("reason").asText()).isNotBlank();
            JsonNode firstProbe = t.path("probes").get(0);
            assertThat(firstProbe.path("threads").asInt()).isEqualTo(1);
            List<String> resources = new ArrayList<>();
            for (JsonNode u : firstProbe.path("utilisation")) {
                assertThat(u.path("node").asText()).isEqualTo(address);
                resources.add(u.path("resource").asText());
            }
            assertThat(resources).contains("cpu");
            // The experiments double from 1 s, at the chosen T, and stop by the rule.
            List<Integer> deltas = new ArrayList<>();
            for (JsonNode e : m.path("experiments")) {
                deltas.add(e.path("delta_s").asInt());
                assertThat(e.path("threads").asInt())
                        .isEqualTo(t.path("threads").asInt());
                assertThat(e.path("throughput").asDouble()).isPositive();
                assertThat(e.has("mix_deviation") && e.has("within_tolerance") && e.has("mix_ok"))
                        .isTrue();
            }
            assertThat(List.of(1, 2, 4)).startsWith(deltas.toArray(Integer[]::new));
            assertThat(deltas).hasSizeGreaterThanOrEqualTo(2);
            int delta = m.path("delta_s").asInt();
            if (m.path("converged").asBoolean()) {
                assertThat(delta).isEqualTo(deltas.get(deltas.size() - 2));
            } else {
                assertThat(delta).isEqualTo(4);
                assertThat(deltas).containsExactly(1, 2, 4);
            }
            assertThat(out.toString()).contains("T = ", "actions/s", "δ = " + delta + " s");
            assertThat(err.toString()).contains("bg: probe T=1: ", "cpu of " + address);
        } finally {
            exporter.destroy();
            if (!exporter.waitFor(5, TimeUnit.SECONDS)) {
                exporter.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        }
    }

    @Test
    void aCtrlCKeepsTheExperimentsMeasured() throws Exception {
        Path json = dir.resolve("stopped.json");
        // π so small that nothing agrees: without the interrupt the experiments would go on to 16 s.
        Thread stopper = new Thread(() -> {
            try {
                while (!Files.exists(json) || !Files.readString(json).contains("\"delta_s\" : 1")) {
                    Thread.sleep(50);
                }
                Interrupts.interrupt("interrupted by the test");
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        stopper.setDaemon(true);
        stopper.start();
        int rc = bg(
                "delta",
                "--workload",
                "high",
                "--threads",
                "1",
                "--duration",
                "16s",
                "--pi",
                "0.0001",
                "--out",
                json.toString());
        stopper.join(TimeUnit.SECONDS.toMillis(30));
        assertThat(rc).as(err.toString()).isEqualTo(Bg.FAILED);
        JsonNode m = JSON.readTree(json.toFile());
        assertThat(m.path("interrupted").asText()).isEqualTo("interrupted by the test");
        assertThat(m.path("experiments").size()).isBetween(1, 4);
        assertThat(m.path("experiments").get(0).path("delta_s").asInt()).isEqualTo(1);
        assertThat(m.path("threads").path("source").asText()).isEqualTo("--threads");
        assertThat(err.toString()).contains("stopped early", "keeps what was measured");
    }

    @Test
    void badOptionsAreRefusedInOneLine() {
        String[][] cases = {
            {"--method", "bogus"},
            {"--inflation", "0.5"},
            {"--deltas", "1,2"},
            {"--reset", "none"},
            {"--network-mbps", "0"},
            {"--method", "windows", "--inflation", "2"},
            {"--duration", "2s"},
            {"--probe", "0s"}
        };
        String[] named = {
            "--method", "--inflation", "--deltas", "--reset", "--network-mbps", "--inflation", "--duration", "--probe"
        };
        for (int i = 0; i < cases.length; i++) {
            err.getBuffer().setLength(0);
            List<String> args = new ArrayList<>(List.of("delta"));
            args.addAll(List.of(cases[i]));
            assertThat(bg(args.toArray(String[]::new)))
                    .as(String.join(" ", cases[i]))
                    .isEqualTo(Bg.BAD_INPUT);
            assertThat(err.toString().lines().toList())
                    .as(String.join(" ", cases[i]))
                    .hasSize(1)
                    .first()
                    .asString()
                    .contains(named[i]);
        }
    }

    private static void awaitPort(Process p, int port) throws InterruptedException {
        for (int i = 0; i < 150; i++) {
            try (Socket s = new Socket("127.0.0.1", port)) {
                return;
            } catch (java.io.IOException e) {
                if (!p.isAlive()) {
                    throw new IllegalStateException("the node exporter exited");
                }
                Thread.sleep(100);
            }
        }
        throw new IllegalStateException("the node exporter did not listen on " + port);
    }
}
