package org.bgbench.study;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

/** A figure a study keeps per point, read from the point's result JSON by its pointer. */
public enum Measure {
    THROUGHPUT("/throughput", "actions/s"),
    P50_MS("/total/p50_ms", "p50 latency (ms)"),
    P95_MS("/total/p95_ms", "p95 latency (ms)"),
    P99_MS("/total/p99_ms", "p99 latency (ms)"),
    MEAN_MS("/total/mean_ms", "mean latency (ms)"),
    WITHIN_BETA_PCT("/total/within_beta_pct", "% of actions within β"),
    UNPREDICTABLE_PCT("/unpredictable/pct", "unpredictable reads (%)"),
    ERRORS("/total/errors", "failed actions");

    private final String pointer;
    private final String label;

    Measure(String pointer, String label) {
        this.pointer = pointer;
        this.label = label;
    }

    /** Its key in study files, study.json and the CSV's name. */
    public String key() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Its default axis label. */
    public String label() {
        return label;
    }

    /** Its value in a result, or null when the result has none (no validation, nothing completed). */
    public Double of(JsonNode result) {
        JsonNode v = result.at(pointer);
        return v.isNumber() ? v.asDouble() : null;
    }

    public static Optional<Measure> of(String key) {
        return Arrays.stream(values()).filter(m -> m.key().equals(key)).findFirst();
    }

    public static String names() {
        return Arrays.stream(values()).map(Measure::key).collect(Collectors.joining(", "));
    }
}
