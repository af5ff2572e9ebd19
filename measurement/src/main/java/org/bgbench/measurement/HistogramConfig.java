package org.bgbench.measurement;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

/** The latency histograms' configuration, written into results so readers know their precision. */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record HistogramConfig(String unit, long lowestNs, long highestNs, int significantDigits) {
    public static HistogramConfig current() {
        return new HistogramConfig("ns", Latencies.LOWEST_NS, Latencies.HIGHEST_NS, Latencies.DIGITS);
    }
}
