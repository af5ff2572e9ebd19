package org.bgbench.study.report;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * One figure of a study: its axes, our series, and the paper's published points. A figure's x is numeric (T, nodes,
 * seconds: a line chart) or categorical (designs: a bar chart) when any x is a string.
 */
public record Figure(String id, String title, Axis x, Axis y, List<Series> series, List<PaperPoint> paper) {

    /** An axis: the measure's key and the label the chart shows. */
    public record Axis(String key, String label) {}

    /** One of our curves. */
    public record Series(String name, List<Point> points) {
        /** The point at {@code x}, or null. */
        public Point at(X x) {
            return points.stream().filter(p -> p.x().equals(x)).findFirst().orElse(null);
        }
    }

    /**
     * One measured x: the median {@code y} of its repetitions ({@code null} while none is measured), each repetition's
     * value and its result file.
     */
    public record Point(X x, Double y, List<Double> runs, List<String> results) {
        public boolean measured() {
            return y != null && !y.isNaN();
        }
    }

    /** A value the paper publishes for one series at one x. */
    public record PaperPoint(String series, X x, double y) {}

    /** An x value: a number, or a category's name. */
    public record X(Double number, String category) {
        static X of(JsonNode n) {
            return n.isNumber() ? new X(n.asDouble(), null) : new X(null, n.asText());
        }

        public boolean numeric() {
            return number != null;
        }

        @Override
        public String toString() {
            return numeric() ? Numbers.format(number) : category;
        }
    }

    static Figure of(JsonNode f) {
        JsonNode xa = f.path("x");
        JsonNode ya = f.path("y");
        List<Series> series = new ArrayList<>();
        for (JsonNode s : f.path("series")) {
            List<Point> points = new ArrayList<>();
            for (JsonNode p : s.path("points")) {
                List<Double> runs = new ArrayList<>();
                p.path("runs").forEach(r -> runs.add(r.asDouble()));
                List<String> results = new ArrayList<>();
                p.path("results").forEach(r -> results.add(r.asText()));
                JsonNode y = p.path("y");
                points.add(new Point(X.of(p.path("x")), y.isNumber() ? y.asDouble() : null, runs, results));
            }
            series.add(new Series(Study.text(s, "name"), points));
        }
        List<PaperPoint> paper = new ArrayList<>();
        for (JsonNode p : f.path("paper")) {
            paper.add(new PaperPoint(
                    Study.text(p, "series"), X.of(p.path("x")), p.path("y").asDouble()));
        }
        return new Figure(
                Study.text(f, "id"),
                Study.text(f, "title"),
                new Axis(Study.text(xa, "key"), Study.text(xa, "label")),
                new Axis(Study.text(ya, "key"), Study.text(ya, "label")),
                series,
                paper);
    }

    /** The series with this name, or null. */
    public Series series(String name) {
        return series.stream().filter(s -> s.name().equals(name)).findFirst().orElse(null);
    }

    /** Whether every x, ours and the paper's, is a number (a line chart) rather than a category (a bar chart). */
    public boolean numericX() {
        return series.stream().flatMap(s -> s.points().stream()).allMatch(p -> p.x().numeric())
                && paper.stream().allMatch(p -> p.x().numeric());
    }

    /** Every x of ours and the paper's, in first-seen order (categories) or ascending (numbers). */
    public List<X> xs() {
        Set<X> seen = new LinkedHashSet<>();
        series.forEach(s -> s.points().forEach(p -> seen.add(p.x())));
        paper.forEach(p -> seen.add(p.x()));
        List<X> all = new ArrayList<>(seen);
        if (numericX()) {
            all.sort((a, b) -> Double.compare(a.number(), b.number()));
        }
        return all;
    }

    /** How an x reads in a sentence: "T=8" for a short label, "8 nodes" for a word, the name for a category. */
    public String at(X v) {
        String label = x.label().isBlank() ? x.key() : x.label();
        if (!v.numeric()) {
            return v.category();
        }
        return label.length() <= 3 && !label.contains(" ") ? label + "=" + v : v + " " + label;
    }
}
