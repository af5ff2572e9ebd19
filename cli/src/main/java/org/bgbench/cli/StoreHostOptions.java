package org.bgbench.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import org.bgbench.measurement.resource.NodeExporterClient;
import org.bgbench.model.InvalidParameterException;
import picocli.CommandLine.Option;

/**
 * {@code --store-host}: the store's hosts, whose CPU, memory, network and disk BG reads each second from their
 * Prometheus node exporters (docs/resources.md).
 */
final class StoreHostOptions {
    @Option(
            names = "--store-host",
            paramLabel = "HOST[:PORT]",
            description = "A store host running a Prometheus node exporter (port 9100 unless given); its CPU, memory, "
                    + "network and disk go into the result's nodes section. Repeat for each host.")
    List<String> hosts;

    /**
     * The hosts as {@code HOST:PORT}, each asked once now: one that does not answer gets a warning line and the run
     * goes on (its seconds become gaps, and the result says so), since a monitoring side channel must not stop a
     * benchmark.
     *
     * @throws InvalidParameterException for an empty host or a bad port
     */
    List<String> resolve(PrintWriter err) {
        List<String> out = new ArrayList<>();
        for (String h : hosts == null ? List.<String>of() : hosts) {
            String address;
            try {
                address = NodeExporterClient.address(h);
            } catch (IllegalArgumentException e) {
                throw new InvalidParameterException("--store-host", e.getMessage());
            }
            if (!out.contains(address)) {
                out.add(address);
            }
        }
        for (String address : out) {
            try (NodeExporterClient client = new NodeExporterClient(address)) {
                if (client.fetchNow().cpus() == 0) {
                    err.println("bg: warning: --store-host " + address + " answered without node_cpu_seconds_total;"
                            + " is it a node exporter?");
                }
            } catch (IOException e) {
                err.println("bg: warning: --store-host " + address + ": " + e.getMessage()
                        + "; the run goes on, and the result shows the seconds this host did not answer");
            }
        }
        return out;
    }
}
