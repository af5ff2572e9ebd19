package org.bgbench.measurement;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A run's {@code unpredictable} section: what validation found (dissertation chapter 6). Produced by the engine after
 * a run, merged over workers by {@link org.bgbench.measurement.merge.ResultMerger}.
 *
 * @param readsChecked       reads checked against the writes
 * @param unpredictableReads reads that no serial order of the writes explains
 * @param pct                their % of the reads checked (of the reads that could be checked, when incomplete)
 * @param tauPct             τ of the SLA, %
 * @param meetsTau           complete and pct ≤ τ: an incomplete validation never meets τ
 * @param readsSkipped       reads that could not be decided (absolute writes without an initial value)
 * @param actions            the same per action (by its short name)
 * @param freshness          the freshness-confidence curve
 * @param samples            a few unpredictable reads, to show what was seen
 * @param validation         how the validator ran (absent in a result merged from workers)
 * @param mergedFromWorkers  how many workers' sections were merged (absent in one process)
 * @param complete           whether every log the run wrote was there and intact (its manifest says what should be
 *                           there); absent in results written before BG checked, read as true
 * @param incompleteReason   why not, and what it means for the figures: with writes missing no read is checked (the
 *                           counts are 0); with only reads missing the others were checked soundly; null when complete
 * @param readsUnchecked     reads the run logged that could not be checked (a lower bound when the run left no
 *                           manifest)
 * @param files              what is wrong with which log file, where
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonPropertyOrder({
    "reads_checked",
    "unpredictable_reads",
    "pct",
    "tau_pct",
    "meets_tau",
    "complete",
    "incomplete_reason",
    "reads_unchecked",
    "files",
    "reads_skipped",
    "actions",
    "freshness",
    "samples",
    "validation",
    "merged_from_workers"
})
public record Unpredictable(
        long readsChecked,
        long unpredictableReads,
        double pct,
        Double tauPct,
        boolean meetsTau,
        long readsSkipped,
        Map<String, ActionReads> actions,
        Freshness freshness,
        List<Sample> samples,
        @JsonInclude(JsonInclude.Include.NON_NULL) Stats validation,
        @JsonInclude(JsonInclude.Include.NON_NULL) Integer mergedFromWorkers,
        Boolean complete,
        String incompleteReason,
        Long readsUnchecked,
        List<FileProblem> files) {

    public Unpredictable {
        actions = actions == null ? Map.of() : actions;
        freshness = freshness == null ? new Freshness(0, 0, List.of()) : freshness;
        samples = samples == null ? List.of() : samples;
        complete = complete == null || complete;
        readsUnchecked = readsUnchecked == null ? 0L : readsUnchecked;
        files = files == null ? List.of() : List.copyOf(files);
        if (!complete) {
            meetsTau = false;
        }
    }

    /** A verdict that could not be reached at all (no logs to check, no expected state): {@code reason} says why. */
    public static Unpredictable notChecked(String reason, Double tauPct, List<FileProblem> files) {
        return Unpredictable.builder()
                .readsChecked(0)
                .unpredictableReads(0)
                .pct(0)
                .tauPct(tauPct)
                .meetsTau(false)
                .readsSkipped(0)
                .actions(Map.of())
                .freshness(null)
                .samples(List.of())
                .validation(null)
                .mergedFromWorkers(null)
                .complete(false)
                .incompleteReason(reason)
                .readsUnchecked(0L)
                .files(files)
                .build();
    }

    /** Whether the verdict covers every read the run logged ({@code complete} is never null once constructed). */
    public boolean verdictComplete() {
        return complete == null || complete;
    }

    /** Something wrong with one log file (or the manifest, or the run as a whole when {@code file} is null). */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonPropertyOrder({"file", "offset", "problem"})
    public record FileProblem(String file, Long offset, String problem) {
        @Override
        public String toString() {
            return (file == null
                            ? ""
                            : file + (offset == null ? "" : String.format(Locale.ROOT, " at byte %,d", offset)) + ": ")
                    + problem;
        }
    }

    /** Reads of one action. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonPropertyOrder({"reads_checked", "unpredictable_reads", "pct"})
    public record ActionReads(long readsChecked, long unpredictableReads, double pct) {}

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
    public record Bucket(double fromMs, double toMs, long reads, long valid, Double p, Double pAtMost) {}

    /** One unpredictable read: which action, which item, what it saw and what was acceptable. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonPropertyOrder({"action", "item", "observed", "acceptable", "duration_us"})
    public record Sample(String action, String item, long observed, String acceptable, long durationUs) {}

    /** How the validator ran. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonPropertyOrder({"records", "seconds", "records_per_s", "threads", "partitions", "spilled_bytes", "warnings"})
    public record Stats(
            long records,
            double seconds,
            double recordsPerS,
            int threads,
            int partitions,
            long spilledBytes,
            List<String> warnings) {}

    /** A builder with every figure zero or absent, to be set by name. */
    public static Builder builder() {
        return new Builder();
    }

    /** Builds a {@link Unpredictable} by name rather than by position. */
    public static final class Builder {
        private long readsChecked;
        private long unpredictableReads;
        private double pct;
        private Double tauPct;
        private boolean meetsTau;
        private long readsSkipped;
        private Map<String, ActionReads> actions;
        private Freshness freshness;
        private List<Sample> samples;
        private Stats validation;
        private Integer mergedFromWorkers;
        private Boolean complete;
        private String incompleteReason;
        private Long readsUnchecked;
        private List<FileProblem> files;

        private Builder() {}

        public Builder readsChecked(long v) {
            readsChecked = v;
            return this;
        }

        public Builder unpredictableReads(long v) {
            unpredictableReads = v;
            return this;
        }

        public Builder pct(double v) {
            pct = v;
            return this;
        }

        public Builder tauPct(Double v) {
            tauPct = v;
            return this;
        }

        public Builder meetsTau(boolean v) {
            meetsTau = v;
            return this;
        }

        public Builder readsSkipped(long v) {
            readsSkipped = v;
            return this;
        }

        public Builder actions(Map<String, ActionReads> v) {
            actions = v;
            return this;
        }

        public Builder freshness(Freshness v) {
            freshness = v;
            return this;
        }

        public Builder samples(List<Sample> v) {
            samples = v;
            return this;
        }

        public Builder validation(Stats v) {
            validation = v;
            return this;
        }

        public Builder mergedFromWorkers(Integer v) {
            mergedFromWorkers = v;
            return this;
        }

        public Builder complete(Boolean v) {
            complete = v;
            return this;
        }

        public Builder incompleteReason(String v) {
            incompleteReason = v;
            return this;
        }

        public Builder readsUnchecked(Long v) {
            readsUnchecked = v;
            return this;
        }

        public Builder files(List<FileProblem> v) {
            files = v;
            return this;
        }

        public Unpredictable build() {
            return new Unpredictable(
                    readsChecked,
                    unpredictableReads,
                    pct,
                    tauPct,
                    meetsTau,
                    readsSkipped,
                    actions,
                    freshness,
                    samples,
                    validation,
                    mergedFromWorkers,
                    complete,
                    incompleteReason,
                    readsUnchecked,
                    files);
        }
    }
}
