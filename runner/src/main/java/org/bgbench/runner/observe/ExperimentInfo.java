package org.bgbench.runner.observe;

import java.nio.file.Path;

/**
 * What an observer knows of an experiment when it starts.
 *
 * @param store     the store binding's name
 * @param mix       the workload's mix name
 * @param threads   T of this process (a worker's share in a cluster)
 * @param betaMs    β, milliseconds
 * @param durationS the measured period's length, seconds (0 when it is a request count)
 * @param warmupS   the warm-up's length, seconds (0 when none or a request count)
 * @param out       the result file, or null when the result is not written
 * @param merged    true for a coordinator's merged view of an experiment its workers run (each worker also reports its
 *                  own part where it runs): what counts executions must skip it, or count them twice when a worker
 *                  runs in the same process
 */
public record ExperimentInfo(
        String store,
        String mix,
        int threads,
        double betaMs,
        double durationS,
        double warmupS,
        Path out,
        boolean merged) {
    /** An experiment this process runs itself. */
    public ExperimentInfo(
            String store, String mix, int threads, double betaMs, double durationS, double warmupS, Path out) {
        this(store, mix, threads, betaMs, durationS, warmupS, out, false);
    }
}
