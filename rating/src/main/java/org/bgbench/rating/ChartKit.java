package org.bgbench.rating;

import java.util.ArrayList;
import java.util.List;

/** What the report's SVG charts share: scales, nice ticks, label placement without overlaps, and SVG primitives. */
final class ChartKit {
    private ChartKit() {}

    record Scale(boolean log, double lo, double hi, double from, double to) {
        static Scale linear(double lo, double hi, double from, double to) {
            return new Scale(false, lo, hi, from, to);
        }

        static Scale log(double lo, double hi, double from, double to) {
            return new Scale(true, lo, hi, from, to);
        }

        double at(double v) {
            double p;
            if (log) {
                p = hi <= lo ? 0.5 : (Math.log(Math.max(v, lo)) - Math.log(lo)) / (Math.log(hi) - Math.log(lo));
            } else {
                p = hi <= lo ? 0.5 : (v - lo) / (hi - lo);
            }
            return from + (to - from) * p;
        }
    }

    /** Places small labels next to points without overlapping each other, the points, or leaving the plot. */
    static final class Labels {
        private final double left;
        private final double top;
        private final double right;
        private final double bottom;
        private final List<double[]> taken = new ArrayList<>();

        Labels(double left, double top, double right, double bottom) {
            this.left = left;
            this.top = top;
            this.right = right;
            this.bottom = bottom;
        }

        void occupy(double x0, double y0, double x1, double y1) {
            taken.add(new double[] {x0, y0, x1, y1});
        }

        void place(StringBuilder s, double x, double y, String label, String colour, boolean sidesFirst) {
            double w = 5.6 * label.length() + 2;
            double h = 11;
            // Baseline positions: above, below, right, left (or right, left, above, below).
            double[] above = {x - w / 2, y - 9};
            double[] below = {x - w / 2, y + 18};
            double side = sidesFirst ? 14 : 9;
            double[] right = {x + side, y + 4};
            double[] leftOf = {x - side - w, y + 4};
            double[][] tries = sidesFirst
                    ? new double[][] {right, leftOf, above, below}
                    : new double[][] {above, below, right, leftOf};
            for (double[] t : tries) {
                double x0 = t[0];
                double y0 = t[1] - h + 2;
                double x1 = x0 + w;
                double y1 = t[1] + 2;
                if (x0 < left - 20 || x1 > this.right + 30 || y0 < top || y1 > bottom) {
                    continue;
                }
                boolean free = true;
                for (double[] b : taken) {
                    if (x0 < b[2] && b[0] < x1 && y0 < b[3] && b[1] < y1) {
                        free = false;
                        break;
                    }
                }
                if (free) {
                    occupy(x0, y0, x1, y1);
                    text(s, x0, t[1], "start", 10, null, label, colour);
                    return;
                }
            }
        }
    }

    static List<Double> log2Ticks(int minT, int maxT) {
        List<Double> t = new ArrayList<>();
        int first = 31 - Integer.numberOfLeadingZeros(Math.max(1, minT));
        int last = 31 - Integer.numberOfLeadingZeros(Math.max(1, maxT));
        int step = Math.max(1, (last - first + 1 + 11) / 12);
        for (int k = first; k <= last; k += step) {
            t.add((double) (1L << k));
        }
        return t;
    }

    static List<Double> linearTicks(double max) {
        List<Double> t = new ArrayList<>();
        // T and the rate's steps are whole numbers: no tick between two of them.
        double step = Math.max(1, niceStep(max / 8));
        for (double v = 0; v <= max + 1e-9; v += step) {
            t.add(v);
        }
        return t;
    }

    static double niceStep(double raw) {
        if (raw <= 0) {
            return 1;
        }
        double p = Math.pow(10, Math.floor(Math.log10(raw)));
        double m = raw / p;
        double nice = m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10;
        return Math.max(nice * p, 1e-9);
    }

    static double niceMax(double v) {
        double step = niceStep(v / 5);
        return Math.max(step, Math.ceil(v / step - 1e-9) * step);
    }

    static void line(StringBuilder s, double x1, double y1, double x2, double y2, String extra) {
        s.append("<line x1=\"")
                .append(f(x1))
                .append("\" y1=\"")
                .append(f(y1))
                .append("\" x2=\"")
                .append(f(x2))
                .append("\" y2=\"")
                .append(f(y2))
                .append('"')
                .append(extra == null ? "" : " " + extra)
                .append("/>\n");
    }

    static void text(StringBuilder s, double x, double y, String anchor, int size, String weight, String content) {
        text(s, x, y, anchor, size, weight, content, null);
    }

    static void text(
            StringBuilder s,
            double x,
            double y,
            String anchor,
            int size,
            String weight,
            String content,
            String colour) {
        Svg.text(s, x, y, anchor, size, weight, content, colour, null);
    }

    static String f(double v) {
        return Svg.num(v);
    }
}
