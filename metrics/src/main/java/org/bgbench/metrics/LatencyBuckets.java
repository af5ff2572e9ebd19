package org.bgbench.metrics;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;

/**
 * The classic Prometheus buckets of {@code bg_latency_seconds}, and the folding of BG's per-second HdrHistograms into
 * them. Every recorded HdrHistogram slot goes into the first bucket whose upper bound is at least the slot's lowest
 * value, as HdrHistogram's own count at or below a value does: a value on a bound is in that bucket, and a bucket may
 * also hold values up to one slot above its bound (0.1 % or 512 ns, BG's histogram precision). The sum uses each
 * slot's midpoint, as BG's means do. Nothing is re-recorded value by value.
 */
public final class LatencyBuckets {
    /** Upper bounds, seconds, +Inf excluded: 100 µs to 10 s, covering an in-memory store to a stalled server. */
    public static final double[] BOUNDS_SECONDS = {
        0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10
    };

    private static final long[] BOUNDS_NANOS = new long[BOUNDS_SECONDS.length];

    static {
        for (int i = 0; i < BOUNDS_SECONDS.length; i++) {
            BOUNDS_NANOS[i] = Math.round(BOUNDS_SECONDS[i] * 1e9);
        }
    }

    private LatencyBuckets() {}

    /**
     * Adds the values of {@code h} (ns) to {@code counts}, one slot per bucket (not cumulative; the last slot is
     * +Inf), and returns the sum of the values added, ns (slot midpoints).
     */
    public static double addTo(Histogram h, long[] counts) {
        if (counts.length != BOUNDS_SECONDS.length + 1) {
            throw new IllegalArgumentException("expected " + (BOUNDS_SECONDS.length + 1) + " bucket counts");
        }
        if (h.getTotalCount() == 0) {
            return 0;
        }
        double sum = 0;
        for (HistogramIterationValue v : h.recordedValues()) {
            long count = v.getCountAtValueIteratedTo();
            long value = v.getValueIteratedTo();
            counts[bucket(h.lowestEquivalentValue(value))] += count;
            long mid = h.medianEquivalentValue(value);
            sum += (double) mid * count;
        }
        return sum;
    }

    /** The index of the first bucket whose bound is at least {@code nanos} ({@code BOUNDS_SECONDS.length}: +Inf). */
    static int bucket(long nanos) {
        int i = 0;
        while (i < BOUNDS_NANOS.length && nanos > BOUNDS_NANOS[i]) {
            i++;
        }
        return i;
    }
}
