package org.bgbench.study.report;

import java.util.Locale;

/** How the report writes numbers: thousands separators, and decimals only where the value is small. */
public final class Numbers {
    private Numbers() {}

    /** 12,345 for large values, 12.3 and 1.23 for small ones, integers without decimals. */
    public static String format(double v) {
        if (Double.isNaN(v) || Double.isInfinite(v)) {
            return "–";
        }
        double a = Math.abs(v);
        if (a >= 100 || v == Math.rint(v)) {
            return String.format(Locale.ROOT, "%,.0f", v);
        }
        if (a >= 10) {
            return strip(String.format(Locale.ROOT, "%,.1f", v));
        }
        if (a >= 0.1) {
            return strip(String.format(Locale.ROOT, "%.2f", v));
        }
        return strip(String.format(Locale.ROOT, "%.3g", v));
    }

    /** A factor: 2.4×, 12×. */
    public static String factor(double v) {
        return (Math.abs(v) >= 10 ? String.format(Locale.ROOT, "%,.0f", v) : String.format(Locale.ROOT, "%.2f", v))
                + "×";
    }

    /** A signed percentage: +12%, −30%. */
    public static String percent(double fraction) {
        long p = Math.round(fraction * 100);
        return (p > 0 ? "+" : p < 0 ? "−" : "±") + Math.abs(p) + "%";
    }

    /** A tick label for {@code v} on an axis whose ticks are {@code step} apart: as many decimals as the step has. */
    public static String tick(double v, double step) {
        int decimals = step >= 1 ? 0 : (int) Math.ceil(-Math.log10(step) - 1e-9);
        return String.format(Locale.ROOT, "%,." + decimals + "f", v);
    }

    private static String strip(String s) {
        if (!s.contains(".") || s.contains("e")) {
            return s;
        }
        s = s.replaceAll("0+$", "");
        return s.endsWith(".") ? s.substring(0, s.length() - 1) : s;
    }
}
