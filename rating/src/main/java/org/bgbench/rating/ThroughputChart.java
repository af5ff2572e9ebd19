package org.bgbench.rating;

import static org.bgbench.rating.ChartKit.f;
import static org.bgbench.rating.ChartKit.niceMax;
import static org.bgbench.rating.ChartKit.text;
import static org.bgbench.rating.ReportText.esc;
import static org.bgbench.rating.ReportText.pct;
import static org.bgbench.rating.ReportText.slaText;
import static org.bgbench.rating.ReportText.thousands;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.bgbench.model.Durations;
import org.bgbench.rating.ChartKit.Box;
import org.bgbench.rating.ChartKit.Frame;
import org.bgbench.rating.ChartKit.Labels;
import org.bgbench.rating.ChartKit.Scale;
import org.bgbench.rating.RatingReport.Axis;

/**
 * The rating's SVG chart of throughput against T with the percentage of actions within β at every point and the SoAR
 * and Socialites marked (like dissertation figures 1.1 and 7.1).
 */
final class ThroughputChart {
    private static final int W = 880;
    private static final int H = 520;
    private static final int LEFT = 96;
    private static final int RIGHT = 40;
    private static final int TOP = 64;
    private static final int BOTTOM = 92;
    private static final Box BOX = new Box(W, H, LEFT, RIGHT, TOP, BOTTOM);
    private static final String OK = "#2e7d32";
    private static final String MISS = "#c62828";
    private static final String LINE = "#4a6fa5";
    private static final String CONFIRM = "#6a1b9a";
    private static final String SOAR = "#ef6c00";

    private ThroughputChart() {}

    /** The chart, its x axis the searched quantity {@code axis} names. */
    static String svg(RatingResult result, Axis axis) {
        Duration delta = result.settings().experimentDuration();
        Duration big = result.sla().duration();
        List<Experiment> search = new ArrayList<>();
        List<Experiment> confirmations = new ArrayList<>();
        for (Experiment e : result.experiments()) {
            if (e.duration().equals(delta)) {
                search.add(e);
            } else if (e.duration().equals(big)) {
                confirmations.add(e);
            }
        }
        search.sort(Comparator.comparingInt(Experiment::threads));
        List<Experiment> all = new ArrayList<>(search);
        all.addAll(confirmations);

        StringBuilder s = new StringBuilder();
        ChartKit.open(s, BOX, "Throughput against " + axis.name());
        text(s, W / 2.0, 24, "middle", 16, "bold", "Throughput against " + axis.name());
        text(
                s,
                W / 2.0,
                44,
                "middle",
                12,
                null,
                "SLA " + slaText(result.sla()) + " — experiments of δ = "
                        + Durations.format(delta)
                        + (delta.equals(big) ? "" : ", confirmation runs of Δ = " + Durations.format(big)));
        int pw = W - LEFT - RIGHT;
        int ph = H - TOP - BOTTOM;
        if (all.isEmpty()) {
            text(s, W / 2.0, TOP + ph / 2.0, "middle", 14, null, "no experiments");
            return s.append("</svg>\n").toString();
        }

        int minT = Integer.MAX_VALUE;
        int maxT = 1;
        double maxX = 0;
        for (Experiment e : all) {
            minT = Math.min(minT, e.threads());
            maxT = Math.max(maxT, e.threads());
            maxX = Math.max(maxX, e.throughput());
        }
        minT = Math.min(minT, 1);
        Frame frame = ChartKit.frame(
                s, BOX, axis, minT, maxT, niceMax(maxX == 0 ? 1 : maxX * 1.12), "throughput (actions/s)");
        Scale xs = frame.xs();
        Scale ys = frame.ys();

        // SoAR and Socialites marks, under the data.
        Labels labels = new Labels(LEFT, TOP, LEFT + pw, TOP + ph);
        result.socialites().ifPresent(soc -> {
            if (soc.threads() > 0) {
                double x = xs.at(soc.threads());
                s.append("<line x1=\"")
                        .append(f(x))
                        .append("\" y1=\"")
                        .append(TOP)
                        .append("\" x2=\"")
                        .append(f(x))
                        .append("\" y2=\"")
                        .append(TOP + ph)
                        .append("\" stroke=\"")
                        .append(CONFIRM)
                        .append("\" stroke-width=\"1.5\" stroke-dasharray=\"6 4\"/>\n");
                String label = axis.ratingName() + " = " + axis.value(soc.threads());
                text(s, x - 6, TOP + 14, "end", 12, "bold", label, CONFIRM);
                labels.occupy(x - 6 - 7.2 * label.length(), TOP, x - 6, TOP + 18);
            }
        });
        result.soar().ifPresent(soar -> {
            if (soar.threads() > 0) {
                double x = xs.at(soar.threads());
                // At the reported value: the confirmation run's when confirmed, else the search's point.
                double y = ys.at(soar.actionsPerSecond());
                s.append("<line x1=\"")
                        .append(LEFT)
                        .append("\" y1=\"")
                        .append(f(y))
                        .append("\" x2=\"")
                        .append(f(x))
                        .append("\" y2=\"")
                        .append(f(y))
                        .append("\" stroke=\"")
                        .append(SOAR)
                        .append("\" stroke-width=\"1.5\" stroke-dasharray=\"6 4\"/>\n");
                s.append("<circle cx=\"")
                        .append(f(x))
                        .append("\" cy=\"")
                        .append(f(y))
                        .append("\" r=\"10\" ")
                        .append("fill=\"none\" stroke=\"")
                        .append(SOAR)
                        .append("\" stroke-width=\"2.5\"/>\n");
                String label = "SoAR = " + thousands(soar.actionsPerSecond()) + " actions/s at T="
                        + thousands(soar.threads()) + " (" + soar.status().label() + ")";
                text(s, LEFT + 6, y - 8, "start", 12, "bold", label, SOAR);
                labels.occupy(LEFT + 6, y - 20, LEFT + 6 + 6.6 * label.length(), y - 5);
                labels.occupy(x - 12, y - 12, x + 12, y + 12);
            }
        });

        // The curve of the search's experiments.
        if (search.size() > 1) {
            s.append("<polyline fill=\"none\" stroke=\"").append(LINE).append("\" stroke-width=\"1.8\" points=\"");
            for (Experiment e : search) {
                s.append(f(xs.at(e.threads())))
                        .append(',')
                        .append(f(ys.at(e.throughput())))
                        .append(' ');
            }
            s.append("\"/>\n");
        }
        for (Experiment e : all) {
            labels.occupy(
                    xs.at(e.threads()) - 6,
                    ys.at(e.throughput()) - 6,
                    xs.at(e.threads()) + 6,
                    ys.at(e.throughput()) + 6);
        }
        for (Experiment e : search) {
            double x = xs.at(e.threads());
            double y = ys.at(e.throughput());
            s.append("<circle cx=\"")
                    .append(f(x))
                    .append("\" cy=\"")
                    .append(f(y))
                    .append("\" r=\"4.5\" ")
                    .append(
                            e.success()
                                    ? "fill=\"" + OK + "\""
                                    : "fill=\"#ffffff\" stroke=\"" + MISS + "\" stroke-width=\"2\"")
                    .append("><title>")
                    .append(esc(tooltip(e, axis)))
                    .append("</title></circle>\n");
        }
        for (Experiment e : confirmations) {
            double x = xs.at(e.threads());
            double y = ys.at(e.throughput());
            s.append("<path d=\"M")
                    .append(f(x))
                    .append(' ')
                    .append(f(y - 7))
                    .append(" L")
                    .append(f(x + 7))
                    .append(' ')
                    .append(f(y))
                    .append(" L")
                    .append(f(x))
                    .append(' ')
                    .append(f(y + 7))
                    .append(" L")
                    .append(f(x - 7))
                    .append(' ')
                    .append(f(y))
                    .append(" Z\" ")
                    .append(
                            e.success()
                                    ? "fill=\"" + CONFIRM + "\""
                                    : "fill=\"#ffffff\" stroke=\"" + CONFIRM + "\" stroke-width=\"2\"")
                    .append("><title>")
                    .append(esc(tooltip(e, axis)))
                    .append("</title></path>\n");
        }
        // Labels (% within β): the confirmation runs and the rated points first, then in order of T; a label that
        // would overlap is left out (every point keeps its tooltip).
        for (Experiment e : confirmations) {
            labels.place(
                    s,
                    xs.at(e.threads()),
                    ys.at(e.throughput()),
                    "Δ " + pct(e.measurement().withinBetaPct()),
                    CONFIRM,
                    true);
        }
        List<Experiment> byPriority = new ArrayList<>(search);
        int soarT = result.soar().map(SoarRating::threads).orElse(0);
        int socT = result.socialites().map(SocialitesRating::threads).orElse(0);
        byPriority.sort(
                Comparator.comparingInt((Experiment e) -> e.threads() == soarT ? 0 : e.threads() == socT ? 1 : 2)
                        .thenComparingInt(Experiment::threads));
        for (Experiment e : byPriority) {
            labels.place(
                    s,
                    xs.at(e.threads()),
                    ys.at(e.throughput()),
                    pct(e.measurement().withinBetaPct()),
                    e.success() ? "#1b5e20" : MISS,
                    false);
        }

        // Legend.
        double ly = H - 22;
        double lx = LEFT;
        s.append("<circle cx=\"")
                .append(f(lx))
                .append("\" cy=\"")
                .append(f(ly - 4))
                .append("\" r=\"4.5\" fill=\"")
                .append(OK)
                .append("\"/>\n");
        text(s, lx + 10, ly, "start", 11, null, "met the SLA");
        lx += 100;
        s.append("<circle cx=\"")
                .append(f(lx))
                .append("\" cy=\"")
                .append(f(ly - 4))
                .append("\" r=\"4.5\" fill=\"#ffffff\" stroke=\"")
                .append(MISS)
                .append("\" stroke-width=\"2\"/>\n");
        text(s, lx + 10, ly, "start", 11, null, "missed the SLA");
        lx += 112;
        if (!confirmations.isEmpty()) {
            s.append("<path d=\"M")
                    .append(f(lx))
                    .append(' ')
                    .append(f(ly - 11))
                    .append(" L")
                    .append(f(lx + 7))
                    .append(' ')
                    .append(f(ly - 4))
                    .append(" L")
                    .append(f(lx))
                    .append(' ')
                    .append(f(ly + 3))
                    .append(" L")
                    .append(f(lx - 7))
                    .append(' ')
                    .append(f(ly - 4))
                    .append(" Z\" fill=\"")
                    .append(CONFIRM)
                    .append("\"/>\n");
            text(s, lx + 12, ly, "start", 11, null, "confirmation run (Δ)");
            lx += 150;
        }
        text(
                s,
                lx,
                ly,
                "start",
                11,
                null,
                "labels: % of actions within β = "
                        + Durations.format(result.sla().beta()) + " (α = "
                        + Measurement.num(result.sla().alphaPct()) + "%)");
        return s.append("</svg>\n").toString();
    }

    static String tooltip(Experiment e, Axis axis) {
        Measurement m = e.measurement();
        return "#" + e.index() + " " + e.phase().label() + ": " + axis.symbol() + "=" + axis.value(e.threads()) + ", "
                + Durations.format(e.duration())
                + ", " + thousands(m.throughput()) + " actions/s, " + pct(m.withinBetaPct()) + " within β, "
                + (m.validationIncomplete() != null
                        ? "validation incomplete"
                        : pct(m.unpredictablePct()) + " unpredictable")
                + ", " + m.errors() + " errors — "
                + (e.success() ? "met the SLA" : "missed: " + String.join("; ", e.failures()));
    }
}
