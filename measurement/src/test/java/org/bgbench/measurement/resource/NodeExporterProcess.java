package org.bgbench.measurement.resource;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/**
 * A real Prometheus node exporter (Debian's prometheus-node-exporter) on a free port of 127.0.0.1, with only the
 * collectors BG reads. Without the binary a test fails when the environment variable CI is set (scripts/test-deps.sh
 * installs it there) and is skipped otherwise.
 */
final class NodeExporterProcess implements AutoCloseable {
    static final Path BINARY = Path.of("/usr/bin/prometheus-node-exporter");

    private final Process process;
    private final String address;

    private NodeExporterProcess(Process process, String address) {
        this.process = process;
        this.address = address;
    }

    static NodeExporterProcess start(Path log) throws Exception {
        if (!Files.isExecutable(BINARY)) {
            String why = BINARY + " is missing: apt install prometheus-node-exporter (scripts/test-deps.sh)";
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
        Process p = new ProcessBuilder(List.of(
                        BINARY.toString(),
                        "--web.listen-address=" + address,
                        "--collector.disable-defaults",
                        "--collector.cpu",
                        "--collector.meminfo",
                        "--collector.netdev",
                        "--collector.diskstats"))
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        NodeExporterProcess exporter = new NodeExporterProcess(p, address);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
        try (NodeExporterClient client = new NodeExporterClient(address)) {
            while (true) {
                try {
                    client.fetchNow();
                    return exporter;
                } catch (IOException e) {
                    if (!p.isAlive() || System.nanoTime() > deadline) {
                        exporter.close();
                        throw new IllegalStateException(
                                "the node exporter did not answer on " + address + ": " + Files.readString(log), e);
                    }
                    Thread.sleep(100);
                }
            }
        }
    }

    String address() {
        return address;
    }

    /** Stops it by its own process handle and waits until it has gone. */
    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(5, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
        }
    }
}
