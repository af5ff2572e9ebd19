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
        return NodeResult.builder()
                .name(name)
                .role(role)
                .cpus(cpus)
                .seconds(known.size())
                .missingSeconds(perSecond.size() - known.size())
                .busyCores(MeanMax.of(known, NodeUse::busyCores))
                .memUsedBytes(MeanMax.of(known, NodeUse::memUsedBytes))
                .memTotalBytes(MeanMax.of(known, NodeUse::memTotalBytes))
                .netRxBytesPerS(MeanMax.of(known, NodeUse::netRxBytesPerS))
                .netTxBytesPerS(MeanMax.of(known, NodeUse::netTxBytesPerS))
                .loBytesPerS(MeanMax.of(known, NodeUse::loBytesPerS))
                .diskReadBytesPerS(MeanMax.of(known, NodeUse::diskReadBytesPerS))
                .diskWriteBytesPerS(MeanMax.of(known, NodeUse::diskWriteBytesPerS))
                .diskBusyPct(MeanMax.of(known, NodeUse::diskBusyPct))
                .build();
    }

    /** A builder with every figure zero or absent, to be set by name. */
    public static Builder builder() {
        return new Builder();
    }

    /** Builds a {@link NodeResult} by name rather than by position. */
    public static final class Builder {
        private String name;
        private String role;
        private int cpus;
        private int seconds;
        private int missingSeconds;
        private MeanMax busyCores;
        private MeanMax memUsedBytes;
        private MeanMax memTotalBytes;
        private MeanMax netRxBytesPerS;
        private MeanMax netTxBytesPerS;
        private MeanMax loBytesPerS;
        private MeanMax diskReadBytesPerS;
        private MeanMax diskWriteBytesPerS;
        private MeanMax diskBusyPct;

        private Builder() {}

        public Builder name(String v) {
            name = v;
            return this;
        }

        public Builder role(String v) {
            role = v;
            return this;
        }

        public Builder cpus(int v) {
            cpus = v;
            return this;
        }

        public Builder seconds(int v) {
            seconds = v;
            return this;
        }

        public Builder missingSeconds(int v) {
            missingSeconds = v;
            return this;
        }

        public Builder busyCores(MeanMax v) {
            busyCores = v;
            return this;
        }

        public Builder memUsedBytes(MeanMax v) {
            memUsedBytes = v;
            return this;
        }

        public Builder memTotalBytes(MeanMax v) {
            memTotalBytes = v;
            return this;
        }

        public Builder netRxBytesPerS(MeanMax v) {
            netRxBytesPerS = v;
            return this;
        }

        public Builder netTxBytesPerS(MeanMax v) {
            netTxBytesPerS = v;
            return this;
        }

        public Builder loBytesPerS(MeanMax v) {
            loBytesPerS = v;
            return this;
        }

        public Builder diskReadBytesPerS(MeanMax v) {
            diskReadBytesPerS = v;
            return this;
        }

        public Builder diskWriteBytesPerS(MeanMax v) {
            diskWriteBytesPerS = v;
            return this;
        }

        public Builder diskBusyPct(MeanMax v) {
            diskBusyPct = v;
            return this;
        }

        public NodeResult build() {
            return new NodeResult(
                    name,
                    role,
                    cpus,
                    seconds,
                    missingSeconds,
                    busyCores,
                    memUsedBytes,
                    memTotalBytes,
                    netRxBytesPerS,
                    netTxBytesPerS,
                    loBytesPerS,
                    diskReadBytesPerS,
                    diskWriteBytesPerS,
                    diskBusyPct);
        }
    }
}
