package org.bgbench.measurement;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.List;

/**
 * CPU use over the measured period, in cores (CPU seconds per second). Fields are null when unknown: store figures
 * without store pids, machine figures off Linux. When the store runs inside BG's JVM its CPU is part of BG's.
 *
 * @param bgCores            BG's JVM
 * @param bgUsPerAction      µs of BG CPU per completed action
 * @param storeCores         the store's process trees (each given pid and its descendants)
 * @param machineCores       all CPUs of the machine, busy
 * @param machineIowaitCores CPUs idle while waiting for I/O
 * @param bgCpuS             CPU seconds of BG's JVM
 * @param storeCpuS          CPU seconds of the store's processes
 * @param bgAvailableCores   processors available to BG's JVM
 * @param machineCpus        CPUs of the machine
 * @param storePids          pids whose process trees count as the store
 * @param storeProcesses     processes found in those trees at the end
 * @param bgPeakCores        highest per-second value of bgCores
 * @param storePeakCores     highest per-second value of storeCores
 * @param machinePeakCores   highest per-second value of machineCores
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record CpuResult(Double bgCores, Double bgUsPerAction, Double storeCores, Double machineCores,
                        Double machineIowaitCores, Double bgCpuS, Double storeCpuS, int bgAvailableCores,
                        int machineCpus, List<Long> storePids, int storeProcesses, Double bgPeakCores,
                        Double storePeakCores, Double machinePeakCores) {
}
