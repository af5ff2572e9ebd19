package org.bgbench.runner.delta;

import java.util.ArrayList;
import java.util.List;
import org.bgbench.measurement.NodeResult;
import org.bgbench.rating.SaturatingThreads;

/**
 * The utilisation of each resource of the store's hosts during one run, from the result's {@code nodes} section
 * (docs/resources.md): CPU as busy cores of the node's CPUs, disk as the busiest whole disk's busy time, network as the
 * busier direction against the link's capacity when it is known (a node exporter does not say it). Means over the
 * measured seconds. Without a store host that answered, this machine's figures stand in: an embedded store shares it.
 */
final class HostUtilisation {
    private HostUtilisation() {}

    /**
     * @param nodes         a run's nodes: BG's machine first, then the store hosts
     * @param linkBytesPerS each host's network capacity, bytes per second, or ≤ 0 when unknown (network not judged)
     */
    static List<SaturatingThreads.Use> of(List<NodeResult> nodes, double linkBytesPerS) {
        List<NodeResult> stores = nodes.stream()
                .filter(n -> "store".equals(n.role()) && n.seconds() > 0)
                .toList();
        List<NodeResult> read = stores.isEmpty()
                ? nodes.stream().filter(n -> "bg".equals(n.role())).limit(1).toList()
                : stores;
        List<SaturatingThreads.Use> out = new ArrayList<>();
        for (NodeResult n : read) {
            Double busy = mean(n.busyCores());
            if (busy != null && n.cpus() > 0) {
                out.add(new SaturatingThreads.Use(n.name(), "cpu", busy / n.cpus()));
            }
            Double disk = mean(n.diskBusyPct());
            if (disk != null) {
                out.add(new SaturatingThreads.Use(n.name(), "disk", disk / 100));
            }
            Double rx = mean(n.netRxBytesPerS());
            Double tx = mean(n.netTxBytesPerS());
            if (linkBytesPerS > 0 && (rx != null || tx != null)) {
                double busier = Math.max(rx == null ? 0 : rx, tx == null ? 0 : tx);
                out.add(new SaturatingThreads.Use(n.name(), "network", busier / linkBytesPerS));
            }
        }
        return out;
    }

    /** Whether the figures are this machine's rather than a store host's. */
    static boolean thisMachineOnly(List<NodeResult> nodes) {
        return nodes.stream().noneMatch(n -> "store".equals(n.role()) && n.seconds() > 0);
    }

    private static Double mean(NodeResult.MeanMax m) {
        return m == null ? null : m.mean();
    }
}
