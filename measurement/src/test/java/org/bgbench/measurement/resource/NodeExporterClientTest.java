package org.bgbench.measurement.resource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.assertj.core.api.Assertions;
import org.bgbench.measurement.Measurements;
import org.bgbench.measurement.NodeResult;
import org.bgbench.measurement.RunResult;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The node-exporter reader against a real prometheus-node-exporter process on this machine. */
@Tag("server")
class NodeExporterClientTest {
    @TempDir
    Path dir;

    @Test
    void addresses() {
        assertThat(NodeExporterClient.address("db1")).isEqualTo("db1:9100");
        assertThat(NodeExporterClient.address(" db1.example.org:9200 ")).isEqualTo("db1.example.org:9200");
        assertThat(NodeExporterClient.address("10.0.0.7")).isEqualTo("10.0.0.7:9100");
        assertThat(NodeExporterClient.address("[::1]")).isEqualTo("[::1]:9100");
        assertThat(NodeExporterClient.address("[fe80::1]:9101")).isEqualTo("[fe80::1]:9101");
        for (String bad : List.of(
                "",
                ":9100",
                "db1:",
                "db1:0",
                "db1:65536",
                "db1:x",
                "::1",
                "[::1",
                "[]:9100",
                "db 1",
                "http://db1:9100")) {
            assertThatThrownBy(() -> NodeExporterClient.address(bad))
                    .as(bad)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("expected HOST or HOST:PORT");
        }
    }

    @Test
    void readsWhatProcSaysOfThisMachine() throws Exception {
        ProcNode proc = new ProcNode(Path.of("/proc"));
        try (NodeExporterProcess exporter = NodeExporterProcess.start(dir.resolve("exporter.log"));
                NodeExporterClient client = new NodeExporterClient(exporter.address())) {
            NodeReading a = client.fetchNow();
            NodeReading local = proc.read();
            Thread.sleep(1000);
            NodeReading b = client.fetchNow();

            assertThat(a.name()).isEqualTo(exporter.address());
            assertThat(a.role()).isEqualTo(NodeReading.STORE);
            assertThat(a.cpus()).as("CPUs").isEqualTo(local.cpus()).isPositive();
            assertThat(a.memTotalBytes())
                    .as("MemTotal")
                    .isEqualTo(local.memTotalBytes())
                    .isPositive();
            assertThat(a.memUsedBytes()).isBetween(0.0, a.memTotalBytes());
            // Counters read a few ms apart: equal up to what the machine did in between.
            assertThat(a.cpuTotalSeconds()).isCloseTo(local.cpuTotalSeconds(), Assertions.within(1.0 * a.cpus()));
            assertThat(a.netRxBytes())
                    .isCloseTo(local.netRxBytes(), Assertions.within(1e7 + 0.001 * local.netRxBytes()));
            assertThat(a.diskReadBytes())
                    .isCloseTo(local.diskReadBytes(), Assertions.within(1e8 + 0.001 * local.diskReadBytes()));
            assertThat(a.diskIoSeconds().keySet())
                    .isEqualTo(local.diskIoSeconds().keySet());

            NodeUse u = NodeUse.between(a, b, b.name(), b.role());
            assertThat(u.answered()).isTrue();
            assertThat(u.busyCores()).as("busy cores").isBetween(0.0, (double) a.cpus());
            assertThat(u.netRxBytesPerS()).isGreaterThanOrEqualTo(0);
            assertThat(u.diskWriteBytesPerS()).isGreaterThanOrEqualTo(0);
            if (!a.diskIoSeconds().isEmpty()) {
                assertThat(u.diskBusyPct()).isBetween(0.0, 100.0);
            }
        }
    }

    @Test
    void aHostThatDiesMidRunLeavesGapsAndAWarningAndTheRunCompletes() throws Exception {
        NodeExporterProcess exporter = NodeExporterProcess.start(dir.resolve("exporter.log"));
        String address = exporter.address();
        RunResult result;
        try (Measurements m = Measurements.builder()
                .storeHosts(List.of(address))
                .samplePeriod(Duration.ofMillis(500))
                .build()) {
            Thread.sleep(500);
            m.startMeasuring();
            for (int i = 0; i < 3; i++) {
                Thread.sleep(500);
                m.sample();
            }
            exporter.close();
            for (int i = 0; i < 3; i++) {
                Thread.sleep(500);
                long before = System.nanoTime();
                m.sample();
                // A sample that waited for the dead host would take its 500 ms request timeout.
                assertThat(System.nanoTime() - before)
                        .as("a sample never waits for a host")
                        .isLessThan(Duration.ofMillis(400).toNanos());
            }
            m.stopMeasuring();
            result = m.result();
        } finally {
            exporter.close();
        }
        assertThat(result.nodes()).extracting(NodeResult::role).containsExactly("bg", "store");
        NodeResult host = result.nodes().get(1);
        assertThat(host.name()).isEqualTo(address);
        assertThat(host.seconds()).as("seconds with figures").isGreaterThanOrEqualTo(2);
        assertThat(host.missingSeconds()).as("gaps").isGreaterThanOrEqualTo(2);
        assertThat(host.seconds() + host.missingSeconds())
                .isEqualTo(result.series().size());
        assertThat(host.cpus()).isEqualTo(Runtime.getRuntime().availableProcessors());
        assertThat(host.busyCores().max()).isNotNull().isBetween(0.0, (double) host.cpus());
        assertThat(result.bottleneckWarnings())
                .anySatisfy(w ->
                        assertThat(w).startsWith("store host " + address + ": its node exporter did not answer in "));
        NodeResult bg = result.nodes().get(0);
        assertThat(bg.missingSeconds()).isZero();
        assertThat(bg.memTotalBytes().max()).isEqualTo(host.memTotalBytes().max());
    }

    @Test
    void anUnreachableHostFailsWithinTheTimeout() {
        // A port nothing listens on: refused at once; either way the client gives up within its timeout.
        try (NodeExporterClient client = new NodeExporterClient("127.0.0.1:1")) {
            long start = System.nanoTime();
            assertThatThrownBy(client::fetchNow)
                    .isInstanceOf(IOException.class)
                    .hasMessageContaining("http://127.0.0.1:1/metrics");
            assertThat(System.nanoTime() - start).isLessThan(NodeExporterClient.TIMEOUT.toNanos() + 500_000_000L);
        }
    }
}
