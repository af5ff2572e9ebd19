package org.bgbench.rating;

import java.util.ArrayList;
import java.util.List;
import org.bgbench.rating.RatingReport.Axis;

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

    /** Where a chart's plot sits in its SVG, in pixels. */
    record Box(int width, int height, int left, int right, int top, int bottom) {
        int plotWidth() {
            return width - left - right;
        }

        int plotHeight() {
            return height - top - bottom;
        }
    }

    /** The scales of a drawn plot; {@code log} when T spans 16 times or more and is drawn on a log2 axis. */
    record Frame(Scale xs, Scale ys, boolean log) {}

    /** The opening of a chart's SVG: its size, its title and a white background. */
    static void open(StringBuilder s, Box box, String title) {
        s.append("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"")
                .append(box.width())
                .append("\" height=\"")
                .append(box.height())
                .append("\" viewBox=\"0 0 ")
                .append(box.width())
                .append(' ')
                .append(box.height())
                .append("\" font-family=\"Helvetica, Arial, sans-serif\" font-size=\"12\" role=\"img\">\n");
        s.append("<title>").append(ReportText.esc(title)).append("</title>\n");
        s.append("<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n");
    }

    /**
     * Draws a plot of T from {@code minT} to {@code maxT} against 0 to {@code yMax}: its grid, ticks, axes and axis
     * labels; returns its scales.
     */
    static Frame frame(StringBuilder s, Box box, Axis axis, int minT, int maxT, double yMax, String yLabel) {
        int left = box.left();
        int top = box.top();
        int pw = box.plotWidth();
        int ph = box.plotHeight();
        boolean log = maxT / (double) minT >= 16;
        Scale xs = log ? Scale.log(minT, maxT, left, left + pw) : Scale.linear(0, niceMax(maxT), left, left + pw);
        Scale ys = Scale.linear(0, yMax, top + ph, top);
        s.append("<g stroke=\"#e0e0e0\" stroke-width=\"1\">\n");
        double yStep = niceStep(yMax / 5);
        for (double v = 0; v <= yMax + 1e-9; v += yStep) {
            line(s, left, ys.at(v), left + pw, ys.at(v), null);
        }
        List<Double> xTicks = log ? log2Ticks(minT, maxT) : linearTicks(niceMax(maxT));
        for (double v : xTicks) {
            line(s, xs.at(v), top, xs.at(v), top + ph, null);
        }
        s.append("</g>\n");
        for (double v = 0; v <= yMax + 1e-9; v += yStep) {
            text(s, left - 8, ys.at(v) + 4, "end", 11, null, ReportText.thousands(v));
        }
        for (double v : xTicks) {
            text(s, xs.at(v), top + ph + 18, "middle", 11, null, ReportText.thousands(v * axis.unit()));
        }
        s.append("<g stroke=\"#424242\" stroke-width=\"1.2\">\n");
        line(s, left, top, left, top + ph, null);
        line(s, left, top + ph, left + pw, top + ph, null);
        s.append("</g>\n");
        text(
                s,
                left + pw / 2.0,
                top + ph + 40,
                "middle",
                13,
                null,
                (axis == Axis.THREADS ? "threads T" : axis.name()) + (log ? " (log scale)" : ""));
        s.append("<text x=\"22\" y=\"")
                .append(f(top + ph / 2.0))
                .append("\" text-anchor=\"middle\" font-size=\"13\" transform=\"rotate(-90 22 ")
                .append(f(top + ph / 2.0))
                .append(")\">")
                .append(yLabel)
                .append("</text>\n");
        return new Frame(xs, ys, log);
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
