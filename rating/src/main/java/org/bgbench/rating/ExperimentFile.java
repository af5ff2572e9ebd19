package org.bgbench.rating;

/**
 * What the HTML report knows of one experiment beyond the rating: where its result file is (relative to the report)
 * and the latency percentiles that file holds.
 *
 * @param href    the result file, relative to the report's directory
 * @param latency its latency percentiles over all actions, or null when not known
 */
public record ExperimentFile(String href, Latency latency) {
    /**
     * Latency percentiles of an experiment's completed actions, in milliseconds (null when none completed).
     *
     * @param p50Ms median
     * @param p95Ms 95th percentile
     * @param p99Ms 99th percentile
     */
    public record Latency(Double p50Ms, Double p95Ms, Double p99Ms) {}
}
