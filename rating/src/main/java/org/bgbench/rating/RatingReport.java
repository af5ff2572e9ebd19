package org.bgbench.rating;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.bgbench.model.Durations;

/**
 * The rating as a picture and a page: an SVG chart of throughput against T with the percentage of actions within β
 * at every point and the SoAR and Socialites marked (like dissertation figures 1.1 and 7.1), and a self-contained
 * HTML report (no scripts, no external files) embedding the chart with the SLA, the warnings and every experiment.
 */
public final class RatingReport {
    private static final int W = 880;
    private static final int H = 520;
    private static final int LEFT = 96;
    private static final int RIGHT = 40;
    private static final int TOP = 64;
    private static final int BOTTOM = 92;
    private static final String OK = "#2e7d32";
    private static final String MISS = "#c62828";
    private static final String LINE = "#4a6fa5";
    private static final String CONFIRM = "#6a1b9a";
    private static final String SOAR = "#ef6c00";

    private RatingReport() {}

    /**
     * What the searched quantity is: T for the closed model's SoAR and Socialites, or the arrival rate for the open
     * model's rating (whose search runs the Socialites search over rate / {@code unit}, docs/open-model.md).
     *
     * @param name       the quantity in a title: {@code threads (T)}
     * @param symbol     in a point's label: {@code T}
     * @param ratingName the rating the Socialites search gives: {@code Socialites}
     * @param unit       what one step of the search is worth in the quantity's own unit
     */
    public record Axis(String name, String symbol, String ratingName, double unit) {
        public static final Axis THREADS = new Axis("threads (T)", "T", "Socialites", 1);

        /** The open model's axis: arrivals per second, {@code unit} a step. */
        public static Axis arrivals(double unit) {
            return new Axis("arrival rate (arrivals/s)", "rate", "Open-model rating", unit);
        }

        /**
         * A warning of the search (written in T) in this axis's words: {@code T=26} becomes {@code rate=9,594/s}, the
         * Socialites rating this axis's rating, max-threads {@code --max-rate}.
         */
        public String words(String warning) {
            if (this == THREADS || THREADS.equals(this)) {
                return warning;
            }
            Matcher m = Pattern.compile("\\bT=(?:max-threads=)?(\\d+)").matcher(warning);
            StringBuilder b = new StringBuilder();
            while (m.find()) {
                m.appendReplacement(
                        b, Matcher.quoteReplacement(symbol + "=" + value(Integer.parseInt(m.group(1))) + "/s"));
            }
            m.appendTail(b);
            return b.toString()
                    .replace("Socialites rating", ratingName)
                    .replace("Socialites", ratingName)
                    .replace("max-threads", "--max-rate")
                    .replace(" T grows", " the rate grows")
                    .replace(" in T", " in the rate")
                    .replace(
                            "The hill climbing may have stopped at a local peak: the SoAR may be higher than reported.",
                            "(The rate search assumes only that meeting the SLA does not come back as the rate grows.)");
        }

        /** Step {@code steps} of the search in the quantity's own unit, as the reports write it. */
        public String value(int steps) {
            return thousands(steps * unit);
        }
    }

    /** The chart as a standalone SVG document (also valid inline in HTML). */
    public static String svg(RatingResult result) {
        return svg(result, Axis.THREADS);
    }

    /** The chart, its x axis the searched quantity {@code axis} names. */
    public static String svg(RatingResult result, Axis axis) {
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
        s.append("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"")
                .append(W)
                .append("\" height=\"")
                .append(H)
                .append("\" viewBox=\"0 0 ")
                .append(W)
                .append(' ')
                .append(H)
                .append("\" font-family=\"Helvetica, Arial, sans-serif\" font-size=\"12\" role=\"img\">\n");
        s.append("<title>Throughput against ").append(axis.name()).append("</title>\n");
        s.append("<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n");
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
        boolean log = maxT / (double) minT >= 16;
        Scale xs = log ? Scale.log(minT, maxT, LEFT, LEFT + pw) : Scale.linear(0, niceMax(maxT), LEFT, LEFT + pw);
        double yMax = niceMax(maxX == 0 ? 1 : maxX * 1.12);
        Scale ys = Scale.linear(0, yMax, TOP + ph, TOP);

        // Grid and ticks.
        s.append("<g stroke=\"#e0e0e0\" stroke-width=\"1\">\n");
        double yStep = niceStep(yMax / 5);
        for (double v = 0; v <= yMax + 1e-9; v += yStep) {
            line(s, LEFT, ys.at(v), LEFT + pw, ys.at(v), null);
        }
        List<Double> xTicks = log ? log2Ticks(minT, maxT) : linearTicks(niceMax(maxT));
        for (double v : xTicks) {
            line(s, xs.at(v), TOP, xs.at(v), TOP + ph, null);
        }
        s.append("</g>\n");
        for (double v = 0; v <= yMax + 1e-9; v += yStep) {
            text(s, LEFT - 8, ys.at(v) + 4, "end", 11, null, thousands(v));
        }
        for (double v : xTicks) {
            text(s, xs.at(v), TOP + ph + 18, "middle", 11, null, thousands(v * axis.unit()));
        }
        s.append("<g stroke=\"#424242\" stroke-width=\"1.2\">\n");
        line(s, LEFT, TOP, LEFT, TOP + ph, null);
        line(s, LEFT, TOP + ph, LEFT + pw, TOP + ph, null);
        s.append("</g>\n");
        text(
                s,
                LEFT + pw / 2.0,
                TOP + ph + 40,
                "middle",
                13,
                null,
                (axis == Axis.THREADS ? "threads T" : axis.name()) + (log ? " (log scale)" : ""));
        s.append("<text x=\"22\" y=\"")
                .append(f(TOP + ph / 2.0))
                .append("\" text-anchor=\"middle\" font-size=\"13\" ")
                .append("transform=\"rotate(-90 22 ")
                .append(f(TOP + ph / 2.0))
                .append(")\">")
                .append("throughput (actions/s)</text>\n");

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

    /** A self-contained HTML page: summary, SLA and settings, warnings, the chart and the table of experiments. */
    public static String html(RatingResult result, String title) {
        return html(result, title, Axis.THREADS);
    }

    /** The page, its searched quantity the one {@code axis} names. */
    public static String html(RatingResult result, String title, Axis axis) {
        String t = title == null || title.isBlank() ? "BG rating" : title;
        StringBuilder h = new StringBuilder();
        h.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>")
                .append(esc(t))
                .append("</title>\n<style>\n")
                .append("body{font-family:Helvetica,Arial,sans-serif;margin:24px;color:#212121;max-width:1100px}\n")
                .append("h1{font-size:22px}h2{font-size:17px;margin-top:28px}\n")
                .append("table{border-collapse:collapse;font-size:13px}\n")
                .append("th,td{border:1px solid #ddd;padding:4px 8px;text-align:right}\n")
                .append("th{background:#f5f5f5}td.l,th.l{text-align:left}\n")
                .append("tr.miss td{color:#c62828}tr.confirm td{background:#f3e5f5}\n")
                .append(".big{font-size:20px;font-weight:bold}.warn{color:#e65100}.stop{color:#c62828}\n")
                .append("</style>\n</head>\n<body>\n");
        h.append("<h1>").append(esc(t)).append("</h1>\n");

        h.append("<table>\n");
        result.soar()
                .ifPresent(soar -> h.append("<tr><th class=\"l\">SoAR</th><td class=\"l\"><span class=\"big\">")
                        .append(esc(thousands(soar.actionsPerSecond())))
                        .append(" actions/s</span> at T = ")
                        .append(soar.threads())
                        .append(" — ")
                        .append(esc(soar.status().label()))
                        .append("</td></tr>\n"));
        result.socialites()
                .ifPresent(soc -> h.append("<tr><th class=\"l\">")
                        .append(axis.ratingName())
                        .append("</th><td class=\"l\">")
                        .append("<span class=\"big\">")
                        .append(axis.value(soc.threads()))
                        .append("</span> ")
                        .append(axis == Axis.THREADS ? "threads" : "arrivals/s")
                        .append(" — ")
                        .append(esc(soc.status().label()))
                        .append("</td></tr>\n"));
        RatingSettings st = result.settings();
        row(h, "SLA", slaText(result.sla()) + " (" + result.sla() + ")");
        row(
                h,
                "experiments",
                "δ = " + Durations.format(st.experimentDuration()) + ", climbing factor r = "
                        + Measurement.num(st.climbingFactor()) + (st.adaptiveClimbing() ? " (adaptive)" : "")
                        + ", local search " + st.localSearch().name().toLowerCase(Locale.ROOT)
                        + (st.confirm() ? ", confirmation runs of Δ" : ", no confirmation runs"));
        row(
                h,
                "effort",
                result.experimentsRun() + " experiments run, " + result.cacheHits() + " cache hits, "
                        + (result.experiments().size() - result.experimentsRun()) + " resumed; "
                        + Durations.format(
                                Duration.ofSeconds(Math.round(result.totalTime().toMillis() / 1000.0)))
                        + " in total, " + Durations.format(Duration.ofSeconds(Math.round(result.experimentSeconds())))
                        + " measured");
        h.append("</table>\n");
        result.stopReason()
                .ifPresent(r -> h.append("<p class=\"stop\"><b>Stopped early:</b> ")
                        .append(esc(r))
                        .append("</p>\n"));
        if (!result.warnings().isEmpty()) {
            h.append("<h2>Warnings</h2>\n<ul>\n");
            for (String w : result.warnings()) {
                h.append("<li class=\"warn\">").append(esc(w)).append("</li>\n");
            }
            h.append("</ul>\n");
        }

        h.append("<h2>Throughput against ")
                .append(axis.symbol())
                .append("</h2>\n<figure>\n")
                .append(svg(result, axis))
                .append("</figure>\n");

        h.append("<h2>Experiments</h2>\n<table>\n<tr><th>#</th><th class=\"l\">phase</th><th>")
                .append(axis.symbol())
                .append("</th><th>duration</th>")
                .append("<th>actions/s</th><th>within β</th><th>unpredictable</th><th>errors</th><th>actions</th>")
                .append("<th>seconds</th><th>wall s</th><th class=\"l\">SLA</th></tr>\n");
        for (Experiment e : result.experiments()) {
            Measurement m = e.measurement();
            h.append("<tr class=\"")
                    .append(e.success() ? "ok" : "miss")
                    .append(e.phase() == Phase.CONFIRMATION ? " confirm" : "")
                    .append("\"><td>")
                    .append(e.index())
                    .append("</td><td class=\"l\">")
                    .append(esc(e.phase().label()))
                    .append(e.resumed() ? " (resumed)" : "")
                    .append("</td><td>")
                    .append(axis.value(e.threads()))
                    .append("</td><td>")
                    .append(esc(Durations.format(e.duration())))
                    .append("</td><td>")
                    .append(esc(thousands(m.throughput())))
                    .append("</td><td>")
                    .append(esc(pct(m.withinBetaPct())))
                    .append("</td><td>")
                    .append(esc(m.validationIncomplete() != null ? "incomplete" : pct(m.unpredictablePct())))
                    .append("</td><td>")
                    .append(m.errors())
                    .append("</td><td>")
                    .append(m.actions())
                    .append("</td><td>")
                    .append(esc(Measurement.num(m.seconds())))
                    .append("</td><td>")
                    .append(esc(String.format(Locale.ROOT, "%.1f", e.wallSeconds())))
                    .append("</td><td class=\"l\">")
                    .append(e.success() ? "met" : "missed: " + esc(String.join("; ", e.failures())))
                    .append("</td></tr>\n");
        }
        h.append("</table>\n</body>\n</html>\n");
        return h.toString();
    }

    // ---------------------------------------------------------------------------------------------- helpers

    private record Scale(boolean log, double lo, double hi, double from, double to) {
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
    private static final class Labels {
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

    private static List<Double> log2Ticks(int minT, int maxT) {
        List<Double> t = new ArrayList<>();
        int first = 31 - Integer.numberOfLeadingZeros(Math.max(1, minT));
        int last = 31 - Integer.numberOfLeadingZeros(Math.max(1, maxT));
        int step = Math.max(1, (last - first + 1 + 11) / 12);
        for (int k = first; k <= last; k += step) {
            t.add((double) (1L << k));
        }
        return t;
    }

    private static List<Double> linearTicks(double max) {
        List<Double> t = new ArrayList<>();
        double step = niceStep(max / 8);
        for (double v = 0; v <= max + 1e-9; v += step) {
            t.add(v);
        }
        return t;
    }

    private static double niceStep(double raw) {
        if (raw <= 0) {
            return 1;
        }
        double p = Math.pow(10, Math.floor(Math.log10(raw)));
        double m = raw / p;
        double nice = m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10;
        return Math.max(nice * p, 1e-9);
    }

    private static double niceMax(double v) {
        double step = niceStep(v / 5);
        return Math.max(step, Math.ceil(v / step - 1e-9) * step);
    }

    private static String tooltip(Experiment e, Axis axis) {
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

    static String slaText(Sla sla) {
        return "≥ " + Measurement.num(sla.alphaPct()) + "% of actions within " + Durations.format(sla.beta())
                + ", ≤ " + Measurement.num(sla.tauPct()) + "% unpredictable reads"
                + (sla.maxErrorPct() > 0 ? ", ≤ " + Measurement.num(sla.maxErrorPct()) + "% errors" : ", no errors")
                + ", for " + Durations.format(sla.duration());
    }

    private static String pct(double v) {
        return Measurement.num(v) + "%";
    }

    private static String thousands(double v) {
        if (v >= 100 || v == Math.rint(v)) {
            return String.format(Locale.ROOT, "%,.0f", v);
        }
        return Measurement.num(v);
    }

    private static void row(StringBuilder h, String name, String value) {
        h.append("<tr><th class=\"l\">")
                .append(esc(name))
                .append("</th><td class=\"l\">")
                .append(esc(value))
                .append("</td></tr>\n");
    }

    private static void line(StringBuilder s, double x1, double y1, double x2, double y2, String extra) {
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

    private static void text(
            StringBuilder s, double x, double y, String anchor, int size, String weight, String content) {
        text(s, x, y, anchor, size, weight, content, null);
    }

    private static void text(
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

    private static String f(double v) {
        return Svg.num(v);
    }

    /** Escapes text for XML and HTML content and attribute values. */
    static String esc(String s) {
        return Svg.esc(s);
    }
}
