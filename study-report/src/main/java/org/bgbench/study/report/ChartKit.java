package org.bgbench.study.report;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** What the line and bar charts share: colours per series, the SVG's opening, the y axis and the legend. */
final class ChartKit {
    /** Okabe and Ito's colour-blind-safe palette (its yellow left out: too pale on white), then greys. */
    private static final List<String> PALETTE =
            List.of("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#8C8C8C");

    static final int WIDTH = 820;
    static final double CHAR = 7.0; // an 12px Helvetica character, about

    private ChartKit() {}

    /** A colour for each series name, ours first, then the paper's names that are not ours. */
    static Map<String, String> colours(Figure f) {
        Map<String, String> c = new LinkedHashMap<>();
        f.series().forEach(s -> c.putIfAbsent(s.name(), PALETTE.get(c.size() % PALETTE.size())));
        f.paper().forEach(p -> c.putIfAbsent(p.series(), PALETTE.get(c.size() % PALETTE.size())));
        return c;
    }

    static void open(StringBuilder s, Figure f, int height, String style) {
        s.append("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart ")
                .append(style)
                .append("\" data-figure=\"")
                .append(Html.esc(f.id()))
                .append("\" width=\"")
                .append(WIDTH)
                .append("\" height=\"")
                .append(height)
                .append("\" viewBox=\"0 0 ")
                .append(WIDTH)
                .append(' ')
                .append(height)
                .append("\" font-family=\"Helvetica, Arial, sans-serif\" font-size=\"12\" role=\"img\">\n<title>")
                .append(Html.esc(f.title()))
                .append("</title>\n<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n");
    }

    /** The left margin that holds the y tick labels and the rotated y label. */
    static int left(Axis ys) {
        return (int) Math.ceil(ys.widestLabel() * CHAR + 44);
    }

    /** Horizontal grid lines, tick labels and the rotated label of the y axis, from {@code x0} to {@code x1}. */
    static void yAxis(StringBuilder s, Axis ys, double x0, double x1, double top, double bottom, String label) {
        s.append("<g class=\"grid\" stroke=\"#e6e6e6\">\n");
        for (Axis.Tick t : ys.ticks()) {
            line(s, x0, ys.at(t.value()), x1, ys.at(t.value()));
        }
        s.append("</g>\n");
        for (Axis.Tick t : ys.ticks()) {
            text(s, x0 - 8, ys.at(t.value()) + 4, "end", 11, t.label(), "ytick");
        }
        double mid = (top + bottom) / 2;
        s.append("<text x=\"16\" y=\"")
                .append(Html.f(mid))
                .append("\" text-anchor=\"middle\" font-size=\"13\" transform=\"rotate(-90 16 ")
                .append(Html.f(mid))
                .append(")\">")
                .append(Html.esc(label))
                .append("</text>\n");
    }

    /**
     * The legend below the plot from {@code y}: a swatch per series, then what a hollow marker means when the
     * figure has the paper's points; wraps to more rows as needed. Returns the y below it.
     */
    static double legend(
            StringBuilder s, Map<String, String> colours, boolean paper, boolean bars, double x0, double y) {
        double x = x0;
        s.append("<g class=\"legend\">\n");
        for (Map.Entry<String, String> e : colours.entrySet()) {
            double w = 26 + e.getKey().length() * CHAR + 18;
            if (x + w > WIDTH - 10 && x > x0) {
                x = x0;
                y += 20;
            }
            s.append("<rect x=\"")
                    .append(Html.f(x))
                    .append("\" y=\"")
                    .append(Html.f(y - 9))
                    .append("\" width=\"18\" height=\"10\" fill=\"")
                    .append(e.getValue())
                    .append("\"/>\n");
            text(s, x + 24, y, "start", 12, e.getKey(), "legend-name");
            x += w;
        }
        if (paper) {
            String what = "hollow: the paper's published value";
            if (x + 26 + what.length() * CHAR > WIDTH - 10 && x > x0) {
                x = x0;
                y += 20;
            }
            if (bars) {
                s.append("<rect x=\"")
                        .append(Html.f(x + 1))
                        .append("\" y=\"")
                        .append(Html.f(y - 9))
                        .append(
                                "\" width=\"16\" height=\"10\" fill=\"#ffffff\" stroke=\"#424242\" stroke-width=\"2\"/>\n");
            } else {
                s.append("<circle cx=\"")
                        .append(Html.f(x + 8))
                        .append("\" cy=\"")
                        .append(Html.f(y - 4))
                        .append("\" r=\"5\" fill=\"#ffffff\" stroke=\"#424242\" stroke-width=\"2\"/>\n");
            }
            text(s, x + 24, y, "start", 12, what, "legend-name");
        }
        s.append("</g>\n");
        return y + 10;
    }

    /** How many pixels the legend takes below its first row's baseline, for the SVG's height. */
    static int legendRows(Map<String, String> colours, boolean paper, double x0) {
        double x = x0;
        int rows = 1;
        for (String name : colours.keySet()) {
            double w = 26 + name.length() * CHAR + 18;
            if (x + w > WIDTH - 10 && x > x0) {
                x = x0;
                rows++;
            }
            x += w;
        }
        if (paper && x + 26 + 36 * CHAR > WIDTH - 10 && x > x0) {
            rows++;
        }
        return rows;
    }

    static void line(StringBuilder s, double x0, double y0, double x1, double y1) {
        s.append("<line x1=\"")
                .append(Html.f(x0))
                .append("\" y1=\"")
                .append(Html.f(y0))
                .append("\" x2=\"")
                .append(Html.f(x1))
                .append("\" y2=\"")
                .append(Html.f(y1))
                .append("\"/>\n");
    }

    static void text(StringBuilder s, double x, double y, String anchor, int size, String text, String cls) {
        s.append("<text class=\"")
                .append(cls)
                .append("\" x=\"")
                .append(Html.f(x))
                .append("\" y=\"")
                .append(Html.f(y))
                .append("\" text-anchor=\"")
                .append(anchor)
                .append("\" font-size=\"")
                .append(size)
                .append("\">")
                .append(Html.esc(text))
                .append("</text>\n");
    }

    /** The hover text of one of our points: series, x, y and each repetition. */
    static String hover(Figure f, Figure.Series series, Figure.Point p) {
        String t = series.name() + ", " + f.at(p.x()) + ": " + FindingKind.y(f, p.y());
        if (p.runs().size() > 1) {
            t += " (median of " + p.runs().size() + ": "
                    + String.join(", ", p.runs().stream().map(Numbers::format).toList()) + ")";
        }
        return t;
    }

    /** The data attributes the page's numbers are read back by: which series, which x, which y. */
    static String data(String series, Figure.X x, double y, boolean paper) {
        return " data-series=\"" + Html.esc(series) + "\" data-x=\"" + Html.esc(raw(x)) + "\" data-y=\"" + raw(y)
                + "\" data-source=\"" + (paper ? "paper" : "ours") + "\"";
    }

    /** A number as JSON writes it (no separators), for data attributes. */
    static String raw(double v) {
        return v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v) : Double.toString(v);
    }

    static String raw(Figure.X x) {
        return x.numeric() ? raw(x.number()) : x.category();
    }
}
