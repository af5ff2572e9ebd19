package org.bgbench.rating;

import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The rating as a picture and a page: the SVG chart of throughput against T ({@link ThroughputChart}) and the
 * self-contained HTML report ({@link RatingPage}) with the verdict, the throughput and latency charts and every
 * experiment linked to its result.
 */
public final class RatingReport {
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
            return ReportText.thousands(steps * unit);
        }
    }

    /** The chart as a standalone SVG document (also valid inline in HTML). */
    public static String svg(RatingResult result) {
        return svg(result, Axis.THREADS);
    }

    /** The chart, its x axis the searched quantity {@code axis} names. */
    public static String svg(RatingResult result, Axis axis) {
        return ThroughputChart.svg(result, axis);
    }

    /** A self-contained HTML page: summary, SLA and settings, warnings, the chart and the table of experiments. */
    public static String html(RatingResult result, String title) {
        return html(result, title, Axis.THREADS);
    }

    /** The page, its searched quantity the one {@code axis} names. */
    public static String html(RatingResult result, String title, Axis axis) {
        return html(result, title, axis, Map.of());
    }

    /**
     * The page with each experiment linked to its result file and its latency drawn: {@code files} by experiment
     * index, relative to the page.
     */
    public static String html(RatingResult result, String title, Axis axis, Map<Integer, ExperimentFile> files) {
        return html(result, title, axis, files, null);
    }

    /**
     * The page as {@link #html(RatingResult, String, Axis, Map)}, with {@code noisyHost} (what else competed for the
     * host's CPU during the rating, or null when nothing did) named under the verdict.
     */
    public static String html(
            RatingResult result, String title, Axis axis, Map<Integer, ExperimentFile> files, String noisyHost) {
        return RatingPage.html(result, title, axis, files, noisyHost);
    }
}
