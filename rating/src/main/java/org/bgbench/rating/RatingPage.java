package org.bgbench.rating;

import static org.bgbench.rating.ReportText.esc;
import static org.bgbench.rating.ReportText.pct;
import static org.bgbench.rating.ReportText.slaText;
import static org.bgbench.rating.ReportText.thousands;

import java.math.BigDecimal;
import java.math.MathContext;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import org.bgbench.model.Durations;
import org.bgbench.rating.RatingReport.Axis;

/**
 * The rating as a self-contained HTML page (no scripts, no external files but the experiments' own results): the
 * verdict first with its warnings folded under it, then throughput and latency against T, the settings, and every
 * experiment linked to its result file.
 */
final class RatingPage {
    private static final String STYLE = """
            body{font-family:Helvetica,Arial,sans-serif;margin:24px;color:#212121;max-width:1100px}
            h1{font-size:22px}h2{font-size:17px;margin-top:28px}
            table{border-collapse:collapse;font-size:13px}
            th,td{border:1px solid #ddd;padding:4px 8px;text-align:right}
            th{background:#f5f5f5}td.l,th.l{text-align:left}td{white-space:nowrap}td.l{white-space:normal}
            tr.miss td{color:#c62828}tr.confirm td{background:#f3e5f5}
            .verdict{border:1px solid #bdbdbd;border-radius:6px;padding:12px 16px;background:#fafafa}
            .verdict p{margin:4px 0}.big{font-size:22px;font-weight:bold}.bound{color:#5d4037}
            .warn{color:#e65100}.stop{color:#c62828}details{margin-top:8px}summary{cursor:pointer;color:#e65100}
            figure{margin:12px 0}
            """;

    private RatingPage() {}

    /**
     * The page. {@code files} gives each experiment's result file and latency by its index (missing entries are
     * shown without a link or latency).
     */
    static String html(
            RatingResult result, String title, Axis axis, Map<Integer, ExperimentFile> files, String noisyHost) {
        String t = title == null || title.isBlank() ? "BG rating" : title;
        StringBuilder h = new StringBuilder();
        h.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>")
                .append(esc(t))
                .append("</title>\n<style>\n")
                .append(STYLE)
                .append("</style>\n</head>\n<body>\n");
        h.append("<h1>").append(esc(t)).append("</h1>\n");
        verdict(h, result, axis, noisyHost);
        h.append("<h2>Throughput against ")
                .append(axis.symbol())
                .append("</h2>\n<figure id=\"throughput\">\n")
                .append(ThroughputChart.svg(result, axis))
                .append("</figure>\n");
        h.append("<h2>Latency against ")
                .append(axis.symbol())
                .append("</h2>\n<figure id=\"latency\">\n")
                .append(LatencyChart.svg(result, axis, files))
                .append("</figure>\n");
        settings(h, result);
        experiments(h, result, axis, files);
        h.append("</body>\n</html>\n");
        return h.toString();
    }

    /**
     * Which figures are lower bounds: the rating stopped before they were final, or the search reached its largest T
     * (--max-threads, or --max-rate) still meeting the SLA, so the store may do more than BG asked of it.
     *
     * @param soar       the SoAR is at least the figure shown
     * @param socialites the Socialites rating is at least the figure shown
     * @param reason     why, in words, or null when neither is
     */
    record Bound(boolean soar, boolean socialites, String reason) {}

    /** Whether the rating's figures are lower bounds, and why, as the rating itself decided. */
    static Bound lowerBound(RatingResult result, Axis axis) {
        boolean soar = result.soar().map(SoarRating::lowerBound).orElse(false);
        boolean soc = result.socialites().map(SocialitesRating::lowerBound).orElse(false);
        String reason = result.soar()
                .map(s -> s.notes().lowerBound())
                .or(() -> result.socialites().map(s -> s.notes().lowerBound()))
                .orElse(null);
        if (reason == null && soc) {
            reason = result.socialites().orElseThrow().notes().lowerBound();
        }
        return new Bound(soar, soc, reason);
    }

    private static void verdict(StringBuilder h, RatingResult result, Axis axis, String noisyHost) {
        Bound bound = lowerBound(result, axis);
        h.append("<section class=\"verdict\" id=\"verdict\">\n");
        result.soar()
                .ifPresent(soar -> h.append("<p>SoAR <span class=\"big\">")
                        .append(bound.soar() ? "≥ " : "")
                        .append(esc(thousands(soar.actionsPerSecond())))
                        .append(" actions/s</span> at ")
                        .append(axis.symbol())
                        .append(" = ")
                        .append(axis.value(soar.threads()))
                        .append(" — ")
                        .append(esc(soar.status().label()))
                        .append("</p>\n"));
        result.socialites()
                .ifPresent(soc -> h.append("<p>")
                        .append(axis.ratingName())
                        .append(" <span class=\"big\">")
                        .append(bound.socialites() ? "≥ " : "")
                        .append(axis.value(soc.threads()))
                        .append("</span> ")
                        .append(axis == Axis.THREADS ? "threads" : "arrivals/s")
                        .append(" — ")
                        .append(esc(soc.status().label()))
                        .append("</p>\n"));
        if (bound.reason() != null) {
            h.append("<p class=\"bound\">≥: ").append(esc(bound.reason())).append("</p>\n");
        }
        h.append("<p>SLA ").append(esc(slaText(result.sla()))).append("</p>\n");
        if (noisyHost != null) {
            h.append("<p class=\"warn\" id=\"noisy-host\">On a noisy host: ")
                    .append(esc(noisyHost))
                    .append("</p>\n");
        }
        result.stopReason()
                .ifPresent(r -> h.append("<p class=\"stop\"><b>Stopped early:</b> ")
                        .append(esc(r))
                        .append("</p>\n"));
        if (!result.warnings().isEmpty()) {
            int n = result.warnings().size();
            h.append("<details class=\"warnings\">\n<summary>")
                    .append(n)
                    .append(n == 1 ? " warning" : " warnings")
                    .append(" (click to read)</summary>\n<ul>\n");
            for (String w : result.warnings()) {
                h.append("<li class=\"warn\">").append(esc(axis.words(w))).append("</li>\n");
            }
            h.append("</ul>\n</details>\n");
        }
        h.append("</section>\n");
    }

    private static void settings(StringBuilder h, RatingResult result) {
        RatingSettings st = result.settings();
        h.append("<h2>Settings</h2>\n<table>\n");
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
                thousands(result.experimentsRun()) + " experiments run, " + thousands(result.cacheHits())
                        + " cache hits, " + thousands(result.experiments().size() - result.experimentsRun())
                        + " resumed; "
                        + Durations.format(
                                Duration.ofSeconds(Math.round(result.totalTime().toMillis() / 1000.0)))
                        + " in total, " + Durations.format(Duration.ofSeconds(Math.round(result.experimentSeconds())))
                        + " measured");
        h.append("</table>\n");
    }

    private static void experiments(
            StringBuilder h, RatingResult result, Axis axis, Map<Integer, ExperimentFile> files) {
        h.append("<h2>Experiments</h2>\n<table id=\"experiments\">\n<tr><th>#</th><th class=\"l\">phase</th><th>")
                .append(axis.symbol())
                .append("</th><th>duration</th>")
                .append("<th>actions/s</th><th>within β</th><th>p50</th><th>p95</th><th>p99</th>")
                .append("<th>unpredictable</th><th>errors</th><th>actions</th>")
                .append(
                        "<th>measured</th><th>wall time</th><th class=\"l\">SLA</th><th class=\"l\">result</th></tr>\n");
        for (Experiment e : result.experiments()) {
            Measurement m = e.measurement();
            ExperimentFile file = files.get(e.index());
            ExperimentFile.Latency lat = file == null ? null : file.latency();
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
                    .append(ms(lat == null ? null : lat.p50Ms()))
                    .append("</td><td>")
                    .append(ms(lat == null ? null : lat.p95Ms()))
                    .append("</td><td>")
                    .append(ms(lat == null ? null : lat.p99Ms()))
                    .append("</td><td>")
                    .append(esc(m.validationIncomplete() != null ? "incomplete" : pct(m.unpredictablePct())))
                    .append("</td><td>")
                    .append(thousands(m.errors()))
                    .append("</td><td>")
                    .append(thousands(m.actions()))
                    .append("</td><td>")
                    .append(String.format(Locale.ROOT, "%,.1f s", m.seconds()))
                    .append("</td><td>")
                    .append(String.format(Locale.ROOT, "%,.1f s", e.wallSeconds()))
                    .append("</td><td class=\"l\">")
                    .append(e.success() ? "met" : "missed: " + esc(String.join("; ", e.failures())))
                    .append("</td><td class=\"l\">")
                    .append(
                            file == null || file.href() == null
                                    ? "—"
                                    : "<a href=\"" + esc(file.href()) + "\">" + esc(file.href()) + "</a>")
                    .append("</td></tr>\n");
        }
        h.append("</table>\n");
    }

    /** A latency in milliseconds with its unit, three significant digits; a dash when not known. */
    static String ms(Double v) {
        if (v == null) {
            return "—";
        }
        return (v >= 100 ? String.format(Locale.ROOT, "%,.0f", v) : Measurement.num(round3(v))) + " ms";
    }

    private static double round3(double v) {
        return v == 0 ? 0 : new BigDecimal(v).round(new MathContext(3)).doubleValue();
    }

    private static void row(StringBuilder h, String name, String value) {
        h.append("<tr><th class=\"l\">")
                .append(esc(name))
                .append("</th><td class=\"l\">")
                .append(esc(value))
                .append("</td></tr>\n");
    }
}
