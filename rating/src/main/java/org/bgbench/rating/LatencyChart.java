package org.bgbench.rating;

import static org.bgbench.rating.ChartKit.f;
import static org.bgbench.rating.ChartKit.line;
import static org.bgbench.rating.ChartKit.niceMax;
import static org.bgbench.rating.ChartKit.text;
import static org.bgbench.rating.ReportText.esc;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.bgbench.model.Durations;
import org.bgbench.rating.ChartKit.Box;
import org.bgbench.rating.ChartKit.Frame;
import org.bgbench.rating.ChartKit.Scale;
import org.bgbench.rating.RatingReport.Axis;

/**
 * The rating's SVG chart of latency against T: the p50, p95 and p99 of the search's experiments (δ runs) from their
 * result files, with β drawn as the line the SLA holds the α share of actions under.
 */
final class LatencyChart {
    private static final int W = 880;
    private static final int H = 420;
    private static final int LEFT = 96;
    private static final int RIGHT = 40;
    private static final int TOP = 40;
    private static final int BOTTOM = 84;
    private static final Box BOX = new Box(W, H, LEFT, RIGHT, TOP, BOTTOM);
    private static final String BETA = "#c62828";

    /** A percentile's line: its name, colour and how to read it. */
    private record Series(String name, String colour, Function<ExperimentFile.Latency, Double> value) {}

    private static final List<Series> SERIES = List.of(
            new Series("p50", "#4a6fa5", ExperimentFile.Latency::p50Ms),
            new Series("p95", "#ef6c00", ExperimentFile.Latency::p95Ms),
            new Series("p99", "#6a1b9a", ExperimentFile.Latency::p99Ms));

    private LatencyChart() {}

    /** The chart; experiments without a known latency are left out (the chart says so when none is known). */
    static String svg(RatingResult result, Axis axis, Map<Integer, ExperimentFile> files) {
        Duration delta = result.settings().experimentDuration();
        List<Experiment> points = new ArrayList<>();
        for (Experiment e : result.experiments()) {
            ExperimentFile file = files.get(e.index());
            if (e.duration().equals(delta) && file != null && file.latency() != null) {
                points.add(e);
            }
        }
        points.sort(Comparator.comparingInt(Experiment::threads));
        StringBuilder s = new StringBuilder();
        ChartKit.open(s, BOX, "Latency against " + axis.name());
        text(
                s,
                W / 2.0,
                24,
                "middle",
                14,
                "bold",
                "Latency (p50, p95, p99) of the δ experiments against " + axis.name());
        int pw = W - LEFT - RIGHT;
        int ph = H - TOP - BOTTOM;
        if (points.isEmpty()) {
            text(s, W / 2.0, TOP + ph / 2.0, "middle", 14, null, "no latency known (the result files were not read)");
            return s.append("</svg>\n").toString();
        }
        int minT = 1;
        int maxT = 1;
        double maxMs = result.sla().beta().toNanos() / 1e6;
        for (Experiment e : points) {
            maxT = Math.max(maxT, e.threads());
            for (Series series : SERIES) {
                Double v = series.value().apply(files.get(e.index()).latency());
                if (v != null) {
                    maxMs = Math.max(maxMs, v);
                }
            }
        }
        Frame frame = ChartKit.frame(s, BOX, axis, minT, maxT, niceMax(maxMs * 1.1), "latency (ms)");
        Scale xs = frame.xs();
        Scale ys = frame.ys();
        double beta = ys.at(result.sla().beta().toNanos() / 1e6);
        line(s, LEFT, beta, LEFT + pw, beta, "stroke=\"" + BETA + "\" stroke-width=\"1.2\" stroke-dasharray=\"6 4\"");
        text(
                s,
                LEFT + 6,
                beta - 6,
                "start",
                11,
                null,
                "β = " + Durations.format(result.sla().beta()),
                BETA);
        for (Series series : SERIES) {
            StringBuilder pts = new StringBuilder();
            for (Experiment e : points) {
                Double v = series.value().apply(files.get(e.index()).latency());
                if (v == null) {
                    continue;
                }
                double x = xs.at(e.threads());
                double y = ys.at(v);
                pts.append(f(x)).append(',').append(f(y)).append(' ');
                s.append("<circle cx=\"")
                        .append(f(x))
                        .append("\" cy=\"")
                        .append(f(y))
                        .append("\" r=\"3.5\" fill=\"")
                        .append(series.colour())
                        .append("\"><title>")
                        .append(esc("#" + e.index() + " " + axis.symbol() + "=" + axis.value(e.threads()) + ": "
                                + series.name() + " " + RatingPage.ms(v)))
                        .append("</title></circle>\n");
            }
            s.append("<polyline class=\"")
                    .append(series.name())
                    .append("\" fill=\"none\" stroke=\"")
                    .append(series.colour())
                    .append("\" stroke-width=\"1.8\" points=\"")
                    .append(pts.toString().trim())
                    .append("\"/>\n");
        }
        double lx = LEFT;
        double ly = H - 16;
        for (Series series : SERIES) {
            line(s, lx, ly - 4, lx + 22, ly - 4, "stroke=\"" + series.colour() + "\" stroke-width=\"2.5\"");
            text(s, lx + 28, ly, "start", 11, null, series.name());
            lx += 80;
        }
        line(s, lx, ly - 4, lx + 22, ly - 4, "stroke=\"" + BETA + "\" stroke-width=\"1.2\" stroke-dasharray=\"6 4\"");
        text(s, lx + 28, ly, "start", 11, null, "β of the SLA");
        return s.append("</svg>\n").toString();
    }
}
