package org.bgbench.runner;

import java.util.Locale;
import org.bgbench.model.InvalidParameterException;

/** How a run's reads are validated (dissertation chapter 6); see {@link RunKeys#validation}. */
public record ValidationOptions(long memoryBytes, int threads, int buckets, double tauPct, boolean keepLogs) {

    public static ValidationOptions defaults() {
        return new ValidationOptions(1L << 30, Runtime.getRuntime().availableProcessors(), 10, 0.01, true);
    }

    /** Parses 512m, 2g, 100k or plain bytes. */
    public static long parseBytes(String key, String text) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        long unit = 1;
        if (t.endsWith("b")) {
            t = t.substring(0, t.length() - 1);
        }
        if (t.endsWith("k")) {
            unit = 1L << 10;
        } else if (t.endsWith("m")) {
            unit = 1L << 20;
        } else if (t.endsWith("g")) {
            unit = 1L << 30;
        }
        if (unit > 1) {
            t = t.substring(0, t.length() - 1);
        }
        try {
            long n = Long.parseLong(t.trim());
            if (n >= 1 && n <= Long.MAX_VALUE / unit && n * unit >= 1L << 20) {
                return n * unit;
            }
        } catch (NumberFormatException e) {
            // fall through
        }
        throw new InvalidParameterException(
                key, "expected a size of at least 1m such as 512m or 2g, got '" + text + "'");
    }
}
