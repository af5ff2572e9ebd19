package org.bgbench.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import org.HdrHistogram.Histogram;
import org.assertj.core.data.Percentage;
import org.bgbench.measurement.Latencies;
import org.junit.jupiter.api.Test;

/** Folding an HdrHistogram into the classic buckets keeps every value, in the bucket its bound says. */
class LatencyBucketsTest {
    @Test
    void valuesLandInTheFirstBucketWhoseBoundHoldsThem() {
        Histogram h = Latencies.newHistogram();
        h.recordValueWithCount(50_000, 3); // 50 µs: le=0.0001
        h.recordValue(100_000); // exactly 100 µs: le=0.0001
        h.recordValue(120_000); // le=0.00025
        h.recordValueWithCount(99_000_000, 2); // 99 ms: le=0.1
        h.recordValue(101_000_000); // le=0.25
        h.recordValue(11_000_000_000L); // 11 s: +Inf
        long[] counts = new long[LatencyBuckets.BOUNDS_SECONDS.length + 1];
        double sum = LatencyBuckets.addTo(h, counts);
        assertThat(counts[0]).isEqualTo(4);
        assertThat(counts[1]).isEqualTo(1);
        assertThat(counts[9]).isEqualTo(2);
        assertThat(counts[10]).isEqualTo(1);
        assertThat(counts[LatencyBuckets.BOUNDS_SECONDS.length]).isEqualTo(1);
        assertThat(Arrays.stream(counts).sum()).isEqualTo(h.getTotalCount());
        double exact = 3 * 50e3 + 100e3 + 120e3 + 2 * 99e6 + 101e6 + 11e9;
        assertThat(sum).isCloseTo(exact, Percentage.withPercentage(0.1));
        // Adding twice adds up.
        LatencyBuckets.addTo(h, counts);
        assertThat(counts[0]).isEqualTo(8);
        assertThat(LatencyBuckets.addTo(Latencies.newHistogram(), counts)).isZero();
    }
}
