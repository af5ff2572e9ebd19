package org.bgbench.cli;

import java.io.PrintWriter;
import java.net.InetSocketAddress;
import org.bgbench.metrics.MetricsEndpoint;
import picocli.CommandLine.Option;

/**
 * {@code --metrics HOST:PORT} of bg run, bg rate and bg worker: a Prometheus/OpenMetrics endpoint following every
 * experiment the command runs (docs/metrics.md).
 */
final class MetricsOptions {
    @Option(
            names = "--metrics",
            paramLabel = "HOST:PORT",
            description =
                    "Serve Prometheus/OpenMetrics metrics of every experiment at http://HOST:PORT/metrics (port 0 "
                            + "picks a free one; read-only, any address may be bound). docs/metrics.md.")
    String metrics;

    /** Whether --metrics was given. */
    boolean active() {
        return metrics != null;
    }

    /** Checks the value (bad input names --metrics), so it is refused before anything starts. */
    InetSocketAddress address() {
        return metrics == null ? null : MetricsEndpoint.parse("--metrics", metrics);
    }

    /**
     * Starts the endpoint when --metrics was given, every metric labelled {@code worker=worker}, and prints where it
     * is; null without --metrics. Close it when the command ends.
     */
    MetricsEndpoint start(String worker, PrintWriter err) {
        InetSocketAddress address = address();
        if (address == null) {
            return null;
        }
        MetricsEndpoint endpoint = MetricsEndpoint.start("--metrics", address, worker);
        err.println("bg: metrics at " + endpoint.url());
        err.flush();
        return endpoint;
    }
}
