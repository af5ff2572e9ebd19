package org.bgbench.measurement.open;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import org.HdrHistogram.Histogram;
import org.bgbench.measurement.Latencies;

/**
 * A distribution of times in the open model's figures (start delays, service times, a phase's response times), with its
 * histogram for lossless merging. Figures are null when nothing was recorded.
 *
 * @param count values recorded
 * @param hdr   the histogram (ns), HdrHistogram's compressed encoding in Base64
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record LatencySummary(
        long count, Double p50Ms, Double p95Ms, Double p99Ms, Double p999Ms, Double maxMs, Double meanMs, String hdr) {

    public static LatencySummary of(Histogram h) {
        long n = h.getTotalCount();
        boolean any = n > 0;
        return new LatencySummary(
                n,
                any ? Latencies.millis(h.getValueAtPercentile(50)) : null,
                any ? Latencies.millis(h.getValueAtPercentile(95)) : null,
                any ? Latencies.millis(h.getValueAtPercentile(99)) : null,
                any ? Latencies.millis(h.getValueAtPercentile(99.9)) : null,
                any ? Latencies.millis(h.getMaxValue()) : null,
                any ? h.getMean() / 1e6 : null,
                Latencies.encode(h));
    }

    /** The histogram, decoded from {@link #hdr}. */
    public Histogram histogram() {
        return hdr == null ? Latencies.newHistogram() : Latencies.decode(hdr);
    }
}
