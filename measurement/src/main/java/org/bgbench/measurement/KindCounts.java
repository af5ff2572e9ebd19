package org.bgbench.measurement;

import org.HdrHistogram.Histogram;

/**
 * What was recorded for one kind (action or session) over some interval, in a form that adds up without loss across
 * seconds, threads and workers. Treat the histogram as read-only.
 *
 * @param code       action or session code
 * @param latencies  latencies of completed (non-error) executions, ns, BG's histogram configuration ({@link Latencies})
 * @param withinBeta completed executions with latency ≤ β, counted exactly at recording time
 * @param noops      executions skipped because no valid target existed
 * @param errors     executions that failed
 * @param errorNanos total time of the failed executions, ns
 */
public record KindCounts(String code, Histogram latencies, long withinBeta, long noops, long errors, long errorNanos) {

    public static KindCounts empty(String code) {
        return new KindCounts(code, Latencies.newHistogram(), 0, 0, 0, 0);
    }

    /** Completed executions (the histogram's count). */
    public long count() {
        return latencies.getTotalCount();
    }

    /** The sum of both, in a new dense histogram; the code is this one's. */
    public KindCounts plus(KindCounts other) {
        Histogram sum = Latencies.newHistogram();
        sum.add(latencies);
        sum.add(other.latencies);
        return new KindCounts(code, sum, withinBeta + other.withinBeta, noops + other.noops, errors + other.errors,
                errorNanos + other.errorNanos);
    }
}
