package org.bgbench.study;

import java.util.List;
import java.util.Map;

/**
 * A figure whose series are curves read from an array of each point's result (e.g. the freshness-confidence buckets,
 * dissertation 6.1.3): {@code curve} is a JSON pointer to the array, {@code x.key} and {@code y.key} name the fields of
 * its elements. A series is one point's curve (the median over its repetitions), so what makes a series must pick one
 * store, setting, mix and T.
 */
final class CurveFigures {
    private CurveFigures() {}

    static Study.Figure parse(Fields g, Study.Subjects subjects) {
        String curve = g.text("curve");
        if (!curve.startsWith("/") || curve.endsWith("/")) {
            throw g.refuse(
                    "curve",
                    "expected a JSON pointer to an array of the point's result, e.g. "
                            + "/unpredictable/freshness/buckets, got '" + curve + "'");
        }
        Study.Axis xGiven = StudyParser.axis(g.object("x"), null);
        Study.Axis yGiven = StudyParser.axis(g.object("y"), null);
        if (xGiven.key() == null) {
            throw g.refuse("x.key", "missing; a curve figure names the field of the array's elements on x");
        }
        if (yGiven.key() == null) {
            throw g.refuse("y.key", "missing; a curve figure names the field of the array's elements on y");
        }
        Study.Axis x = xGiven.label() == null ? new Study.Axis(xGiven.key(), xGiven.key()) : xGiven;
        Study.Axis y = yGiven.label() == null ? new Study.Axis(yGiven.key(), yGiven.key()) : yGiven;
        List<String> seriesBy = g.texts("series_by", false);
        for (int i = 0; i < seriesBy.size(); i++) {
            if (!StudyParser.DIMENSIONS.contains(seriesBy.get(i))) {
                throw g.refuse(
                        "series_by[" + i + "]",
                        "expected store, setting, mix or threads, got '" + seriesBy.get(i) + "'");
            }
        }
        Map<String, List<String>> where = StudyParser.where(g, subjects);
        Map<String, Integer> counts = Map.of(
                "store", subjects.stores().size(),
                "setting", Math.max(1, subjects.settings().size()),
                "mix", subjects.mixes().size());
        for (String d : StudyParser.DIMENSIONS) {
            boolean single = seriesBy.contains(d)
                    || where.getOrDefault(d, List.of()).size() == 1
                    || counts.getOrDefault(d, 2) == 1;
            if (!single) {
                throw g.refuse(
                        "series_by",
                        "a curve figure draws one point's curve per series: put " + d + " in series_by or give one " + d
                                + " in where." + d);
            }
        }
        return new Study.Figure(g.text("id"), g.text("title"), x, y, seriesBy, where, StudyParser.paper(g), curve);
    }
}
