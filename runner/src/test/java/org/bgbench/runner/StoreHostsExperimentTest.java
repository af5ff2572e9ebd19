package org.bgbench.runner;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.bgbench.emulator.EmulatorConfig;
import org.bgbench.model.GraphSpec;
import org.bgbench.model.generator.SocialGraph;
import org.bgbench.model.state.GraphState;
import org.bgbench.store.DataStore;
import org.bgbench.store.StoreSettings;
import org.bgbench.store.conformance.StoreConformanceSuite;
import org.bgbench.store.memory.MemoryStoreProvider;
import org.bgbench.workload.WorkloadParameters;
import org.bgbench.workload.WorkloadSpec;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A memory-store experiment with a store host named (a real prometheus-node-exporter on this machine) writes both
 * nodes, BG's machine and the host, into the result JSON's {@code nodes} section, and hands them to every second's
 * listeners.
 */
class StoreHostsExperimentTest {
    private static final Path EXPORTER = Path.of("/usr/bin/prometheus-node-exporter");
    private static final SocialGraph GRAPH = new SocialGraph(new GraphSpec(400, 0, 10, 5, 2, 0.8, false, 0, 0, 4, 6,
            20, 4, 3));

    @TempDir
    Path dir;

    @Test
    void theResultHoldsBgsMachineAndTheStoreHost() throws Exception {
        if (!Files.isExecutable(EXPORTER)) {
            String why = EXPORTER + " is missing: apt install prometheus-node-exporter (scripts/test-deps.sh)";
            if (System.getenv("CI") != null) {
                Assertions.fail(why);
            }
            Assumptions.abort(why);
        }
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        String address = "127.0.0.1:" + port;
        Process exporter = new ProcessBuilder(EXPORTER.toString(), "--web.listen-address=" + address,
                "--collector.disable-defaults", "--collector.cpu", "--collector.meminfo", "--collector.netdev",
                "--collector.diskstats").redirectErrorStream(true).redirectOutput(dir.resolve("exporter.log").toFile())
                .start();
        Path out = dir.resolve("result.json");
        List<org.bgbench.measurement.SecondSample> seconds = new java.util.concurrent.CopyOnWriteArrayList<>();
        try (DataStore store = new MemoryStoreProvider().open(StoreSettings.of(Map.of("memory.name", "hosts")))) {
            awaitAnswer(address, exporter);
            StoreConformanceSuite.load(store, GRAPH, 2);
            WorkloadSpec ws = WorkloadParameters.toSpec(Map.of("mix", "high"));
            ExperimentSpec spec = ExperimentSpec.timed(ws, 2, Duration.ofSeconds(3), Duration.ofSeconds(1),
                    EmulatorConfig.ThreadKind.PLATFORM, Duration.ofMillis(100), null).withStoreHosts(List.of(address));
            Experiment.run(new Experiment.Setup(store, "memory", Map.of(), new GraphState(GRAPH), ws, spec, out,
                    null, null, seconds::add, null));
        } finally {
            exporter.destroy();
            exporter.waitFor(5, TimeUnit.SECONDS);
        }
        JsonNode nodes = new ObjectMapper().readTree(out.toFile()).get("nodes");
        assertThat(nodes).hasSize(2);
        assertThat(nodes.get(0).get("role").asText()).isEqualTo("bg");
        assertThat(nodes.get(1).get("role").asText()).isEqualTo("store");
        assertThat(nodes.get(1).get("name").asText()).isEqualTo(address);
        for (JsonNode n : nodes) {
            int cpus = n.get("cpus").asInt();
            assertThat(cpus).isEqualTo(Runtime.getRuntime().availableProcessors());
            assertThat(n.get("seconds").asInt()).isGreaterThanOrEqualTo(2);
            assertThat(n.get("missing_seconds").asInt()).isZero();
            assertThat(n.get("busy_cores").get("mean").asDouble()).isBetween(0.0, (double) cpus);
            assertThat(n.get("busy_cores").get("max").asDouble()).isBetween(0.0, (double) cpus);
            assertThat(n.get("mem_total_bytes").get("max").asDouble()).isPositive();
            assertThat(n.get("mem_used_bytes").get("mean").asDouble()).isPositive();
            assertThat(n.has("disk_busy_pct")).isTrue();
            assertThat(n.has("net_rx_bytes_per_s")).isTrue();
        }
        // The same machine seen twice: the same memory.
        assertThat(nodes.get(0).get("mem_total_bytes").get("max").asDouble())
                .isEqualTo(nodes.get(1).get("mem_total_bytes").get("max").asDouble());
        // Every measured second's listeners see both nodes.
        assertThat(seconds).filteredOn(s -> !s.warmup()).isNotEmpty()
                .allSatisfy(s -> assertThat(s.resources().nodes()).hasSize(2));
    }

    private static void awaitAnswer(String address, Process exporter) throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
        while (true) {
            try {
                HttpResponse<Void> r = http.send(HttpRequest.newBuilder(URI.create("http://" + address + "/metrics"))
                        .timeout(Duration.ofSeconds(1)).build(), HttpResponse.BodyHandlers.discarding());
                if (r.statusCode() == 200) {
                    return;
                }
            } catch (java.io.IOException e) {
                if (!exporter.isAlive() || System.nanoTime() > deadline) {
                    throw new IllegalStateException("the node exporter did not answer on " + address, e);
                }
            }
            Thread.sleep(100);
        }
    }
}
