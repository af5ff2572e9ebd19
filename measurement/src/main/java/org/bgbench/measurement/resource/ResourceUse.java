package org.bgbench.measurement.resource;

import java.util.List;

/**
 * CPU used between two snapshots, in cores (CPU seconds per wall-clock second). {@code NaN} means unknown.
 *
 * @param seconds            wall-clock length of the interval
 * @param bgCores            this JVM (BG, and the store too when it is embedded)
 * @param storeCores         the store's process trees
 * @param machineCores       all CPUs of the machine, busy
 * @param machineIowaitCores CPUs idle while waiting for I/O (a hint that a local disk is the bottleneck)
 * @param machineCpus        CPUs of the machine
 * @param bgCpuSeconds       CPU seconds of this JVM
 * @param storeCpuSeconds    CPU seconds of the store's process trees
 * @param nodes              each node's CPU, memory, network and disk in the interval: BG's machine (role
 *                           {@code bg}) first, then every store host named with {@code --store-host} (role
 *                           {@code store}); a host that did not answer has {@link NodeUse#answered()} false
 */
public record ResourceUse(double seconds, double bgCores, double storeCores, double machineCores,
                          double machineIowaitCores, int machineCpus, double bgCpuSeconds, double storeCpuSeconds,
                          List<NodeUse> nodes) {
    public ResourceUse {
        nodes = nodes == null ? List.of() : List.copyOf(nodes);
    }

    /** CPU use without node figures. */
    public ResourceUse(double seconds, double bgCores, double storeCores, double machineCores,
                       double machineIowaitCores, int machineCpus, double bgCpuSeconds, double storeCpuSeconds) {
        this(seconds, bgCores, storeCores, machineCores, machineIowaitCores, machineCpus, bgCpuSeconds,
                storeCpuSeconds, List.of());
    }
}
