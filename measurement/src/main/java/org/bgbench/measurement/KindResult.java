package org.bgbench.measurement;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import org.HdrHistogram.Histogram;

/**
 * The reported figures of one action, one session type, or all actions together. Latency fields are null when nothing
 * completed. Percentiles and max are HdrHistogram values: the highest value equivalent to the recorded ones, at most
 * 0.1 % above the true value; the mean uses each slot's midpoint. {@code within_beta_*} are exact. Stuck executions
 * (still waiting on the store when the measured period ended) are in the latency figures with the time they had
 * waited, a lower bound of their latency, and never within β.
 *
 * @param count           completed executions (errors, no-ops and stuck ones excluded)
 * @param noops           executions skipped because no valid target existed
 * @param errors          failed executions
 * @param stuck           executions still waiting on the store when the measured period ended, for longer than
 *                        max(β, 1 s)
 * @param throughput      completed executions per second of the measured period
 * @param withinBetaPct   100 × withinBetaCount / (count + stuck)
 * @param withinBetaCount completed executions whose latency was ≤ β
 * @param errorMeanMs     mean time until an error, null without errors
 * @param hdr             the latency histogram (ns), HdrHistogram compressed encoding in Base64, for lossless merging
 * @param bgCpuUs         mean CPU time of BG's thread in the store call (the store binding, its driver, TLS, system
 *                        calls), µs per sampled execution (completed or failed); null when none was sampled (sessions,
 *                        virtual threads, a JVM without a thread CPU clock)
 * @param bgCpuSamples    the executions sampled for {@code bgCpuUs}
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record KindResult(
        long count,
        long noops,
        long errors,
        long stuck,
        double throughput,
        Double p50Ms,
        Double p95Ms,
        Double p99Ms,
        Double p999Ms,
        Double maxMs,
        Double minMs,
        Double meanMs,
        Double withinBetaPct,
        long withinBetaCount,
        Double errorMeanMs,
        String hdr,
        Double bgCpuUs,
        long bgCpuSamples) {

    /** The figures of {@code counts} over a measured period of {@code seconds}. */
    public static KindResult of(KindCounts counts, double seconds) {
        Histogram h = counts.latencies();
        long n = h.getTotalCount();
        long completed = n - counts.stuck();
        boolean any = n > 0;
        return new KindResult(
                completed,
                counts.noops(),
                counts.errors(),
                counts.stuck(),
                seconds > 0 ? completed / seconds : 0,
                any ? ms(h.getValueAtPercentile(50)) : null,
                any ? ms(h.getValueAtPercentile(95)) : null,
                any ? ms(h.getValueAtPercentile(99)) : null,
                any ? ms(h.getValueAtPercentile(99.9)) : null,
                any ? ms(h.getMaxValue()) : null,
                any ? ms(h.getMinValue()) : null,
                any ? h.getMean() / 1e6 : null,
                any ? 100.0 * counts.withinBeta() / n : null,
                counts.withinBeta(),
                counts.errors() > 0 ? counts.errorNanos() / 1e6 / counts.errors() : null,
                Latencies.encode(h),
                counts.cpuSamples() > 0 ? counts.cpuNanos() / 1e3 / counts.cpuSamples() : null,
                counts.cpuSamples());
    }

    private static double ms(long nanos) {
        return Latencies.millis(nanos);
    }

    /** The latency histogram, decoded from {@link #hdr}. */
    public Histogram histogram() {
        return hdr == null ? Latencies.newHistogram() : Latencies.decode(hdr);
    }

    /**
     * Percentage within β when errors (and stuck executions) count as late (the SLA's default view), null when nothing
     * was attempted.
     */
    public Double withinBetaPctCountingErrors() {
        long attempts = count + stuck + errors;
        return attempts == 0 ? null : 100.0 * withinBetaCount / attempts;
    }
}
