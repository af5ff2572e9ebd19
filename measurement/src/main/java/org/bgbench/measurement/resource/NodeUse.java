package org.bgbench.measurement.resource;

import java.util.Map;

/**
 * One node's resources over one interval. {@code NaN} means unknown (the node did not answer, or the figure is not
 * available there).
 *
 * @param name               the node (see {@link NodeReading#name()})
 * @param role               {@code bg} or {@code store}
 * @param answered           false for a gap: the node's last request failed (or it never answered), all NaN; true
 *                           otherwise, though the rates are NaN in an interval without a new answer (the node's first,
 *                           or a run's last, partial second)
 * @param cpus               CPUs of the node, 0 when unknown
 * @param busyCores          CPUs busy (CPU seconds per second, every mode but idle and iowait)
 * @param memUsedBytes       memory in use (MemTotal − MemAvailable) at the end of the interval
 * @param memTotalBytes      MemTotal
 * @param netRxBytesPerS     received over all interfaces but loopback
 * @param netTxBytesPerS     sent over all interfaces but loopback
 * @param loBytesPerS        carried by loopback (received = sent there)
 * @param diskReadBytesPerS  read from whole disks
 * @param diskWriteBytesPerS written to whole disks
 * @param diskBusyPct        % of the interval the busiest whole disk spent doing I/O (100 = saturated)
 */
public record NodeUse(
        String name,
        String role,
        boolean answered,
        int cpus,
        double busyCores,
        double memUsedBytes,
        double memTotalBytes,
        double netRxBytesPerS,
        double netTxBytesPerS,
        double loBytesPerS,
        double diskReadBytesPerS,
        double diskWriteBytesPerS,
        double diskBusyPct) {

    /** A gap: the node gave no fresh reading for the interval. */
    public static NodeUse unknown(String name, String role) {
        double n = Double.NaN;
        return NodeUse.builder()
                .name(name)
                .role(role)
                .answered(false)
                .cpus(0)
                .busyCores(n)
                .memUsedBytes(n)
                .memTotalBytes(n)
                .netRxBytesPerS(n)
                .netTxBytesPerS(n)
                .loBytesPerS(n)
                .diskReadBytesPerS(n)
                .diskWriteBytesPerS(n)
                .diskBusyPct(n)
                .build();
    }

    /**
     * The use between two readings of one node, over their own times. A missing {@code to} ({@link NodeReading#none})
     * gives a gap; the same reading twice gives the node's state without rates. A
     * counter that went backwards (a reboot, an interface or disk that vanished) reads as unknown, not as a wrong
     * figure.
     */
    public static NodeUse between(NodeReading from, NodeReading to, String name, String role) {
        if (to == null || !to.known() || from != null && from.known() && to.nanoTime() < from.nanoTime()) {
            return unknown(name, role);
        }
        if (from == null || !from.known() || to.nanoTime() == from.nanoTime()) {
            // The node's first answer, or no new answer yet in a short interval (a run's last, partial one): its
            // state is known, its rates need two different answers.
            double n = Double.NaN;
            return NodeUse.builder()
                    .name(name)
                    .role(role)
                    .answered(true)
                    .cpus(Math.max(0, to.cpus()))
                    .busyCores(n)
                    .memUsedBytes(known(to.memUsedBytes()))
                    .memTotalBytes(known(to.memTotalBytes()))
                    .netRxBytesPerS(n)
                    .netTxBytesPerS(n)
                    .loBytesPerS(n)
                    .diskReadBytesPerS(n)
                    .diskWriteBytesPerS(n)
                    .diskBusyPct(n)
                    .build();
        }
        double seconds = (to.nanoTime() - from.nanoTime()) / 1e9;
        double busy = Double.NaN;
        double total = to.cpuTotalSeconds() - from.cpuTotalSeconds();
        if (to.cpus() > 0 && total > 0 && to.cpuBusySeconds() >= from.cpuBusySeconds()) {
            // A share of all CPUs' time, so small clock differences between the node and BG do not matter.
            busy = Math.min(1.0, (to.cpuBusySeconds() - from.cpuBusySeconds()) / total) * to.cpus();
        }
        double diskBusy = Double.NaN;
        for (Map.Entry<String, Double> e : to.diskIoSeconds().entrySet()) {
            Double before = from.diskIoSeconds().get(e.getKey());
            if (before != null && e.getValue() >= before) {
                double pct = Math.min(100.0, 100.0 * (e.getValue() - before) / seconds);
                diskBusy = Double.isNaN(diskBusy) ? pct : Math.max(diskBusy, pct);
            }
        }
        return NodeUse.builder()
                .name(name)
                .role(role)
                .answered(true)
                .cpus(Math.max(0, to.cpus()))
                .busyCores(busy)
                .memUsedBytes(known(to.memUsedBytes()))
                .memTotalBytes(known(to.memTotalBytes()))
                .netRxBytesPerS(rate(from.netRxBytes(), to.netRxBytes(), seconds))
                .netTxBytesPerS(rate(from.netTxBytes(), to.netTxBytes(), seconds))
                .loBytesPerS(rate(from.loRxBytes(), to.loRxBytes(), seconds))
                .diskReadBytesPerS(rate(from.diskReadBytes(), to.diskReadBytes(), seconds))
                .diskWriteBytesPerS(rate(from.diskWriteBytes(), to.diskWriteBytes(), seconds))
                .diskBusyPct(diskBusy)
                .build();
    }

    private static double rate(double from, double to, double seconds) {
        return from >= 0 && to >= from ? (to - from) / seconds : Double.NaN;
    }

    private static double known(double v) {
        return v >= 0 ? v : Double.NaN;
    }

    /** A builder with every figure zero or absent, to be set by name. */
    public static Builder builder() {
        return new Builder();
    }

    /** Builds a {@link NodeUse} by name rather than by position. */
    public static final class Builder {
        private String name;
        private String role;
        private boolean answered;
        private int cpus;
        private double busyCores;
        private double memUsedBytes;
        private double memTotalBytes;
        private double netRxBytesPerS;
        private double netTxBytesPerS;
        private double loBytesPerS;
        private double diskReadBytesPerS;
        private double diskWriteBytesPerS;
        private double diskBusyPct;

        private Builder() {}

        public Builder name(String v) {
            name = v;
            return this;
        }

        public Builder role(String v) {
            role = v;
            return this;
        }

        public Builder answered(boolean v) {
            answered = v;
            return this;
        }

        public Builder cpus(int v) {
            cpus = v;
            return this;
        }

        public Builder busyCores(double v) {
            busyCores = v;
            return this;
        }

        public Builder memUsedBytes(double v) {
            memUsedBytes = v;
            return this;
        }

        public Builder memTotalBytes(double v) {
            memTotalBytes = v;
            return this;
        }

        public Builder netRxBytesPerS(double v) {
            netRxBytesPerS = v;
            return this;
        }

        public Builder netTxBytesPerS(double v) {
            netTxBytesPerS = v;
            return this;
        }

        public Builder loBytesPerS(double v) {
            loBytesPerS = v;
            return this;
        }

        public Builder diskReadBytesPerS(double v) {
            diskReadBytesPerS = v;
            return this;
        }

        public Builder diskWriteBytesPerS(double v) {
            diskWriteBytesPerS = v;
            return this;
        }

        public Builder diskBusyPct(double v) {
            diskBusyPct = v;
            return this;
        }

        public NodeUse build() {
            return new NodeUse(
                    name,
                    role,
                    answered,
                    cpus,
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
