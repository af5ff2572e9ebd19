package org.bgbench.measurement.resource;

import java.util.List;

/**
 * Cumulative CPU counters at one instant; {@link ResourceMonitor#between} turns two of them into use. A negative value
 * means "not available here".
 *
 * @param nanoTime          {@link System#nanoTime()} when taken
 * @param bgCpuNanos        CPU time of this JVM (all threads) so far
 * @param storeCpuNanos     CPU time of the store's process trees so far, or -1 without store pids or /proc
 * @param storeProcesses    processes found in the store's trees
 * @param machineBusyTicks  non-idle ticks of all CPUs since boot, or -1 without /proc
 * @param machineIowaitTicks ticks all CPUs spent idle waiting for I/O, or -1
 * @param machineTotalTicks all ticks of all CPUs, or -1
 * @param machineCpus       CPUs of the machine (from /proc/stat, else the JVM's available processors)
 * @param nodes             the latest reading of each node: BG's machine first, then each store host; a node that has
 *                          not answered yet is {@link NodeReading#none}
 */
public record ResourceSnapshot(
        long nanoTime,
        long bgCpuNanos,
        long storeCpuNanos,
        int storeProcesses,
        long machineBusyTicks,
        long machineIowaitTicks,
        long machineTotalTicks,
        int machineCpus,
        List<NodeReading> nodes) {
    public ResourceSnapshot {
        nodes = nodes == null ? List.of() : List.copyOf(nodes);
    }

    /** A builder with every figure zero or absent, to be set by name. */
    public static Builder builder() {
        return new Builder();
    }

    /** Builds a {@link ResourceSnapshot} by name rather than by position. */
    public static final class Builder {
        private long nanoTime;
        private long bgCpuNanos;
        private long storeCpuNanos;
        private int storeProcesses;
        private long machineBusyTicks;
        private long machineIowaitTicks;
        private long machineTotalTicks;
        private int machineCpus;
        private List<NodeReading> nodes;

        private Builder() {}

        public Builder nanoTime(long v) {
            nanoTime = v;
            return this;
        }

        public Builder bgCpuNanos(long v) {
            bgCpuNanos = v;
            return this;
        }

        public Builder storeCpuNanos(long v) {
            storeCpuNanos = v;
            return this;
        }

        public Builder storeProcesses(int v) {
            storeProcesses = v;
            return this;
        }

        public Builder machineBusyTicks(long v) {
            machineBusyTicks = v;
            return this;
        }

        public Builder machineIowaitTicks(long v) {
            machineIowaitTicks = v;
            return this;
        }

        public Builder machineTotalTicks(long v) {
            machineTotalTicks = v;
            return this;
        }

        public Builder machineCpus(int v) {
            machineCpus = v;
            return this;
        }

        public Builder nodes(List<NodeReading> v) {
            nodes = v;
            return this;
        }

        public ResourceSnapshot build() {
            return new ResourceSnapshot(
                    nanoTime,
                    bgCpuNanos,
                    storeCpuNanos,
                    storeProcesses,
                    machineBusyTicks,
                    machineIowaitTicks,
                    machineTotalTicks,
                    machineCpus,
                    nodes);
        }
    }
}
