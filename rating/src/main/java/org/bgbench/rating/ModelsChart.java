package org.bgbench.rating;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * One store's closed and open ratings on one chart (docs/open-model.md): the p99 response time of each experiment
 * against the load it carried, for the closed model's experiments (load: the throughput its T members produced) and
 * the open model's (load: the arrival rate offered), with SoAR, the open-model rating and β marked. Where the closed
 * curve stays under β at a load at which the open one does not, the closed model's members were slowed by the store
 * and hid the queueing a user would have seen: what coordinated omission hides.
 */
public final class ModelsChart {
    private static final int W = 900;
    private static final int H = 520;
    private static final int LEFT = 80;
    private static final int RIGHT = 30;
    private static final int TOP = 70;
    private static final int BOTTOM = 90;
    private static final String CLOSED = "#1565c0";
    private static final String OPEN = "#ef6c00";
    private static final String BETA = "#c62828";

    /**
     * One experiment: the load it carried (actions/s for the closed model, arrivals/s for the open one), its p99
     * response time and whether it met the SLA.
     */
    public record Point(double load, double p99Ms, boolean met) {}

    private ModelsChart() {}

    /**
     * @param soar       the closed model's SoAR (actions/s), or null
     * @param openRating the open-model rating (arrivals/s), or null
     */
    public static String svg(
            String title, List<Point> closed, List<Point> open, Double soar, Double openRating, double betaMs) {
        List<Point> c = sorted(closed);
        List<Point> o = sorted(open);
        double maxX = 1;
        double minY = betaMs;
        double maxY = betaMs;
        for (Point p : concat(c, o)) {
            maxX = Math.max(maxX, p.load());
            if (p.p99Ms() > 0) {
                minY = Math.min(minY, p.p99Ms());
                maxY = Math.max(maxY, p.p99Ms());
            }
        }
        maxX = Math.max(maxX, Math.max(soar == null ? 0 : soar, openRating == null ? 0 : openRating)) * 1.08;
        double lo = Math.pow(10, Math.floor(Math.log10(Math.max(minY, 1e-3))));
        double hi = Math.pow(10, Math.ceil(Math.log10(maxY * 1.01)));
        int pw = W - LEFT - RIGHT;
        int ph = H - TOP - BOTTOM;
        StringBuilder s = new StringBuilder();
        s.append("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"")
                .append(W)
                .append("\" height=\"")
                .append(H)
                .append("\" viewBox=\"0 0 ")
                .append(W)
                .append(' ')
                .append(H)
                .append("\" font-family=\"Helvetica, Arial, sans-serif\" font-size=\"12\" role=\"img\">\n");
        s.append("<title>").append(Svg.esc(title)).append("</title>\n");
        s.append("<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n");
        Svg.text(s, W / 2.0, 24, "middle", 16, "bold", title, null, null);
        Svg.text(
                s,
                W / 2.0,
                44,
                "middle",
                12,
                null,
                "p99 response time against load: closed model (T members) and "
                        + "open model (arrivals at a rate, latency from each arrival's due time)",
                null,
                null);
        // Grid: decades on y, five steps on x.
        s.append("<g stroke=\"#e0e0e0\" stroke-width=\"1\">\n");
        for (double v = lo; v <= hi * 1.0001; v *= 10) {
            double y = y(v, lo, hi, ph);
            line(s, LEFT, y, LEFT + pw, y);
        }
        double step = niceStep(maxX / 5);
        for (double v = 0; v <= maxX; v += step) {
            line(s, x(v, maxX, pw), TOP, x(v, maxX, pw), TOP + ph);
        }
        s.append("</g>\n");
        for (double v = lo; v <= hi * 1.0001; v *= 10) {
            Svg.text(s, LEFT - 8, y(v, lo, hi, ph) + 4, "end", 11, null, ms(v), null, null);
        }
        for (double v = 0; v <= maxX; v += step) {
            Svg.text(s, x(v, maxX, pw), TOP + ph + 18, "middle", 11, null, thousands(v), null, null);
        }
        Svg.text(
                s,
                LEFT + pw / 2.0,
                TOP + ph + 40,
                "middle",
                13,
                null,
                "load: actions/s carried (closed) or arrivals/s offered (open)",
                null,
                null);
        Svg.text(
                s,
                22,
                TOP + ph / 2.0,
                "middle",
                13,
                null,
                "p99 response time (ms, log scale)",
                null,
                "rotate(-90 22 " + Svg.num(TOP + ph / 2.0) + ")");
        // β.
        double by = y(betaMs, lo, hi, ph);
        s.append("<line x1=\"")
                .append(LEFT)
                .append("\" y1=\"")
                .append(Svg.num(by))
                .append("\" x2=\"")
                .append(LEFT + pw)
                .append("\" y2=\"")
                .append(Svg.num(by))
                .append("\" stroke=\"")
                .append(BETA)
                .append("\" stroke-width=\"1.2\" stroke-dasharray=\"3 3\"/>\n");
        Svg.text(s, LEFT + pw - 4, by - 5, "end", 11, null, "β = " + ms(betaMs) + " ms", BETA, null);
        mark(s, soar, maxX, pw, ph, CLOSED, "SoAR " + thousands(soar == null ? 0 : soar) + " actions/s", 14);
        mark(
                s,
                openRating,
                maxX,
                pw,
                ph,
                OPEN,
                "open-model rating " + thousands(openRating == null ? 0 : openRating) + " arrivals/s",
                30);
        series(s, c, maxX, lo, hi, pw, ph, CLOSED, false);
        series(s, o, maxX, lo, hi, pw, ph, OPEN, true);
        double ly = H - 22;
        s.append("<circle cx=\"")
                .append(LEFT)
                .append("\" cy=\"")
                .append(Svg.num(ly - 4))
                .append("\" r=\"4.5\" fill=\"")
                .append(CLOSED)
                .append("\"/>\n");
        Svg.text(s, LEFT + 10, ly, "start", 11, null, "closed model (SoAR search)", null, null);
        s.append("<rect x=\"")
                .append(LEFT + 200 - 4.5)
                .append("\" y=\"")
                .append(Svg.num(ly - 8.5))
                .append("\" width=\"9\" height=\"9\" fill=\"")
                .append(OPEN)
                .append("\"/>\n");
        Svg.text(s, LEFT + 210, ly, "start", 11, null, "open model (rate search)", null, null);
        Svg.text(s, LEFT + 380, ly, "start", 11, null, "hollow: missed the SLA", null, null);
        return s.append("</svg>\n").toString();
    }

    private static void series(
            StringBuilder s,
            List<Point> ps,
            double maxX,
            double lo,
            double hi,
            int pw,
            int ph,
            String colour,
            boolean square) {
        List<Point> shown = ps.stream().filter(p -> p.p99Ms() > 0).toList();
        if (shown.size() > 1) {
            s.append("<polyline fill=\"none\" stroke=\"").append(colour).append("\" stroke-width=\"1.8\" points=\"");
            for (Point p : shown) {
                s.append(Svg.num(x(p.load(), maxX, pw)))
                        .append(',')
                        .append(Svg.num(y(p.p99Ms(), lo, hi, ph)))
                        .append(' ');
            }
            s.append("\"/>\n");
        }
        for (Point p : shown) {
            double x = x(p.load(), maxX, pw);
            double y = y(p.p99Ms(), lo, hi, ph);
            String fill = p.met()
                    ? "fill=\"" + colour + "\""
                    : "fill=\"#ffffff\" stroke=\"" + colour + "\" stroke-width=\"2\"";
            String tip = String.format(
                    Locale.ROOT,
                    "%s %s/s: p99 %s ms, %s",
                    square ? "open" : "closed",
                    thousands(p.load()),
                    ms(p.p99Ms()),
                    p.met() ? "met the SLA" : "missed the SLA");
            if (square) {
                s.append("<rect x=\"")
                        .append(Svg.num(x - 4.5))
                        .append("\" y=\"")
                        .append(Svg.num(y - 4.5))
                        .append("\" width=\"9\" height=\"9\" ")
                        .append(fill);
                s.append("><title>").append(Svg.esc(tip)).append("</title></rect>\n");
            } else {
                s.append("<circle cx=\"")
                        .append(Svg.num(x))
                        .append("\" cy=\"")
                        .append(Svg.num(y))
                        .append("\" r=\"4.5\" ")
                        .append(fill);
                s.append("><title>").append(Svg.esc(tip)).append("</title></circle>\n");
            }
        }
    }

    private static void mark(
            StringBuilder s, Double at, double maxX, int pw, int ph, String colour, String label, int dy) {
        if (at == null || at <= 0) {
            return;
        }
        double x = x(at, maxX, pw);
        s.append("<line x1=\"")
                .append(Svg.num(x))
                .append("\" y1=\"")
                .append(TOP)
                .append("\" x2=\"")
                .append(Svg.num(x))
                .append("\" y2=\"")
                .append(TOP + ph)
                .append("\" stroke=\"")
                .append(colour)
                .append("\" stroke-width=\"1.5\" stroke-dasharray=\"6 4\"/>\n");
        boolean right = x > LEFT + pw * 0.6;
        Svg.text(s, right ? x - 6 : x + 6, TOP + dy, right ? "end" : "start", 12, "bold", label, colour, null);
    }

    private static List<Point> sorted(List<Point> ps) {
        List<Point> l = new ArrayList<>(ps == null ? List.of() : ps);
        l.sort(Comparator.comparingDouble(Point::load));
        return l;
    }

    private static List<Point> concat(List<Point> a, List<Point> b) {
        List<Point> l = new ArrayList<>(a);
        l.addAll(b);
        return l;
    }

    private static double x(double v, double maxX, int pw) {
        return LEFT + v / maxX * pw;
    }

    private static double y(double v, double lo, double hi, int ph) {
        double f = (Math.log10(Math.max(v, lo)) - Math.log10(lo)) / (Math.log10(hi) - Math.log10(lo));
        return TOP + ph - f * ph;
    }

    private static void line(StringBuilder s, double x1, double y1, double x2, double y2) {
        s.append("<line x1=\"")
                .append(Svg.num(x1))
                .append("\" y1=\"")
                .append(Svg.num(y1))
                .append("\" x2=\"")
                .append(Svg.num(x2))
                .append("\" y2=\"")
                .append(Svg.num(y2))
                .append("\"/>\n");
    }

    private static double niceStep(double raw) {
        double mag = Math.pow(10, Math.floor(Math.log10(Math.max(raw, 1e-9))));
        double f = raw / mag;
        return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * mag;
    }

    private static String thousands(double v) {
        return String.format(Locale.ROOT, "%,.0f", v);
    }

    private static String ms(double v) {
        return v >= 10
                ? String.format(Locale.ROOT, "%,.0f", v)
                : v >= 1
                        ? String.format(Locale.ROOT, "%.1f", v)
                        : new BigDecimal(String.format(Locale.ROOT, "%.3g", v))
                                .stripTrailingZeros()
                                .toPlainString();
    }
}
