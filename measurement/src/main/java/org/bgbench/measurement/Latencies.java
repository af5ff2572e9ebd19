package org.bgbench.measurement;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Base64;
import java.util.zip.DataFormatException;
import org.HdrHistogram.Histogram;

/**
 * The latency histogram configuration every BG histogram shares, so that histograms from different threads, seconds,
 * workers and result files can be added without loss: values in nanoseconds from 1 µs to 1 hour with 3 significant
 * decimal digits (every recorded latency is known to within 0.1 % or 512 ns, whichever is larger: 512 ns is the
 * unit HdrHistogram derives from a lowest discernible value of 1 µs, and the slot width up to 1.05 ms). Values outside the range are clamped.
 */
public final class Latencies {
    /** Lowest discernible latency, ns. */
    public static final long LOWEST_NS = 1_000L;
    /** Highest trackable latency (one hour), ns; longer latencies are recorded as this value. */
    public static final long HIGHEST_NS = 3_600_000_000_000L;
    /** Significant decimal digits. */
    public static final int DIGITS = 3;

    static final LatencyLayout LAYOUT = new LatencyLayout(LOWEST_NS, HIGHEST_NS, DIGITS);

    private Latencies() {}

    /** An empty dense histogram with BG's configuration. */
    public static Histogram newHistogram() {
        return new Histogram(LOWEST_NS, HIGHEST_NS, DIGITS);
    }

    /** HdrHistogram's compressed encoding in Base64, the form result files carry. */
    public static String encode(Histogram histogram) {
        ByteBuffer buffer = ByteBuffer.allocate(histogram.getNeededByteBufferCapacity());
        int length = histogram.encodeIntoCompressedByteBuffer(buffer);
        return Base64.getEncoder().encodeToString(Arrays.copyOf(buffer.array(), length));
    }

    /** Decodes {@link #encode}; the result is a dense histogram that accepts BG's whole range. */
    public static Histogram decode(String base64) {
        try {
            Histogram decoded = Histogram.decodeFromCompressedByteBuffer(
                    ByteBuffer.wrap(Base64.getDecoder().decode(base64)), HIGHEST_NS);
            Histogram histogram = newHistogram();
            histogram.add(decoded);
            return histogram;
        } catch (DataFormatException e) {
            throw new IllegalArgumentException("not an encoded HdrHistogram", e);
        }
    }

    /** Nanoseconds to milliseconds. */
    public static double millis(long nanos) {
        return nanos / 1e6;
    }
}
