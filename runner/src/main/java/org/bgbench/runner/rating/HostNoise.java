package org.bgbench.runner.rating;

import java.util.List;
import java.util.Locale;
import org.bgbench.measurement.CpuResult;

/**
 * Whether other processes than BG and the store competed for the machine's CPU during a rating's experiments: the
 * machine's CPUs were saturated while BG's own were not, and a real share of the busy cores was neither BG's nor the
 * store's. Such a host makes the experiments disagree with one another, so the verdict names it.
 */
final class HostNoise {
    /** A CPU counts as saturated at 90 % of its cores, as in the run's own bottleneck warnings. */
    private static final double SATURATED = 0.9;
    /** Share of the machine's cores busy outside BG and the store from which they count as competing. */
    private static final double OTHERS = 0.25;

    private HostNoise() {}

    /** The noise over the experiments' CPU figures in words ({@code the machine's CPU was saturated in 3 of 7 experiments …}), or null when none. */
    static String describe(List<CpuResult> experiments) {
        int noisy = 0;
        double others = 0;
        int cpus = 0;
        for (CpuResult c : experiments) {
            if (c == null || c.machineCores() == null || c.machineCpus() <= 0) {
                continue;
            }
            boolean machineSaturated = c.machineCores() >= SATURATED * c.machineCpus();
            boolean bgSaturated = c.bgCores() != null && c.bgCores() >= SATURATED * c.bgAvailableCores();
            double elsewhere = c.machineCores()
                    - (c.bgCores() == null ? 0 : c.bgCores())
                    - (c.storeCores() == null ? 0 : c.storeCores());
            if (machineSaturated && !bgSaturated && elsewhere >= OTHERS * c.machineCpus()) {
                noisy++;
                others = Math.max(others, elsewhere);
                cpus = c.machineCpus();
            }
        }
        if (noisy == 0) {
            return null;
        }
        return String.format(
                Locale.ROOT,
                "the machine's CPU was saturated in %d of %d experiments, up to %.1f of its %d cores busy with "
                        + "processes other than BG%s; figures vary with their load, rate on a quieter machine",
                noisy,
                experiments.size(),
                others,
                cpus,
                experiments.stream()
                                .anyMatch(c -> c != null
                                        && c.storePids() != null
                                        && !c.storePids().isEmpty())
                        ? " and the store"
                        : "");
    }
}
