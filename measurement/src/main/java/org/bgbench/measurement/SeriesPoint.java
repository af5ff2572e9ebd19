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
}
