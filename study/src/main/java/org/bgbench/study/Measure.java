package org.bgbench.study;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Arrays;
import java.util.Iterator;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.bgbench.model.Action;

/**
 * A figure a study keeps per point, read from the point's result JSON by its pointer, or computed from its actions
 * (the mean service times of reads and writes and the share of writes, CIKM 2013 section H's Q̄, Ū and u).
 */
public enum Measure {
    THROUGHPUT("/throughput", "actions/s"),
    P50_MS("/total/p50_ms", "p50 latency (ms)"),
    P95_MS("/total/p95_ms", "p95 latency (ms)"),
    P99_MS("/total/p99_ms", "p99 latency (ms)"),
    MEAN_MS("/total/mean_ms", "mean latency (ms)"),
    WITHIN_BETA_PCT("/total/within_beta_pct", "% of actions within β"),
    UNPREDICTABLE_PCT("/unpredictable/pct", "unpredictable reads (%)"),
    ERRORS("/total/errors", "failed actions"),
    READ_MS(r -> ServiceTimes.of(r).readMs(), "mean service time of reads (ms)"),
    WRITE_MS(r -> ServiceTimes.of(r).writeMs(), "mean service time of writes (ms)"),
    WRITE_PCT(r -> ServiceTimes.of(r).writePct(), "% of actions that write"),
    // A rate study's measures, read from the point's rating.json (dissertation 7.1 and eq. 7.1 of 7.4).
    SOAR("/soar/actions_per_second", "SoAR (actions/s)"),
    SOAR_THREADS("/soar/threads", "T at SoAR"),
    SOCIALITES("/socialites/threads", "Socialites"),
    EXPERIMENTS("/experiments_run", "experiments run"),
    RATING_S("/rating_time/total_s", "rating time Λ (s)"),
    LOAD_S("/rating_time/zeta_s", "ζ, before the first experiment (s)"),
    RESETS("/rating_time/omega", "ω, resets other than LoadFree"),
    RESET_S("/rating_time/reset_s", "ω·ν, time in resets (s)"),
    SEARCH_S("/rating_time/search_measured_s", "search experiments (s)"),
    CONFIRMATION_S("/rating_time/confirmation_s", "Δ, confirmation runs (s)");

    private final Function<JsonNode, Double> read;
    private final String label;

    Measure(String pointer, String label) {
        this(
                r -> {
                    JsonNode v = r.at(pointer);
                    return v.isNumber() ? v.asDouble() : null;
                },
                label);
    }

    Measure(Function<JsonNode, Double> read, String label) {
        this.read = read;
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
        return read.apply(result);
    }

    public static Optional<Measure> of(String key) {
        return Arrays.stream(values()).filter(m -> m.key().equals(key)).findFirst();
    }

    public static String names() {
        return Arrays.stream(values()).map(Measure::key).collect(Collectors.joining(", "));
    }

    /** The count-weighted mean service times of a result's read and write actions, and the share of writes. */
    private record ServiceTimes(long reads, double readSum, long writes, double writeSum) {
        static ServiceTimes of(JsonNode result) {
            long reads = 0;
            long writes = 0;
            double readSum = 0;
            double writeSum = 0;
            for (Iterator<Map.Entry<String, JsonNode>> it =
                            result.path("actions").fields();
                    it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                long n = e.getValue().path("count").asLong();
                JsonNode mean = e.getValue().path("mean_ms");
                Action a = action(e.getKey());
                if (n == 0 || !mean.isNumber() || a == null) {
                    continue;
                }
                if (a.isWrite()) {
                    writes += n;
                    writeSum += n * mean.asDouble();
                } else {
                    reads += n;
                    readSum += n * mean.asDouble();
                }
            }
            return new ServiceTimes(reads, readSum, writes, writeSum);
        }

        private static Action action(String code) {
            try {
                return Action.valueOf(code);
            } catch (IllegalArgumentException e) {
                return null; // a session's or another kind's row: not an action
            }
        }

        Double readMs() {
            return reads == 0 ? null : readSum / reads;
        }

        Double writeMs() {
            return writes == 0 ? null : writeSum / writes;
        }

        Double writePct() {
            return reads + writes == 0 ? null : 100.0 * writes / (reads + writes);
        }
    }

    /** Whether a rate study keeps it (read from a rating's JSON), not a run study. */
    public boolean ofRating() {
        return switch (this) {
            case SOAR,
                    SOAR_THREADS,
                    SOCIALITES,
                    EXPERIMENTS,
                    RATING_S,
                    LOAD_S,
                    RESETS,
                    RESET_S,
                    SEARCH_S,
                    CONFIRMATION_S -> true;
            default -> false;
        };
    }

    /** The measures of a rate study ({@code rating}) or a run study. */
    public static String names(boolean rating) {
        return Arrays.stream(values())
                .filter(m -> m.ofRating() == rating)
                .map(Measure::key)
                .collect(Collectors.joining(", "));
    }
}
