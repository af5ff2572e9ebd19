package org.bgbench.measurement;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.List;
import java.util.Map;

/**
 * A run's {@code unpredictable} section: what validation found (dissertation chapter 6). Produced by the engine after
 * a run, merged over workers by {@link org.bgbench.measurement.merge.ResultMerger}.
 *
 * @param readsChecked       reads checked against the writes
 * @param unpredictableReads reads that no serial order of the writes explains
 * @param pct                their % of the reads checked
 * @param tauPct             τ of the SLA, %
 * @param meetsTau           pct ≤ τ
 * @param readsSkipped       reads that could not be checked
 * @param actions            the same per action (by its short name)
 * @param freshness          the freshness-confidence curve
 * @param samples            a few unpredictable reads, to show what was seen
 * @param validation         how the validator ran (absent in a result merged from workers)
 * @param mergedFromWorkers  how many workers' sections were merged (absent in one process)
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonPropertyOrder({"reads_checked", "unpredictable_reads", "pct", "tau_pct", "meets_tau", "reads_skipped", "actions",
        "freshness", "samples", "validation", "merged_from_workers"})
public record Unpredictable(long readsChecked, long unpredictableReads, double pct, Double tauPct, boolean meetsTau,
                            long readsSkipped, Map<String, ActionReads> actions, Freshness freshness,
                            List<Sample> samples,
                            @JsonInclude(JsonInclude.Include.NON_NULL) Stats validation,
                            @JsonInclude(JsonInclude.Include.NON_NULL) Integer mergedFromWorkers) {

    public Unpredictable {
        actions = actions == null ? Map.of() : actions;
        freshness = freshness == null ? new Freshness(0, 0, List.of()) : freshness;
        samples = samples == null ? List.of() : samples;
    }

    /** Reads of one action. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonPropertyOrder({"reads_checked", "unpredictable_reads", "pct"})
    public record ActionReads(long readsChecked, long unpredictableReads, double pct) {
    }

    /**
     * Of the reads that started t after the last write on their item, the share that saw the freshest value, in
     * buckets up to the horizon (dissertation eq. 6.1).
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonPropertyOrder({"horizon_ms", "reads", "buckets"})
    public record Freshness(double horizonMs, long reads, List<Bucket> buckets) {
        public Freshness {
            buckets = buckets == null ? List.of() : buckets;
        }
    }

    /** One bucket of the freshness curve: p is the fresh share in it, pAtMost that of all reads up to its end. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonPropertyOrder({"from_ms", "to_ms", "reads", "valid", "p", "p_at_most"})
    public record Bucket(double fromMs, double toMs, long reads, long valid, Double p, Double pAtMost) {
    }

    /** One unpredictable read: which action, which item, what it saw and what was acceptable. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonPropertyOrder({"action", "item", "observed", "acceptable", "duration_us"})
    public record Sample(String action, String item, long observed, String acceptable, long durationUs) {
    }

    /** How the validator ran. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonPropertyOrder({"records", "seconds", "records_per_s", "threads", "partitions", "spilled_bytes", "warnings"})
    public record Stats(long records, double seconds, double recordsPerS, int threads, int partitions,
                        long spilledBytes, List<String> warnings) {
    }
}
