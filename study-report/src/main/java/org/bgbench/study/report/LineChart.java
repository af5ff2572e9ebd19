package org.bgbench.study.report;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * A figure whose x is numeric as an SVG line chart: a line with a filled marker per series (linked to its result
 * file), each repetition as a small dot, the paper's published points hollow in the series' colour on a dashed line.
 */
final class LineChart {
    private static final int TOP = 20;
    private static final int PLOT_HEIGHT = 300;

    private LineChart() {}

    static String svg(Figure f, Links links) {
        Map<String, String> colours = ChartKit.colours(f);
        double bottom = TOP + PLOT_HEIGHT;
        double yMax = 0;
        double yMin = 0;
        for (Figure.Series s : f.series()) {
            for (Figure.Point p : s.points()) {
                if (p.measured()) {
                    yMax = Math.max(yMax, p.y());
                    yMin = Math.min(yMin, p.y());
                }
                for (double r : p.runs()) {
                    yMax = Math.max(yMax, r);
                    yMin = Math.min(yMin, r);
                }
            }
        }
        for (Figure.PaperPoint p : f.paper()) {
            yMax = Math.max(yMax, p.y());
            yMin = Math.min(yMin, p.y());
        }
        Axis ys = Axis.values(yMin, yMax, bottom, TOP);
        int left = ChartKit.left(ys);
        List<Double> xv = f.xs().stream().map(Figure.X::number).toList();
        int widestX =
                xv.stream().mapToInt(v -> Numbers.format(v).length()).max().orElse(1);
        int right = (int) Math.max(24, widestX * ChartKit.CHAR / 2 + 8);
        double plotRight = ChartKit.WIDTH - right;
        Axis xs = Axis.xs(xv.isEmpty() ? List.of(0.0, 1.0) : xv, left, plotRight, 14);
        boolean paper = !f.paper().isEmpty();
        int rows = ChartKit.legendRows(colours, paper, left);
        int height = (int) bottom + 66 + rows * 20;
        StringBuilder s = new StringBuilder();
        ChartKit.open(s, f, height, "line");
        ChartKit.yAxis(s, ys, left, plotRight, TOP, bottom, f.y().label());
        s.append("<g class=\"grid\" stroke=\"#f0f0f0\">\n");
        for (Axis.Tick t : xs.ticks()) {
            ChartKit.line(s, xs.at(t.value()), TOP, xs.at(t.value()), bottom);
        }
        s.append("</g>\n");
        for (Axis.Tick t : xs.ticks()) {
            ChartKit.text(s, xs.at(t.value()), bottom + 18, "middle", 11, t.label(), "xtick");
        }
        s.append("<g stroke=\"#424242\" stroke-width=\"1.2\">\n");
        ChartKit.line(s, left, TOP, left, bottom);
        ChartKit.line(s, left, bottom, plotRight, bottom);
        s.append("</g>\n");
        ChartKit.text(
                s,
                (left + plotRight) / 2,
                bottom + 42,
                "middle",
                13,
                f.x().label() + (xs.log() ? " (log scale)" : ""),
                "xlabel");
        for (Figure.Series series : f.series()) {
            polyline(
                    s,
                    measured(series).stream()
                            .map(p -> new double[] {xs.at(p.x().number()), ys.at(p.y())})
                            .toList(),
                    colours.get(series.name()),
                    false);
        }
        for (Map.Entry<String, String> e : colours.entrySet()) {
            List<Figure.PaperPoint> pts = f.paper().stream()
                    .filter(p -> p.series().equals(e.getKey()))
                    .sorted(Comparator.comparingDouble(p -> p.x().number()))
                    .toList();
            polyline(
                    s,
                    pts.stream()
                            .map(p -> new double[] {xs.at(p.x().number()), ys.at(p.y())})
                            .toList(),
                    e.getValue(),
                    true);
            for (Figure.PaperPoint p : pts) {
                s.append("<circle class=\"paper\" cx=\"")
                        .append(Html.f(xs.at(p.x().number())))
                        .append("\" cy=\"")
                        .append(Html.f(ys.at(p.y())))
                        .append("\" r=\"5.5\" fill=\"#ffffff\" stroke=\"")
                        .append(e.getValue())
                        .append("\" stroke-width=\"2\"")
                        .append(ChartKit.data(p.series(), p.x(), p.y(), true))
                        .append("><title>")
                        .append(Html.esc(
                                "the paper, " + p.series() + ", " + f.at(p.x()) + ": " + FindingKind.y(f, p.y())))
                        .append("</title></circle>\n");
            }
        }
        for (Figure.Series series : f.series()) {
            String colour = colours.get(series.name());
            for (Figure.Point p : measured(series)) {
                double cx = xs.at(p.x().number());
                if (p.runs().size() > 1) {
                    for (double r : p.runs()) {
                        s.append("<circle class=\"run\" cx=\"")
                                .append(Html.f(cx))
                                .append("\" cy=\"")
                                .append(Html.f(ys.at(r)))
                                .append("\" r=\"2.2\" fill=\"")
                                .append(colour)
                                .append("\" fill-opacity=\"0.45\"/>\n");
                    }
                }
                String href = p.results().isEmpty() ? "" : links.to(p.results().get(0));
                if (!href.isEmpty()) {
                    s.append("<a href=\"").append(Html.esc(href)).append("\">");
                }
                s.append("<circle class=\"ours\" cx=\"")
                        .append(Html.f(cx))
                        .append("\" cy=\"")
                        .append(Html.f(ys.at(p.y())))
                        .append("\" r=\"4.5\" fill=\"")
                        .append(colour)
                        .append("\" stroke=\"#ffffff\" stroke-width=\"1\"")
                        .append(ChartKit.data(series.name(), p.x(), p.y(), false))
                        .append("><title>")
                        .append(Html.esc(ChartKit.hover(f, series, p)))
                        .append("</title></circle>");
                s.append(href.isEmpty() ? "\n" : "</a>\n");
            }
        }
        ChartKit.legend(s, colours, paper, false, left, bottom + 70);
        return s.append("</svg>\n").toString();
    }

    private static List<Figure.Point> measured(Figure.Series s) {
        List<Figure.Point> ps = new ArrayList<>(
                s.points().stream().filter(Figure.Point::measured).toList());
        ps.sort(Comparator.comparingDouble(p -> p.x().number()));
        return ps;
    }

    private static void polyline(StringBuilder s, List<double[]> pts, String colour, boolean dashed) {
        if (pts.size() < 2) {
            return;
        }
        s.append("<polyline fill=\"none\" stroke=\"")
                .append(colour)
                .append(
                        dashed
                                ? "\" stroke-width=\"1.5\" stroke-dasharray=\"5 4\" points=\""
                                : "\" stroke-width=\"2\" points=\"");
        for (double[] p : pts) {
            s.append(Html.f(p[0])).append(',').append(Html.f(p[1])).append(' ');
        }
        s.append("\"/>\n");
    }
}
