package org.bgbench.scaling.speedup;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.bgbench.measurement.CpuResult;
import org.bgbench.measurement.NodeResult;

/**
 * The node and resource nearest its limit at a configuration's SoAR: the scalability paper finds that "a resource
 * such as the network interface card of one to three nodes becoming fully utilized" dictates SoAR (E.2), so each
 * configuration names it. Utilisation is the mean over the SoAR experiment's measured seconds: CPU as busy cores of
 * the node's CPUs, disk as the busiest disk's busy time, network as the busier direction against the link's capacity
 * when the plan gives one (a node exporter does not know it; docs/resources.md).
 *
 * @param known       whether a store host's figures were seen, so the answer says something about the store
 * @param node        the node's name ({@code HOST:PORT} of a store host, BG's host name), or null
 * @param role        {@code store}, {@code bg}, or null
 * @param resource    {@code cpu}, {@code disk} or {@code network}, or null
 * @param utilisation 0..1 (may exceed 1 slightly from sampling), or null
 * @param text        one line for people, e.g. "store host db1:9100: CPU 7.3 of 8 cores busy (91 %)"
 */
public record Bottleneck(boolean known, String node, String role, String resource, Double utilisation, String text) {

    /**
     * The bottleneck among {@code nodes} (a result's {@code nodes} section: BG's machine first, then the store
     * hosts).
     *
     * @param linkBytesPerS each node's network capacity in bytes per second, or ≤ 0 when unknown (network not judged)
     */
    public static Bottleneck of(List<NodeResult> nodes, double linkBytesPerS) {
        if (nodes == null || nodes.isEmpty()) {
            return new Bottleneck(
                    false, null, null, null, null, "unknown: the SoAR experiment's result has no node " + "figures");
        }
        Use best = null;
        Use bgBest = null;
        boolean storeSeen = false;
        for (NodeResult n : nodes) {
            boolean store = "store".equals(n.role());
            if (store && n.seconds() > 0) {
                storeSeen = true;
            }
            for (Use u : uses(n, linkBytesPerS)) {
                if (store || !"bg".equals(n.role())) {
                    if (best == null || u.fraction > best.fraction) {
                        best = u;
                    }
                } else if (bgBest == null || u.fraction > bgBest.fraction) {
                    bgBest = u;
                }
            }
        }
        if (!storeSeen) {
            return new Bottleneck(
                    false,
                    bgBest == null ? null : bgBest.node.name(),
                    bgBest == null ? null : "bg",
                    bgBest == null ? null : bgBest.resource,
                    bgBest == null ? null : bgBest.fraction,
                    "unknown: no store host answered (give the configuration's storeHosts, node exporters on the "
                            + "store's nodes), so BG saw only its own machine"
                            + (bgBest == null ? "" : "; there the nearest its limit was " + bgBest.describe()));
        }
        // BG's own host counts too: when it is nearer its limit than any store node, the rating measured BG.
        if (bgBest != null && (best == null || bgBest.fraction > best.fraction)) {
            return new Bottleneck(
                    true,
                    bgBest.node.name(),
                    "bg",
                    bgBest.resource,
                    bgBest.fraction,
                    "BG's own host (" + bgBest.node.name() + "): " + bgBest.describe()
                            + " — nearer its limit than any store node, so BG, not the store, may have set the SoAR");
        }
        if (best == null) {
            return new Bottleneck(
                    false,
                    null,
                    null,
                    null,
                    null,
                    "unknown: the store hosts answered without CPU or " + "disk figures");
        }
        return new Bottleneck(
                true,
                best.node.name(),
                best.node.role(),
                best.resource,
                best.fraction,
                "store host " + best.node.name() + ": " + best.describe());
    }

    /**
     * The bottleneck when BG and every node share one machine: its figures as a store host and as BG's host are the
     * same machine's, so which of them is "nearer its limit" says nothing. When the SoAR experiment measured the
     * store's processes ({@code cpu}: BG's and the store's cores), the machine's CPU is named with that split.
     *
     * @param cpu the SoAR experiment's CPU figures, or null
     */
    public static Bottleneck onOneMachine(List<NodeResult> nodes, double linkBytesPerS, CpuResult cpu) {
        Bottleneck b = of(nodes, linkBytesPerS);
        if (cpu == null
                || cpu.storeCores() == null
                || cpu.bgCores() == null
                || cpu.storeProcesses() == 0
                || cpu.machineCores() == null
                || cpu.machineCpus() <= 0
                || (b.resource() != null && !b.resource().equals("cpu"))) {
            return b;
        }
        double busy = cpu.machineCores() / cpu.machineCpus();
        String role = cpu.storeCores() >= cpu.bgCores() ? "store" : "bg";
        return new Bottleneck(
                true,
                "this machine",
                role,
                "cpu",
                busy,
                String.format(
                        Locale.ROOT,
                        "this machine's CPU, shared by every node and BG: %.1f of %d cores busy (%.0f %%): the store's %d "
                                + "process%s %.2f cores, BG %.2f",
                        cpu.machineCores(),
                        cpu.machineCpus(),
                        100 * busy,
                        cpu.storeProcesses(),
                        cpu.storeProcesses() == 1 ? "" : "es",
                        cpu.storeCores(),
                        cpu.bgCores()));
    }

    /** The JSON form. */
    public Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("known", known);
        m.put("node", node);
        m.put("role", role);
        m.put("resource", resource);
        m.put("utilisation", utilisation);
        m.put("text", text);
        return m;
    }

    private record Use(NodeResult node, String resource, double fraction, String detail) {
        String describe() {
            return detail + String.format(Locale.ROOT, " (%.0f %%)", 100 * fraction);
        }
    }

    private static List<Use> uses(NodeResult n, double link) {
        List<Use> out = new ArrayList<>();
        Double busy = mean(n.busyCores());
        if (busy != null && n.cpus() > 0) {
            out.add(new Use(
                    n,
                    "cpu",
                    busy / n.cpus(),
                    String.format(Locale.ROOT, "CPU %.1f of %d cores busy", busy, n.cpus())));
        }
        Double disk = mean(n.diskBusyPct());
        if (disk != null) {
            out.add(new Use(
                    n, "disk", disk / 100, String.format(Locale.ROOT, "busiest disk busy %.0f %% of the time", disk)));
        }
        Double rx = mean(n.netRxBytesPerS());
        Double tx = mean(n.netTxBytesPerS());
        if (link > 0 && (rx != null || tx != null)) {
            double most = Math.max(rx == null ? 0 : rx, tx == null ? 0 : tx);
            out.add(new Use(
                    n,
                    "network",
                    most / link,
                    String.format(Locale.ROOT, "network %.1f of %.1f MB/s", most / 1e6, link / 1e6)));
        }
        return out;
    }

    private static Double mean(NodeResult.MeanMax m) {
        return m == null || m.mean() == null || !Double.isFinite(m.mean()) ? null : m.mean();
    }
}
