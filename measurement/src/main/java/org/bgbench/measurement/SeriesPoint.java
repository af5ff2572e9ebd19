package org.bgbench.measurement;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

/**
 * One sampling interval (normally one second) of the measured period. Latency figures cover all actions (not
 * sessions) completed in the interval and are null when none completed; CPU figures are null when unknown.
 *
 * @param second     1-based index of the interval within its phase (warm-up or measured)
 * @param elapsedS   seconds from the start of the phase to the end of this interval
 * @param intervalS  actual length of the interval, s
 * @param actions    actions completed
 * @param throughput actions completed per second of the interval
 * @param sessions   sessions completed
 * @param errors     actions and sessions that failed
 * @param noops      actions and sessions skipped for want of a valid target
 * @param bgWaitMs   time threads waited inside BG, ms
 * @param bgCores    CPU of BG's JVM, cores
 * @param storeCores CPU of the store's processes, cores
 * @param machineCores CPU of the whole machine, cores
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonIgnoreProperties(value = "error_pct", allowGetters = true)
public record SeriesPoint(
        int second,
        double elapsedS,
        double intervalS,
        long actions,
        double throughput,
        long sessions,
        long errors,
        long noops,
        Double p50Ms,
        Double p95Ms,
        Double p99Ms,
        Double maxMs,
        Double withinBetaPct,
        double bgWaitMs,
        Double bgCores,
        Double storeCores,
        Double machineCores) {

    /**
     * The share of the calls that returned in the interval (completed and failed) that failed, %; null when none
     * returned. Written as {@code error_pct}, derived from {@link #actions()} and {@link #errors()}.
     */
    @JsonProperty("error_pct")
    public Double errorPct() {
        long returned = actions + errors;
        return returned == 0 ? null : 100.0 * errors / returned;
    }

    /** A builder with every figure zero or absent, to be set by name. */
    public static Builder builder() {
        return new Builder();
    }

    /** Builds a {@link SeriesPoint} by name rather than by position. */
    public static final class Builder {
        private int second;
        private double elapsedS;
        private double intervalS;
        private long actions;
        private double throughput;
        private long sessions;
        private long errors;
        private long noops;
        private Double p50Ms;
        private Double p95Ms;
        private Double p99Ms;
        private Double maxMs;
        private Double withinBetaPct;
        private double bgWaitMs;
        private Double bgCores;
        private Double storeCores;
        private Double machineCores;

        private Builder() {}

        public Builder second(int v) {
            second = v;
            return this;
        }

        public Builder elapsedS(double v) {
            elapsedS = v;
            return this;
        }

        public Builder intervalS(double v) {
            intervalS = v;
            return this;
        }

        public Builder actions(long v) {
            actions = v;
            return this;
        }

        public Builder throughput(double v) {
            throughput = v;
            return this;
        }

        public Builder sessions(long v) {
            sessions = v;
            return this;
        }

        public Builder errors(long v) {
            errors = v;
            return this;
        }

        public Builder noops(long v) {
            noops = v;
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

        public Builder maxMs(Double v) {
            maxMs = v;
            return this;
        }

        public Builder withinBetaPct(Double v) {
            withinBetaPct = v;
            return this;
        }

        public Builder bgWaitMs(double v) {
            bgWaitMs = v;
            return this;
        }

        public Builder bgCores(Double v) {
            bgCores = v;
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

        public SeriesPoint build() {
            return new SeriesPoint(
                    second,
                    elapsedS,
                    intervalS,
                    actions,
                    throughput,
                    sessions,
                    errors,
                    noops,
                    p50Ms,
                    p95Ms,
                    p99Ms,
                    maxMs,
                    withinBetaPct,
                    bgWaitMs,
                    bgCores,
                    storeCores,
                    machineCores);
        }
    }
}
