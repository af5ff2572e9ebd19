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
 * @param stuck      executions still waiting on the store when the measured period ended, beyond β (in
 *                   {@code latencies} with the time they had waited; never within β)
 * @param outcomes   no-ops (no valid target existed), errors, and the errors' total time, ns
 * @param cpu        BG's thread CPU time in the sampled store calls (completed or failed), ns, and the calls sampled
 */
public record KindCounts(String code, Histogram latencies, long withinBeta, long stuck, Outcomes outcomes, Cpu cpu) {
    /** Nothing but completions. */
    public static final Outcomes NO_OUTCOMES = new Outcomes(0, 0, 0);
    /** No CPU sampled. */
    public static final Cpu NO_CPU = new Cpu(0, 0);

    /**
     * What did not complete normally.
     *
     * @param noops      executions that did nothing (nothing to act on)
     * @param errors     executions that failed
     * @param errorNanos the time the failed ones took
     */
    public record Outcomes(long noops, long errors, long errorNanos) {
        Outcomes plus(Outcomes o) {
            return new Outcomes(noops + o.noops, errors + o.errors, errorNanos + o.errorNanos);
        }
    }

    /** BG's CPU time sampled inside the kind's executions, and the samples. */
    public record Cpu(long nanos, long samples) {
        Cpu plus(Cpu o) {
            return new Cpu(nanos + o.nanos, samples + o.samples);
        }
    }

    public static KindCounts empty(String code) {
        return new KindCounts(code, Latencies.newHistogram(), 0, 0, NO_OUTCOMES, NO_CPU);
    }

    public long noops() {
        return outcomes.noops();
    }

    public long errors() {
        return outcomes.errors();
    }

    public long errorNanos() {
        return outcomes.errorNanos();
    }

    public long cpuNanos() {
        return cpu.nanos();
    }

    public long cpuSamples() {
        return cpu.samples();
    }

    /** The same counts with {@code stuck} stuck executions, whose waits are in {@code latencies}. */
    public KindCounts withStuck(Histogram latencies, long stuck) {
        return new KindCounts(code, latencies, withinBeta, stuck, outcomes, cpu);
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
        return new KindCounts(
                code,
                sum,
                withinBeta + other.withinBeta,
                stuck + other.stuck,
                outcomes.plus(other.outcomes),
                cpu.plus(other.cpu));
    }
}
