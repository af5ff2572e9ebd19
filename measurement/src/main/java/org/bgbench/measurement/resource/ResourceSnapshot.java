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

    /** A snapshot without node readings. */
    public ResourceSnapshot(
            long nanoTime,
            long bgCpuNanos,
            long storeCpuNanos,
            int storeProcesses,
            long machineBusyTicks,
            long machineIowaitTicks,
            long machineTotalTicks,
            int machineCpus) {
        this(
                nanoTime,
                bgCpuNanos,
                storeCpuNanos,
                storeProcesses,
                machineBusyTicks,
                machineIowaitTicks,
                machineTotalTicks,
                machineCpus,
                List.of());
    }
}
