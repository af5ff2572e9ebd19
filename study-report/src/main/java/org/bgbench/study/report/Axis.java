package org.bgbench.study.report;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * A chart axis: a linear or log2 map from values to pixels and its ticks, each label distinct and far enough from
 * its neighbours not to overlap.
 */
final class Axis {
    /** One tick: its value and its label. */
    record Tick(double value, String label) {}

    private final boolean log;
    private final double lo;
    private final double hi;
    private final double from;
    private final double to;
    private final List<Tick> ticks;

    private Axis(boolean log, double lo, double hi, double from, double to, List<Tick> ticks) {
        this.log = log;
        this.lo = lo;
        this.hi = hi;
        this.from = from;
        this.to = to;
        this.ticks = ticks;
    }

    /** The y axis of values up to {@code max} (and down to {@code min} when it is below 0), from 0 or below. */
    static Axis values(double min, double max, double from, double to) {
        double lo = Math.min(0, min);
        double hi = max > lo ? max : lo + 1;
        double step = niceStep((hi - lo) / 6);
        lo = Math.floor(lo / step + 1e-9) * step;
        hi = Math.ceil(hi / step - 1e-9) * step;
        List<Tick> ticks = new ArrayList<>();
        for (int i = 0; lo + i * step <= hi + step * 1e-6; i++) {
            double v = lo + i * step;
            ticks.add(new Tick(v, Numbers.tick(Math.abs(v) < step * 1e-6 ? 0 : v, step)));
        }
        return new Axis(false, lo, hi, from, to, distinct(ticks));
    }

    /**
     * The x axis of {@code xs} (measured values, ascending): log2 when they are positive and span 16 times or more;
     * ticks at the measured values where their labels fit apart, nice round ticks otherwise. Markers keep a margin of
     * {@code pad} pixels from the ends.
     */
    static Axis xs(List<Double> xs, double from, double to, double pad) {
        double min = xs.get(0);
        double max = xs.get(xs.size() - 1);
        boolean log = min > 0 && max / min >= 16;
        double lo = min;
        double hi = max;
        if (hi == lo) {
            lo = lo - 1;
            hi = hi + 1;
        }
        Axis probe = new Axis(log, lo, hi, from + pad, to - pad, List.of());
        List<Tick> measured = new ArrayList<>();
        double step = smallestGap(xs);
        for (double v : xs) {
            measured.add(new Tick(v, Numbers.tick(v, step)));
        }
        List<Tick> ticks = fits(probe, measured)
                ? measured
                : !log ? round(probe, lo, hi) : doubling(xs) ? powersOfTwo(probe, min, max) : decades(probe, min, max);
        return new Axis(log, lo, hi, from + pad, to - pad, ticks);
    }

    double at(double v) {
        double p;
        if (log) {
            p = (Math.log(Math.max(v, lo)) - Math.log(lo)) / (Math.log(hi) - Math.log(lo));
        } else {
            p = (v - lo) / (hi - lo);
        }
        return from + (to - from) * p;
    }

    boolean log() {
        return log;
    }

    List<Tick> ticks() {
        return ticks;
    }

    double lo() {
        return lo;
    }

    /** The widest tick label, in characters. */
    int widestLabel() {
        return ticks.stream().mapToInt(t -> t.label().length()).max().orElse(1);
    }

    /** Whether each label, about 7 pixels a character, keeps 8 pixels from the next. */
    private static boolean fits(Axis a, List<Tick> ticks) {
        if (ticks.size() > 14) {
            return false;
        }
        for (int i = 1; i < ticks.size(); i++) {
            double gap =
                    Math.abs(a.at(ticks.get(i).value()) - a.at(ticks.get(i - 1).value()));
            double need = 3.5
                            * (ticks.get(i).label().length()
                                    + ticks.get(i - 1).label().length())
                    + 8;
            if (gap < need) {
                return false;
            }
        }
        return true;
    }

    private static List<Tick> powersOfTwo(Axis a, double min, double max) {
        int first = (int) Math.ceil(Math.log(min) / Math.log(2) - 1e-9);
        int last = (int) Math.floor(Math.log(max) / Math.log(2) + 1e-9);
        for (int every = 1; ; every++) {
            List<Tick> t = new ArrayList<>();
            for (int k = first; k <= last; k += every) {
                double v = Math.pow(2, k);
                t.add(new Tick(v, Numbers.tick(v, v >= 1 ? 1 : v)));
            }
            if (fits(a, t) || t.size() <= 2) {
                return distinct(t);
            }
        }
    }

    /** Whether every x is a power of two (T doubling), so the log axis ticks at powers of two. */
    private static boolean doubling(List<Double> xs) {
        return xs.stream().allMatch(v -> {
            double k = Math.log(v) / Math.log(2);
            return Math.abs(k - Math.rint(k)) < 1e-9;
        });
    }

    /** Ticks at 1, 2 and 5 of each decade, or at each decade alone where those crowd. */
    private static List<Tick> decades(Axis a, double min, double max) {
        for (double[] steps : new double[][] {{1, 2, 5}, {1}}) {
            List<Tick> t = new ArrayList<>();
            for (int e = (int) Math.floor(Math.log10(min)); e <= (int) Math.ceil(Math.log10(max)); e++) {
                for (double m : steps) {
                    double v = m * Math.pow(10, e);
                    if (v >= min * (1 - 1e-9) && v <= max * (1 + 1e-9)) {
                        t.add(new Tick(v, Numbers.tick(v, Math.min(1, Math.pow(10, e)))));
                    }
                }
            }
            if (fits(a, t) || steps.length == 1) {
                return distinct(t);
            }
        }
        throw new IllegalStateException("unreachable");
    }

    private static List<Tick> round(Axis a, double lo, double hi) {
        for (int n = 8; ; n--) {
            double step = niceStep((hi - lo) / n);
            List<Tick> t = new ArrayList<>();
            for (double v = Math.ceil(lo / step - 1e-9) * step; v <= hi + step * 1e-6; v += step) {
                t.add(new Tick(v, Numbers.tick(v, step)));
            }
            if (fits(a, t) || n <= 2) {
                return distinct(t);
            }
        }
    }

    private static double smallestGap(List<Double> xs) {
        double gap = Double.MAX_VALUE;
        for (int i = 1; i < xs.size(); i++) {
            gap = Math.min(gap, xs.get(i) - xs.get(i - 1));
        }
        if (gap == Double.MAX_VALUE) {
            gap = 1;
        }
        // As many decimals as the values need to read apart, and no more than their own.
        double step = 1;
        while (step > 1e-6 && (step > gap || !allWhole(xs, step))) {
            step /= 10;
        }
        return step;
    }

    private static boolean allWhole(List<Double> xs, double step) {
        for (double v : xs) {
            if (!whole(v, step)) {
                return false;
            }
        }
        return true;
    }

    private static boolean whole(double v, double step) {
        double k = v / step;
        return Math.abs(k - Math.rint(k)) < 1e-6;
    }

    /** Drops a tick whose label repeats the one before (rounding). */
    private static List<Tick> distinct(List<Tick> ticks) {
        Set<String> seen = new LinkedHashSet<>();
        List<Tick> out = new ArrayList<>();
        for (Tick t : ticks) {
            if (seen.add(t.label())) {
                out.add(t);
            }
        }
        return out;
    }

    static double niceStep(double raw) {
        if (raw <= 0) {
            return 1;
        }
        double p = Math.pow(10, Math.floor(Math.log10(raw)));
        double m = raw / p;
        double e = 1e-9; // 0.2 / 0.1 is 2.0000000000000004
        return (m <= 1 + e ? 1 : m <= 2 + e ? 2 : m <= 5 + e ? 5 : 10) * p;
    }
}
