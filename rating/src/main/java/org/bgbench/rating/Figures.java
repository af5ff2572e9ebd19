package org.bgbench.rating;

import java.util.Locale;

/**
 * Figures as warnings print them: counts and throughputs with thousands separators (59,001), others with at most three
 * decimals and no trailing zeros (96, 99.5, 0.004).
 */
public final class Figures {
    private Figures() {}

    /** A figure for a sentence: whole from 1,000 up, one decimal from 100, two from 1, three significant below 1. */
    public static String of(double v) {
        if (Double.isNaN(v) || Double.isInfinite(v)) {
            return Double.isNaN(v) ? "n/a" : v > 0 ? "∞" : "-∞";
        }
        double a = Math.abs(v);
        if (a >= 1000 || v == Math.rint(v)) {
            return String.format(Locale.ROOT, "%,.0f", v);
        }
        String s = a >= 100
                ? String.format(Locale.ROOT, "%.1f", v)
                : a >= 1 ? String.format(Locale.ROOT, "%.2f", v) : String.format(Locale.ROOT, "%.3g", v);
        if (s.contains("e")) {
            s = String.format(Locale.ROOT, "%.3f", v);
        }
        return s.contains(".") ? s.replaceAll("0+$", "").replaceAll("\\.$", "") : s;
    }
}
