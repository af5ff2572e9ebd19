package org.bgbench.runner;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
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
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.bgbench.emulator.EmulatorConfig;
import org.bgbench.measurement.SecondSample;
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
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A memory-store experiment with a store host named (a real prometheus-node-exporter on this machine) writes both
 * nodes, BG's machine and the host, into the result JSON's {@code nodes} section, and hands them to every second's
 * listeners.
 */
@Tag("server")
class StoreHostsExperimentTest {
    private static final Path EXPORTER = Path.of("/usr/bin/prometheus-node-exporter");
    private static final SocialGraph GRAPH = new SocialGraph(GraphSpec.builder()
            .members(400)
            .friendsPerMember(10)
            .resourcesPerMember(5)
            .commentsPerResource(2)
            .confirmedFraction(0.8)
            .attributeCount(4)
            .attributeLength(6)
            .commentLength(20)
            .fragments(4)
            .seed(3)
            .build());

    @TempDir
    Path dir;

    /** A real node exporter on a free port of 127.0.0.1; its address is {@code "127.0.0.1:" + port}. */
    private Process startExporter(int port) throws Exception {
        if (!Files.isExecutable(EXPORTER)) {
            String why = EXPORTER + " is missing: apt install prometheus-node-exporter (scripts/test-deps.sh)";
            if (System.getenv("CI") != null) {
                Assertions.fail(why);
            }
            Assumptions.abort(why);
        }
        Process exporter = new ProcessBuilder(
                        EXPORTER.toString(),
                        "--web.listen-address=127.0.0.1:" + port,
                        "--collector.disable-defaults",
                        "--collector.cpu",
                        "--collector.meminfo",
                        "--collector.netdev",
                        "--collector.diskstats")
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("exporter-" + port + ".log").toFile())
                .start();
        awaitAnswer("127.0.0.1:" + port, exporter);
        return exporter;
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    private static ExperimentSpec spec(WorkloadSpec ws, int seconds, String host) {
        return ExperimentSpec.timed(
                        ws,
                        2,
                        Duration.ofSeconds(seconds),
                        Duration.ofSeconds(1),
                        EmulatorConfig.ThreadKind.PLATFORM,
                        Duration.ofMillis(100),
                        null)
                .withStoreHosts(List.of(host));
    }

    @Test
    void theResultHoldsBgsMachineAndTheStoreHost() throws Exception {
        int port = freePort();
        String address = "127.0.0.1:" + port;
        Process exporter = startExporter(port);
        Path out = dir.resolve("result.json");
        List<SecondSample> seconds = new CopyOnWriteArrayList<>();
        try (DataStore store = new MemoryStoreProvider().open(StoreSettings.of(Map.of("memory.name", "hosts")))) {
            StoreConformanceSuite.load(store, GRAPH, 2);
            WorkloadSpec ws = WorkloadParameters.toSpec(Map.of("mix", "high"));
            Experiment.run(new Experiment.Setup(
                    new Experiment.Subject(store, "memory", Map.of()),
                    new GraphState(GRAPH),
                    ws,
                    spec(ws, 3, address),
                    new Experiment.Output(out, null),
                    new Experiment.Hooks(null, seconds::add, null)));
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
        assertThat(seconds)
                .filteredOn(s -> !s.warmup())
                .isNotEmpty()
                .allSatisfy(s -> assertThat(s.resources().nodes()).hasSize(2));
    }

    @Test
    void aHostThatDiesMidRunGivesAWarningAndTheRunCompletes() throws Exception {
        int port = freePort();
        String address = "127.0.0.1:" + port;
        Process exporter = startExporter(port);
        Path out = dir.resolve("died.json");
        Experiment.Outcome o;
        try (DataStore store = new MemoryStoreProvider().open(StoreSettings.of(Map.of("memory.name", "died")))) {
            StoreConformanceSuite.load(store, GRAPH, 2);
            WorkloadSpec ws = WorkloadParameters.toSpec(Map.of("mix", "high"));
            int[] measured = {0};
            // The host goes away after the second measured second, on the sampler's own thread.
            Consumer<SecondSample> killer = sample -> {
                if (!sample.warmup() && ++measured[0] == 2) {
                    exporter.destroyForcibly();
                }
            };
            o = Experiment.run(new Experiment.Setup(
                    new Experiment.Subject(store, "memory", Map.of()),
                    new GraphState(GRAPH),
                    ws,
                    spec(ws, 5, address),
                    new Experiment.Output(out, null),
                    new Experiment.Hooks(null, killer, null)));
        } finally {
            exporter.destroyForcibly();
            exporter.waitFor(5, TimeUnit.SECONDS);
        }
        assertThat(o.run().completed()).isTrue();
        assertThat(o.result().total().count()).isPositive();
        assertThat(o.result().bottleneckWarnings())
                .anySatisfy(w ->
                        assertThat(w).startsWith("store host " + address + ": its node exporter did not answer in "));
        JsonNode host = new ObjectMapper().readTree(out.toFile()).get("nodes").get(1);
        assertThat(host.get("name").asText()).isEqualTo(address);
        assertThat(host.get("seconds").asInt()).as("answered before it died").isGreaterThanOrEqualTo(2);
        assertThat(host.get("missing_seconds").asInt()).as("gaps after").isGreaterThanOrEqualTo(2);
        assertThat(host.get("busy_cores").get("max").asDouble())
                .isBetween(0.0, (double) host.get("cpus").asInt());
    }

    private static void awaitAnswer(String address, Process exporter) throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
        while (true) {
            try {
                HttpResponse<Void> r = http.send(
                        HttpRequest.newBuilder(URI.create("http://" + address + "/metrics"))
                                .timeout(Duration.ofSeconds(1))
                                .build(),
                        HttpResponse.BodyHandlers.discarding());
                if (r.statusCode() == 200) {
                    return;
                }
            } catch (IOException e) {
                if (!exporter.isAlive() || System.nanoTime() > deadline) {
                    throw new IllegalStateException("the node exporter did not answer on " + address, e);
                }
            }
            Thread.sleep(100);
        }
    }
}
