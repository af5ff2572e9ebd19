package org.bgbench.measurement.resource;

import java.util.Map;
import java.util.regex.Pattern;

/**
 * One node's cumulative counters at one instant, as read from /proc ({@link ProcNode}) or from a node exporter
 * ({@link NodeExporterClient}); {@link NodeUse#between} turns two of them into per-second figures. A negative or NaN
 * value means "not known".
 *
 * @param name           the node: BG's host name, or a store host as given ({@code host:port})
 * @param role           {@link #BG} or {@link #STORE}
 * @param nanoTime       {@link System#nanoTime()} when the counters were read (for a node exporter: when its answer
 *                       arrived)
 * @param cpus           CPUs of the node
 * @param cpuBusySeconds seconds all CPUs spent busy since boot (every mode but idle and iowait)
 * @param cpuTotalSeconds seconds all CPUs spent in any mode since boot
 * @param memTotalBytes  MemTotal
 * @param memUsedBytes   MemTotal − MemAvailable
 * @param netRxBytes     bytes received by all interfaces but loopback
 * @param netTxBytes     bytes sent by all interfaces but loopback
 * @param loRxBytes      bytes received on loopback ({@code lo}), where a store on BG's own machine talks to BG
 * @param diskReadBytes  bytes read from whole disks ({@link #wholeDisk})
 * @param diskWriteBytes bytes written to whole disks
 * @param diskIoSeconds  per whole disk, seconds it spent doing I/O (busy)
 */
public record NodeReading(
        String name,
        String role,
        long nanoTime,
        int cpus,
        double cpuBusySeconds,
        double cpuTotalSeconds,
        double memTotalBytes,
        double memUsedBytes,
        double netRxBytes,
        double netTxBytes,
        double loRxBytes,
        double diskReadBytes,
        double diskWriteBytes,
        Map<String, Double> diskIoSeconds) {
    public static final String BG = "bg";
    public static final String STORE = "store";

    public NodeReading {
        diskIoSeconds = diskIoSeconds == null ? Map.of() : Map.copyOf(diskIoSeconds);
    }

    /** No reading of the node yet (it has not answered). */
    public static NodeReading none(String name, String role) {
        return NodeReading.builder()
                .name(name)
                .role(role)
                .nanoTime(Long.MIN_VALUE)
                .cpus(0)
                .cpuBusySeconds(-1)
                .cpuTotalSeconds(-1)
                .memTotalBytes(-1)
                .memUsedBytes(-1)
                .netRxBytes(-1)
                .netTxBytes(-1)
                .loRxBytes(-1)
                .diskReadBytes(-1)
                .diskWriteBytes(-1)
                .diskIoSeconds(Map.of())
                .build();
    }

    /** Whether this is a real reading, not {@link #none}. */
    public boolean known() {
        return nanoTime != Long.MIN_VALUE;
    }

    /**
     * Whether a block device counts as a whole disk: not a partition (sda1, nvme0n1p1, mmcblk0p1), not a loop, RAM,
     * floppy or optical device, and not a device-mapper or md device (their I/O is also counted on the disks beneath
     * them). The node exporter drops partitions and loop/RAM devices itself; the same rule on both sides keeps BG's
     * machine and the store hosts comparable.
     */
    public static boolean wholeDisk(String device) {
        return !NOT_A_DISK.matcher(device).lookingAt()
                && !PARTITION.matcher(device).matches();
    }

    private static final Pattern NOT_A_DISK = Pattern.compile("z?ram|loop|fd|sr|dm-|md");
    private static final Pattern PARTITION =
            Pattern.compile("(h|s|v|xv)d[a-z]+\\d+|nvme\\d+n\\d+p\\d+|mmcblk\\d+p\\d+");

    /** A builder with every figure zero or absent, to be set by name. */
    public static Builder builder() {
        return new Builder();
    }

    /** Builds a {@link NodeReading} by name rather than by position. */
    public static final class Builder {
        private String name;
        private String role;
        private long nanoTime;
        private int cpus;
        private double cpuBusySeconds;
        private double cpuTotalSeconds;
        private double memTotalBytes;
        private double memUsedBytes;
        private double netRxBytes;
        private double netTxBytes;
        private double loRxBytes;
        private double diskReadBytes;
        private double diskWriteBytes;
        private Map<String, Double> diskIoSeconds;

        private Builder() {}

        public Builder name(String v) {
            name = v;
            return this;
        }

        public Builder role(String v) {
            role = v;
            return this;
        }

        public Builder nanoTime(long v) {
            nanoTime = v;
            return this;
        }

        public Builder cpus(int v) {
            cpus = v;
            return this;
        }

        public Builder cpuBusySeconds(double v) {
            cpuBusySeconds = v;
            return this;
        }

        public Builder cpuTotalSeconds(double v) {
            cpuTotalSeconds = v;
            return this;
        }

        public Builder memTotalBytes(double v) {
            memTotalBytes = v;
            return this;
        }

        public Builder memUsedBytes(double v) {
            memUsedBytes = v;
            return this;
        }

        public Builder netRxBytes(double v) {
            netRxBytes = v;
            return this;
        }

        public Builder netTxBytes(double v) {
            netTxBytes = v;
            return this;
        }

        public Builder loRxBytes(double v) {
            loRxBytes = v;
            return this;
        }

        public Builder diskReadBytes(double v) {
            diskReadBytes = v;
            return this;
        }

        public Builder diskWriteBytes(double v) {
            diskWriteBytes = v;
            return this;
        }

        public Builder diskIoSeconds(Map<String, Double> v) {
            diskIoSeconds = v;
            return this;
        }

        public NodeReading build() {
            return new NodeReading(
                    name,
                    role,
                    nanoTime,
                    cpus,
                    cpuBusySeconds,
                    cpuTotalSeconds,
                    memTotalBytes,
                    memUsedBytes,
                    netRxBytes,
                    netTxBytes,
                    loRxBytes,
                    diskReadBytes,
                    diskWriteBytes,
                    diskIoSeconds);
        }
    }
}
