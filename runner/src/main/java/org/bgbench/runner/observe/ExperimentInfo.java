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
 */
public record ExperimentInfo(String store, String mix, int threads, double betaMs, double durationS, double warmupS,
                             Path out) {
}
