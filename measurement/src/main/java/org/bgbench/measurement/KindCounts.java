package org.bgbench.measurement;

import org.HdrHistogram.Histogram;

/**
 * What was recorded for one kind (action or session) over some interval, in a form that adds up without loss across
 * seconds, threads and workers. Treat the histogram as read-only.
 *
 * @param code       action or session code
 * @param latencies  latencies of completed (non-error) executions and, as lower bounds, the time stuck executions had
 *                   waited, ns, BG's histogram configuration ({@link Latencies})
 * @param withinBeta completed executions with latency ≤ β, counted exactly at recording time
 * @param noops      executions skipped because no valid target existed
 * @param errors     executions that failed
 * @param errorNanos total time of the failed executions, ns
 * @param stuck      executions still waiting on the store when the measured period ended, beyond β (in
 *                   {@code latencies} with the time they had waited; never within β)
 * @param cpuNanos   BG's thread CPU time in the sampled store calls (completed or failed), ns
 * @param cpuSamples the store calls sampled for {@code cpuNanos}
 */
public record KindCounts(String code, Histogram latencies, long withinBeta, long noops, long errors, long errorNanos,
                         long stuck, long cpuNanos, long cpuSamples) {

    /** Counts without BG's CPU. */
    public KindCounts(String code, Histogram latencies, long withinBeta, long noops, long errors, long errorNanos,
                      long stuck) {
        this(code, latencies, withinBeta, noops, errors, errorNanos, stuck, 0, 0);
    }

    /** Counts without stuck executions nor BG's CPU. */
    public KindCounts(String code, Histogram latencies, long withinBeta, long noops, long errors, long errorNanos) {
        this(code, latencies, withinBeta, noops, errors, errorNanos, 0);
    }

    public static KindCounts empty(String code) {
        return new KindCounts(code, Latencies.newHistogram(), 0, 0, 0, 0, 0, 0, 0);
    }

    /** The same counts with {@code stuck} stuck executions, whose waits are in {@code latencies}. */
    public KindCounts withStuck(Histogram latencies, long stuck) {
        return new KindCounts(code, latencies, withinBeta, noops, errors, errorNanos, stuck, cpuNanos, cpuSamples);
    }

    /** Completed executions (the histogram's count less the stuck ones). */
    public long count() {
        return latencies.getTotalCount() - stuck;
    }

    /** The sum of both, in a new dense histogram; the code is this one's. */
    public KindCounts plus(KindCounts other) {
        Histogram sum = Latencies.newHistogram();
        sum.add(latencies);
        sum.add(other.latencies);
        return new KindCounts(code, sum, withinBeta + other.withinBeta, noops + other.noops, errors + other.errors,
                errorNanos + other.errorNanos, stuck + other.stuck, cpuNanos + other.cpuNanos,
                cpuSamples + other.cpuSamples);
    }
}
