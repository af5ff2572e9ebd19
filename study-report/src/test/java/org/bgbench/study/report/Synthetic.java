package org.bgbench.study.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** Builds study.json documents whose answers are known, for the findings' and the report's tests. */
final class Synthetic {
    static final ObjectMapper JSON = new ObjectMapper();

    private final ObjectNode root = JSON.createObjectNode();
    private ObjectNode figure;

    Synthetic() {
        root.put("study", "synthetic-3.3");
        root.put("title", "Throughput against T <synthetic> & friends");
        ObjectNode src = root.putObject("source");
        src.put("paper", "the dissertation");
        src.put("where", "figure 3.3");
        src.put("finding", "SQLite peaks and falls while the memory store keeps rising.");
        root.put("scale", "tiny");
        root.put("complete", true);
        root.put("started", "2026-12-02T14:00:00Z");
        root.put("updated", "2026-12-02T14:05:00Z");
        root.put("command", "bg study run synthetic-3.3 --scale tiny --out /tmp/s");
        ObjectNode m = root.putObject("machine");
        m.put("host", "bench-1");
        m.put("cores", 2);
        m.put("memory_gb", 7.7);
        m.put("os", "Linux 6.1");
        m.put("java", "25");
        root.putArray("deviations").add("M = 300 members instead of 10,000");
        root.putArray("figures");
        root.putArray("findings");
        root.putArray("points");
    }

    /** Starts a figure with a numeric x T and y in actions/s. */
    Synthetic figure(String id, String xLabel, String yLabel) {
        figure = ((ArrayNode) root.get("figures")).addObject();
        figure.put("id", id);
        figure.put("title", "Figure " + id);
        figure.putObject("x").put("key", "threads").put("label", xLabel);
        figure.putObject("y").put("key", "throughput").put("label", yLabel);
        figure.putArray("series");
        figure.putArray("paper");
        return this;
    }

    /** A series of the current figure, x and y alternating; a NaN y is a point not measured yet. */
    Synthetic series(String name, double... xy) {
        ObjectNode s = ((ArrayNode) figure.get("series")).addObject();
        s.put("name", name);
        ArrayNode points = s.putArray("points");
        for (int i = 0; i < xy.length; i += 2) {
            ObjectNode p = points.addObject();
            p.put("x", xy[i]);
            putY(p, xy[i + 1], name, xy[i]);
        }
        return this;
    }

    /** A series whose x are categories: names and values in the given order. */
    Synthetic categories(String name, String[] xs, double... ys) {
        ObjectNode s = ((ArrayNode) figure.get("series")).addObject();
        s.put("name", name);
        ArrayNode points = s.putArray("points");
        for (int i = 0; i < xs.length; i++) {
            ObjectNode p = points.addObject();
            p.put("x", xs[i]);
            putY(p, ys[i], name, i);
        }
        return this;
    }

    private void putY(ObjectNode p, double y, String name, double x) {
        if (Double.isNaN(y)) {
            p.putNull("y");
            p.putArray("runs");
            p.putArray("results");
            return;
        }
        p.put("y", y);
        String file = "points/" + name.replace(' ', '-') + "-" + x;
        p.putArray("runs").add(y * 0.98).add(y).add(y * 1.01);
        p.putArray("results").add(file + "-r1.json").add(file + "-r2.json").add(file + "-r3.json");
    }

    /** A value the paper publishes for the current figure. */
    Synthetic paper(String series, Object x, double y) {
        ObjectNode p = ((ArrayNode) figure.get("paper")).addObject();
        p.put("series", series);
        if (x instanceof String str) {
            p.put("x", str);
        } else {
            p.put("x", ((Number) x).doubleValue());
        }
        p.put("y", y);
        return this;
    }

    Synthetic finding(String json) {
        ((ArrayNode) root.get("findings")).add(parse(json));
        return this;
    }

    Synthetic point(String key, String status, String error) {
        ObjectNode p = ((ArrayNode) root.get("points")).addObject();
        p.put("key", key);
        p.put("status", status);
        if (error == null) {
            p.putNull("error");
        } else {
            p.put("error", error);
        }
        p.put("result", "points/" + key.replace('/', '-') + ".json");
        return this;
    }

    Synthetic incomplete() {
        root.put("complete", false);
        return this;
    }

    JsonNode json() {
        return root;
    }

    Study study() {
        return Study.of(root);
    }

    static JsonNode parse(String json) {
        try {
            return JSON.readTree(json);
        } catch (Exception e) {
            throw new IllegalArgumentException(json, e);
        }
    }
}
