package org.bgbench.measurement.resource;

import java.util.List;

/**
 * CPU used between two snapshots, in cores (CPU seconds per wall-clock second). {@code NaN} means unknown.
 *
 * @param seconds     wall-clock length of the interval
 * @param cores       CPU use in cores
 * @param machineCpus CPUs of the machine
 * @param cpuSeconds  CPU seconds of BG and of the store
 * @param nodes       each node's CPU, memory, network and disk in the interval: BG's machine (role {@code bg}) first,
 *                    then every store host named with {@code --store-host} (role {@code store}); a host that did not
 *                    answer has {@link NodeUse#answered()} false
 */
public record ResourceUse(double seconds, Cores cores, int machineCpus, CpuSeconds cpuSeconds, List<NodeUse> nodes) {
    public ResourceUse {
        nodes = nodes == null ? List.of() : List.copyOf(nodes);
    }

    /**
     * @param bg            this JVM (BG, and the store too when it is embedded)
     * @param store         the store's process trees
     * @param machine       all CPUs of the machine, busy
     * @param machineIowait CPUs idle while waiting for I/O (a hint that a local disk is the bottleneck)
     */
    public record Cores(double bg, double store, double machine, double machineIowait) {}

    /**
     * @param bg    CPU seconds of this JVM
     * @param store CPU seconds of the store's process trees
     */
    public record CpuSeconds(double bg, double store) {}

    public double bgCores() {
        return cores.bg();
    }

    public double storeCores() {
        return cores.store();
    }

    public double machineCores() {
        return cores.machine();
    }

    public double machineIowaitCores() {
        return cores.machineIowait();
    }

    public double bgCpuSeconds() {
        return cpuSeconds.bg();
    }

    public double storeCpuSeconds() {
        return cpuSeconds.store();
    }
}
