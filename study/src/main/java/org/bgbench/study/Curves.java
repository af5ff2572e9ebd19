package org.bgbench.study;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The curves of curve figures ({@link Study.Figure#curve()}): read from a point's result when it is recorded, kept
 * with the point in study.json (so a resume and the report need no result file), and drawn as one series per point,
 * the i-th element's x and y the medians of the repetitions' i-th elements.
 */
final class Curves {
    private Curves() {}

    /** The curve of figure {@code f} in {@code result}: each element of its array, in order. */
    static List<PointRecord.CurvePoint> read(JsonNode result, Study.Figure f) {
        List<PointRecord.CurvePoint> out = new ArrayList<>();
        for (JsonNode e : result.at(f.curve())) {
            out.add(new PointRecord.CurvePoint(number(e.path(f.x().key())), number(e.path(f.y().key()))));
        }
        return out;
    }

    private static Double number(JsonNode v) {
        return v.isNumber() ? v.asDouble() : null;
    }

    /** The curves of every curve figure of {@code study} that shows {@code p}, by figure id. */
    static Map<String, List<PointRecord.CurvePoint>> of(Study study, StudyPlan.Point p, JsonNode result) {
        Map<String, List<PointRecord.CurvePoint>> out = new LinkedHashMap<>();
        for (Study.Figure f : study.output().figures()) {
            if (f.isCurve() && StudyDocument.shows(f, p)) {
                out.put(f.id(), read(result, f));
            }
        }
        return out;
    }

    /** As study.json keeps them: figure id → list of {@code [x, y]}. */
    static Map<String, Object> json(Map<String, List<PointRecord.CurvePoint>> curves) {
        Map<String, Object> out = new LinkedHashMap<>();
        curves.forEach((id, c) -> out.put(
                id, c.stream().map(p -> java.util.Arrays.asList(p.x(), p.y())).toList()));
        return out;
    }

    /** Read back from a point of study.json. */
    static Map<String, List<PointRecord.CurvePoint>> fromJson(JsonNode curves) {
        Map<String, List<PointRecord.CurvePoint>> out = new LinkedHashMap<>();
        curves.fields().forEachRemaining(e -> {
            List<PointRecord.CurvePoint> c = new ArrayList<>();
            e.getValue().forEach(p -> c.add(new PointRecord.CurvePoint(number(p.path(0)), number(p.path(1)))));
            out.put(e.getKey(), c);
        });
        return out;
    }

    /**
     * The series of curve figure {@code f}: one per series name over the planned points it shows, each point of the
     * curve the median x and y of the done repetitions' elements at that index (elements with no y in any repetition
     * are left out); a series none of whose points is done has no points.
     */
    static List<Map<String, Object>> series(Study.Figure f, List<StudyPlan.Point> planned, List<PointRecord> points) {
        Map<String, PointRecord> done = new LinkedHashMap<>();
        points.stream()
                .filter(PointRecord::done)
                .forEach(r -> done.put(r.point().key(), r));
        Map<String, List<PointRecord>> byName = new LinkedHashMap<>();
        for (StudyPlan.Point p : planned) {
            if (StudyDocument.shows(f, p)) {
                List<PointRecord> rs =
                        byName.computeIfAbsent(StudyDocument.seriesName(p, f.seriesBy()), k -> new ArrayList<>());
                PointRecord r = done.get(p.key());
                if (r != null && r.curves().containsKey(f.id())) {
                    rs.add(r);
                }
            }
        }
        List<Map<String, Object>> out = new ArrayList<>();
        byName.forEach((name, rs) -> {
            int n = rs.stream()
                    .mapToInt(r -> r.curves().get(f.id()).size())
                    .max()
                    .orElse(0);
            List<Map<String, Object>> pts = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                List<Double> xs = new ArrayList<>();
                List<Double> ys = new ArrayList<>();
                List<String> results = new ArrayList<>();
                for (PointRecord r : rs) {
                    List<PointRecord.CurvePoint> c = r.curves().get(f.id());
                    if (i < c.size() && c.get(i).x() != null && c.get(i).y() != null) {
                        xs.add(c.get(i).x());
                        ys.add(c.get(i).y());
                        results.add(r.result());
                    }
                }
                if (ys.isEmpty()) {
                    continue;
                }
                Map<String, Object> pt = new LinkedHashMap<>();
                pt.put("x", StudyDocument.median(xs));
                pt.put("y", StudyDocument.median(ys));
                pt.put("runs", ys);
                pt.put("results", results.stream().filter(Objects::nonNull).toList());
                pts.add(pt);
            }
            Map<String, Object> s = new LinkedHashMap<>();
            s.put("name", name);
            s.put("points", pts);
            out.add(s);
        });
        return out;
    }
}
