package org.bgbench.measurement;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.List;
import java.util.function.ToDoubleFunction;
import org.bgbench.measurement.resource.NodeUse;

/**
 * One node's resources over the measured period: the mean and the highest per-second value of each figure, over the
 * seconds in which the node answered. See docs/resources.md.
 *
 * @param name               BG's host name, or the store host as given ({@code HOST:PORT})
 * @param role               {@code bg} or {@code store}
 * @param cpus               CPUs of the node (0 when unknown)
 * @param seconds            measured seconds with figures of the node
 * @param missingSeconds     measured seconds in which the node did not answer (gaps)
 * @param busyCores          CPUs busy
 * @param memUsedBytes       memory in use (MemTotal − MemAvailable)
 * @param memTotalBytes      MemTotal
 * @param netRxBytesPerS     received over all interfaces but loopback
 * @param netTxBytesPerS     sent over all interfaces but loopback
 * @param loBytesPerS        carried by loopback
 * @param diskReadBytesPerS  read from whole disks
 * @param diskWriteBytesPerS written to whole disks
 * @param diskBusyPct        % of the time the busiest whole disk was doing I/O
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonPropertyOrder({"name", "role", "cpus", "seconds", "missing_seconds"})
public record NodeResult(
        String name,
        String role,
        int cpus,
        int seconds,
        int missingSeconds,
        MeanMax busyCores,
        MeanMax memUsedBytes,
        MeanMax memTotalBytes,
        MeanMax netRxBytesPerS,
        MeanMax netTxBytesPerS,
        MeanMax loBytesPerS,
        MeanMax diskReadBytesPerS,
        MeanMax diskWriteBytesPerS,
        MeanMax diskBusyPct) {

    /** Mean and highest per-second value; both null when never known. */
    public record MeanMax(Double mean, Double max) {
        static MeanMax of(List<NodeUse> seconds, ToDoubleFunction<NodeUse> figure) {
            double sum = 0;
            double max = Double.NEGATIVE_INFINITY;
            int n = 0;
            for (NodeUse u : seconds) {
                double v = figure.applyAsDouble(u);
                if (Double.isFinite(v)) {
                    sum += v;
                    max = Math.max(max, v);
                    n++;
                }
            }
            return n == 0 ? new MeanMax(null, null) : new MeanMax(sum / n, max);
        }
    }

    /** The summary of one node's per-second figures (all of the same node, gaps included). */
    static NodeResult of(String name, String role, List<NodeUse> perSecond) {
        List<NodeUse> known = perSecond.stream().filter(NodeUse::answered).toList();
        int cpus = known.stream().mapToInt(NodeUse::cpus).max().orElse(0);
        return new NodeResult(
                name,
                role,
                cpus,
                known.size(),
                perSecond.size() - known.size(),
                MeanMax.of(known, NodeUse::busyCores),
                MeanMax.of(known, NodeUse::memUsedBytes),
                MeanMax.of(known, NodeUse::memTotalBytes),
                MeanMax.of(known, NodeUse::netRxBytesPerS),
                MeanMax.of(known, NodeUse::netTxBytesPerS),
                MeanMax.of(known, NodeUse::loBytesPerS),
                MeanMax.of(known, NodeUse::diskReadBytesPerS),
                MeanMax.of(known, NodeUse::diskWriteBytesPerS),
                MeanMax.of(known, NodeUse::diskBusyPct));
    }
}
