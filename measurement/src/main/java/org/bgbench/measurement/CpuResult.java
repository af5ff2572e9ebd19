package org.bgbench.measurement;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.Collection;
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
 * @param bgOutsideUsPerAction µs of BG CPU per completed action outside the store calls (choosing actions, member
 *                           locks, validation logs, sampling, GC, JIT): {@code bgUsPerAction} less the
 *                           count-weighted mean of the actions' {@link KindResult#bgCpuUs()}; null when either is
 *                           unknown
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record CpuResult(
        Double bgCores,
        Double bgUsPerAction,
        Double storeCores,
        Double machineCores,
        Double machineIowaitCores,
        Double bgCpuS,
        Double storeCpuS,
        int bgAvailableCores,
        int machineCpus,
        List<Long> storePids,
        int storeProcesses,
        Double bgPeakCores,
        Double storePeakCores,
        Double machinePeakCores,
        Double bgOutsideUsPerAction) {

    /**
     * {@code bgUsPerAction} less the mean of the actions' {@link KindResult#bgCpuUs()}, each weighted by its count
     * (actions without a figure are left out of the mean); null when {@code bgUsPerAction} is null or no action has a
     * figure. Never negative: a difference below 0 is measurement disagreement and reads as 0.
     */
    public static Double outsideUsPerAction(Double bgUsPerAction, Collection<KindResult> actions) {
        if (bgUsPerAction == null) {
            return null;
        }
        double sum = 0;
        long count = 0;
        for (KindResult k : actions) {
            if (k != null && k.bgCpuUs() != null && k.count() > 0) {
                sum += k.bgCpuUs() * k.count();
                count += k.count();
            }
        }
        if (count == 0) {
            return null;
        }
        // The two figures come from different clocks (the process's CPU, the sampled calls' thread CPU): when the
        // work outside the calls is below their disagreement the difference can come out negative; it is then 0.
        return Math.max(0, bgUsPerAction - sum / count);
    }

    /** A builder with every figure zero or absent, to be set by name. */
    public static Builder builder() {
        return new Builder();
    }

    /** Builds a {@link CpuResult} by name rather than by position. */
    public static final class Builder {
        private Double bgCores;
        private Double bgUsPerAction;
        private Double storeCores;
        private Double machineCores;
        private Double machineIowaitCores;
        private Double bgCpuS;
        private Double storeCpuS;
        private int bgAvailableCores;
        private int machineCpus;
        private List<Long> storePids;
        private int storeProcesses;
        private Double bgPeakCores;
        private Double storePeakCores;
        private Double machinePeakCores;
        private Double bgOutsideUsPerAction;

        private Builder() {}

        public Builder bgCores(Double v) {
            bgCores = v;
            return this;
        }

        public Builder bgUsPerAction(Double v) {
            bgUsPerAction = v;
            return this;
        }

        public Builder storeCores(Double v) {
            storeCores = v;
            return this;
        }

        public Builder machineCores(Double v) {
            machineCores = v;
            return this;
        }

        public Builder machineIowaitCores(Double v) {
            machineIowaitCores = v;
            return this;
        }

        public Builder bgCpuS(Double v) {
            bgCpuS = v;
            return this;
        }

        public Builder storeCpuS(Double v) {
            storeCpuS = v;
            return this;
        }

        public Builder bgAvailableCores(int v) {
            bgAvailableCores = v;
            return this;
        }

        public Builder machineCpus(int v) {
            machineCpus = v;
            return this;
        }

        public Builder storePids(List<Long> v) {
            storePids = v;
            return this;
        }

        public Builder storeProcesses(int v) {
            storeProcesses = v;
            return this;
        }

        public Builder bgPeakCores(Double v) {
            bgPeakCores = v;
            return this;
        }

        public Builder storePeakCores(Double v) {
            storePeakCores = v;
            return this;
        }

        public Builder machinePeakCores(Double v) {
            machinePeakCores = v;
            return this;
        }

        public Builder bgOutsideUsPerAction(Double v) {
            bgOutsideUsPerAction = v;
            return this;
        }

        public CpuResult build() {
            return new CpuResult(
                    bgCores,
                    bgUsPerAction,
                    storeCores,
                    machineCores,
                    machineIowaitCores,
                    bgCpuS,
                    storeCpuS,
                    bgAvailableCores,
                    machineCpus,
                    storePids,
                    storeProcesses,
                    bgPeakCores,
                    storePeakCores,
                    machinePeakCores,
                    bgOutsideUsPerAction);
        }
    }
}
