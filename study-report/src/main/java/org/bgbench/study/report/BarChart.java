package org.bgbench.study.report;

import java.util.List;
import java.util.Map;

/**
 * A figure whose x is categorical (designs, actions) as an SVG grouped bar chart: one bar per series in each
 * category (linked to its result file), the paper's published value as a hollow bar of the same colour beside it.
 */
final class BarChart {
    private static final int TOP = 20;
    private static final int PLOT_HEIGHT = 300;

    private BarChart() {}

    static String svg(Figure f, Links links) {
        Map<String, String> colours = ChartKit.colours(f);
        List<Figure.X> cats = f.xs();
        List<String> names = List.copyOf(colours.keySet());
        double bottom = TOP + PLOT_HEIGHT;
        double yMax = 0;
        double yMin = 0;
        for (Figure.Series s : f.series()) {
            for (Figure.Point p : s.points()) {
                if (p.measured()) {
                    yMax = Math.max(yMax, p.y());
                    yMin = Math.min(yMin, p.y());
                }
            }
        }
        for (Figure.PaperPoint p : f.paper()) {
            yMax = Math.max(yMax, p.y());
            yMin = Math.min(yMin, p.y());
        }
        Axis ys = Axis.values(yMin, yMax, bottom, TOP);
        int left = ChartKit.left(ys);
        double plotRight = ChartKit.WIDTH - 16;
        double group = (plotRight - left) / Math.max(1, cats.size());
        int slots = 0;
        for (String n : names) {
            slots += (f.series(n) != null ? 1 : 0) + (hasPaper(f, n) ? 1 : 0);
        }
        double bar = Math.min(40, group * 0.8 / Math.max(1, slots));
        int widest = cats.stream().mapToInt(c -> c.toString().length()).max().orElse(1);
        boolean tilt = widest * ChartKit.CHAR > group - 6;
        double labelDepth = tilt ? widest * ChartKit.CHAR * 0.5 + 14 : 18;
        boolean paper = !f.paper().isEmpty();
        int rows = ChartKit.legendRows(colours, paper, left);
        double xLabelY = bottom + labelDepth + 24;
        int height = (int) (xLabelY + 30 + rows * 20);
        StringBuilder s = new StringBuilder();
        ChartKit.open(s, f, height, "bar");
        ChartKit.yAxis(s, ys, left, plotRight, TOP, bottom, f.y().label());
        double zero = ys.at(Math.max(0, ys.lo()));
        for (int c = 0; c < cats.size(); c++) {
            Figure.X cat = cats.get(c);
            double x = left + group * c + (group - bar * slots) / 2;
            for (String n : names) {
                String colour = colours.get(n);
                Figure.Series series = f.series(n);
                if (series != null) {
                    Figure.Point p = series.at(cat);
                    if (p != null && p.measured()) {
                        String href = p.results().isEmpty()
                                ? ""
                                : links.to(p.results().get(0));
                        if (!href.isEmpty()) {
                            s.append("<a href=\"").append(Html.esc(href)).append("\">");
                        }
                        rect(s, x, ys.at(p.y()), bar, zero, "ours", "fill=\"" + colour + "\"");
                        s.append(ChartKit.data(n, cat, p.y(), false))
                                .append("><title>")
                                .append(Html.esc(ChartKit.hover(f, series, p)))
                                .append("</title></rect>");
                        s.append(href.isEmpty() ? "\n" : "</a>\n");
                        value(s, x, bar, ys.at(p.y()), p.y());
                    }
                    x += bar;
                }
                if (hasPaper(f, n)) {
                    for (Figure.PaperPoint p : f.paper()) {
                        if (p.series().equals(n) && p.x().equals(cat)) {
                            rect(
                                    s,
                                    x + 1.5,
                                    ys.at(p.y()),
                                    bar - 3,
                                    zero,
                                    "paper",
                                    "fill=\"#ffffff\" stroke=\"" + colour + "\" stroke-width=\"2\"");
                            s.append(ChartKit.data(n, cat, p.y(), true))
                                    .append("><title>")
                                    .append(Html.esc("the paper, " + n + ", " + cat + ": " + FindingKind.y(f, p.y())))
                                    .append("</title></rect>\n");
                            value(s, x, bar, ys.at(p.y()), p.y());
                        }
                    }
                    x += bar;
                }
            }
            double mid = left + group * c + group / 2;
            if (tilt) {
                s.append("<text class=\"xtick\" x=\"")
                        .append(Html.f(mid))
                        .append("\" y=\"")
                        .append(Html.f(bottom + 16))
                        .append("\" text-anchor=\"end\" font-size=\"11\" transform=\"rotate(-30 ")
                        .append(Html.f(mid))
                        .append(' ')
                        .append(Html.f(bottom + 16))
                        .append(")\">")
                        .append(Html.esc(cat.toString()))
                        .append("</text>\n");
            } else {
                ChartKit.text(s, mid, bottom + 18, "middle", 11, cat.toString(), "xtick");
            }
        }
        s.append("<g stroke=\"#424242\" stroke-width=\"1.2\">\n");
        ChartKit.line(s, left, TOP, left, bottom);
        ChartKit.line(s, left, zero, plotRight, zero);
        s.append("</g>\n");
        ChartKit.text(s, (left + plotRight) / 2, xLabelY, "middle", 13, f.x().label(), "xlabel");
        ChartKit.legend(s, colours, paper, true, left, xLabelY + 28);
        return s.append("</svg>\n").toString();
    }

    private static boolean hasPaper(Figure f, String series) {
        return f.paper().stream().anyMatch(p -> p.series().equals(series));
    }

    /** Opens a bar's rect from {@code top} (the value) to {@code zero}, its attributes left open. */
    private static void rect(StringBuilder s, double x, double top, double w, double zero, String cls, String paint) {
        s.append("<rect class=\"")
                .append(cls)
                .append("\" x=\"")
                .append(Html.f(x))
                .append("\" y=\"")
                .append(Html.f(Math.min(top, zero)))
                .append("\" width=\"")
                .append(Html.f(Math.max(1, w)))
                .append("\" height=\"")
                .append(Html.f(Math.max(0.5, Math.abs(zero - top))))
                .append("\" ")
                .append(paint);
    }

    /** The value above its bar, where the bar is wide enough to hold it. */
    private static void value(StringBuilder s, double x, double w, double top, double v) {
        String label = Numbers.format(v);
        if (label.length() * 6 <= w + 4) {
            ChartKit.text(s, x + w / 2, top - 4, "middle", 10, label, "value");
        }
    }
}
