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
        return KindResult.builder()
                .count(completed)
                .noops(counts.noops())
                .errors(counts.errors())
                .stuck(counts.stuck())
                .throughput(seconds > 0 ? completed / seconds : 0)
                .p50Ms(any ? ms(h.getValueAtPercentile(50)) : null)
                .p95Ms(any ? ms(h.getValueAtPercentile(95)) : null)
                .p99Ms(any ? ms(h.getValueAtPercentile(99)) : null)
                .p999Ms(any ? ms(h.getValueAtPercentile(99.9)) : null)
                .maxMs(any ? ms(h.getMaxValue()) : null)
                .minMs(any ? ms(h.getMinValue()) : null)
                .meanMs(any ? h.getMean() / 1e6 : null)
                .withinBetaPct(any ? 100.0 * counts.withinBeta() / n : null)
                .withinBetaCount(counts.withinBeta())
                .errorMeanMs(counts.errors() > 0 ? counts.errorNanos() / 1e6 / counts.errors() : null)
                .hdr(Latencies.encode(h))
                .bgCpuUs(counts.cpuSamples() > 0 ? counts.cpuNanos() / 1e3 / counts.cpuSamples() : null)
                .bgCpuSamples(counts.cpuSamples())
                .build();
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

    /** A builder with every figure zero or absent, to be set by name. */
    public static Builder builder() {
        return new Builder();
    }

    /** Builds a {@link KindResult} by name rather than by position. */
    public static final class Builder {
        private long count;
        private long noops;
        private long errors;
        private long stuck;
        private double throughput;
        private Double p50Ms;
        private Double p95Ms;
        private Double p99Ms;
        private Double p999Ms;
        private Double maxMs;
        private Double minMs;
        private Double meanMs;
        private Double withinBetaPct;
        private long withinBetaCount;
        private Double errorMeanMs;
        private String hdr;
        private Double bgCpuUs;
        private long bgCpuSamples;

        private Builder() {}

        public Builder count(long v) {
            count = v;
            return this;
        }

        public Builder noops(long v) {
            noops = v;
            return this;
        }

        public Builder errors(long v) {
            errors = v;
            return this;
        }

        public Builder stuck(long v) {
            stuck = v;
            return this;
        }

        public Builder throughput(double v) {
            throughput = v;
            return this;
        }

        public Builder p50Ms(Double v) {
            p50Ms = v;
            return this;
        }

        public Builder p95Ms(Double v) {
            p95Ms = v;
            return this;
        }

        public Builder p99Ms(Double v) {
            p99Ms = v;
            return this;
        }

        public Builder p999Ms(Double v) {
            p999Ms = v;
            return this;
        }

        public Builder maxMs(Double v) {
            maxMs = v;
            return this;
        }

        public Builder minMs(Double v) {
            minMs = v;
            return this;
        }

        public Builder meanMs(Double v) {
            meanMs = v;
            return this;
        }

        public Builder withinBetaPct(Double v) {
            withinBetaPct = v;
            return this;
        }

        public Builder withinBetaCount(long v) {
            withinBetaCount = v;
            return this;
        }

        public Builder errorMeanMs(Double v) {
            errorMeanMs = v;
            return this;
        }

        public Builder hdr(String v) {
            hdr = v;
            return this;
        }

        public Builder bgCpuUs(Double v) {
            bgCpuUs = v;
            return this;
        }

        public Builder bgCpuSamples(long v) {
            bgCpuSamples = v;
            return this;
        }

        public KindResult build() {
            return new KindResult(
                    count,
                    noops,
                    errors,
                    stuck,
                    throughput,
                    p50Ms,
                    p95Ms,
                    p99Ms,
                    p999Ms,
                    maxMs,
                    minMs,
                    meanMs,
                    withinBetaPct,
                    withinBetaCount,
                    errorMeanMs,
                    hdr,
                    bgCpuUs,
                    bgCpuSamples);
        }
    }
}
