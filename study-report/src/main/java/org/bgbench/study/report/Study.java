package org.bgbench.study.report;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/** A study's {@code study.json} as the report reads it: its header, machine, deviations, figures, findings, points. */
public record Study(
        Header header,
        Machine machine,
        List<String> deviations,
        List<Figure> figures,
        List<JsonNode> findings,
        List<PointRun> points) {

    /** What the study is, where it comes from, and how far it got. */
    public record Header(
            String study,
            String title,
            Source source,
            String scale,
            boolean complete,
            String started,
            String updated,
            String command) {}

    /** The paper and the figure or table the study reproduces, with the paper's finding in its words. */
    public record Source(String paper, String where, String finding) {}

    /** The machine the study ran on. */
    public record Machine(String host, int cores, double memoryGb, String os, String java) {}

    /** One point of the plan: its key, status and error, and its result file relative to study.json. */
    public record PointRun(String key, String status, String error, String result) {
        public boolean failed() {
            return "failed".equals(status);
        }
    }

    /** Reads a parsed study.json; a missing optional part reads as empty. */
    public static Study of(JsonNode root) {
        JsonNode src = root.path("source");
        JsonNode m = root.path("machine");
        Header header = new Header(
                text(root, "study"),
                text(root, "title"),
                new Source(text(src, "paper"), text(src, "where"), text(src, "finding")),
                text(root, "scale"),
                root.path("complete").asBoolean(false),
                text(root, "started"),
                text(root, "updated"),
                text(root, "command"));
        Machine machine = new Machine(
                text(m, "host"),
                m.path("cores").asInt(0),
                m.path("memory_gb").asDouble(0),
                text(m, "os"),
                text(m, "java"));
        List<String> deviations = new ArrayList<>();
        root.path("deviations").forEach(d -> deviations.add(d.asText()));
        List<Figure> figures = new ArrayList<>();
        root.path("figures").forEach(f -> figures.add(Figure.of(f)));
        List<JsonNode> findings = new ArrayList<>();
        root.path("findings").forEach(findings::add);
        List<PointRun> points = new ArrayList<>();
        root.path("points")
                .forEach(p -> points.add(new PointRun(
                        text(p, "key"),
                        text(p, "status"),
                        p.path("error").isNull() ? null : text(p, "error"),
                        text(p, "result"))));
        return new Study(header, machine, deviations, figures, findings, points);
    }

    /** The figure with this id, or null. */
    public Figure figure(String id) {
        return figures.stream().filter(f -> f.id().equals(id)).findFirst().orElse(null);
    }

    static String text(JsonNode n, String field) {
        JsonNode v = n.path(field);
        return v.isMissingNode() || v.isNull() ? "" : v.asText();
    }
}
