package org.bgbench.study.report;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The paper's published numbers beside ours, row by row: each agrees when ours is within {@code tolerance} (a
 * relative difference) of the paper's. The rows are the finding's {@code rows} ({@code series}, {@code x},
 * {@code paper}), or the figure's published points when it has none.
 */
final class TableKind implements FindingKind {
    private record Wanted(String series, Figure.X x, double paper) {}

    @Override
    public String name() {
        return "table";
    }

    @Override
    public Set<String> fields() {
        return Set.of("tolerance", "rows");
    }

    @Override
    public void check(FieldCheck c) {
        c.positive("tolerance");
        rows(c);
    }

    /** The finding's own rows, or null when it takes the figure's published points. */
    private static List<Wanted> rows(FieldCheck c) {
        JsonNode v = c.node().get("rows");
        if (v == null) {
            return null;
        }
        String accepted = "must be a list of rows {\"series\": name, \"x\": number or category, \"paper\": number}";
        if (!v.isArray() || v.isEmpty()) {
            throw c.bad("rows", accepted, v);
        }
        List<Wanted> rows = new ArrayList<>();
        for (JsonNode r : v) {
            boolean ok = r.isObject()
                    && r.size() == 3
                    && r.path("series").isTextual()
                    && (r.path("x").isNumber() || r.path("x").isTextual())
                    && r.path("paper").isNumber();
            if (!ok) {
                throw c.bad("rows", accepted, r);
            }
            rows.add(new Wanted(
                    r.get("series").asText(),
                    Figure.X.of(r.get("x")),
                    r.get("paper").asDouble()));
        }
        return rows;
    }

    @Override
    public List<Map.Entry<String, String>> seriesNamed(FieldCheck c) {
        List<Wanted> rows = rows(c);
        return rows == null
                ? List.of()
                : rows.stream().map(r -> Map.entry("rows", r.series())).toList();
    }

    @Override
    public String paper(FieldCheck c, Figure figure) {
        List<Wanted> rows = rows(c);
        return (rows == null ? "the figure's published values" : rows.size() + " published values") + ", each within ±"
                + Math.round(c.positive("tolerance") * 100) + "% of ours";
    }

    @Override
    public Verdict evaluate(FieldCheck c, Figure f) {
        double t = c.positive("tolerance");
        List<Wanted> wanted = rows(c);
        if (wanted == null) {
            wanted = f.paper().stream()
                    .map(p -> new Wanted(p.series(), p.x(), p.y()))
                    .toList();
        }
        if (wanted.isEmpty()) {
            return verdict(c, f, "the figure publishes no values of the paper", Verdict.Outcome.NOT_ENOUGH_DATA);
        }
        List<Verdict.Row> rows = new ArrayList<>();
        int agree = 0;
        int missing = 0;
        Verdict.Row furthest = null;
        double furthestOff = -1;
        for (Wanted w : wanted) {
            Figure.Series s = f.series(w.series());
            Figure.Point p = s == null ? null : s.at(w.x());
            Double ours = p != null && p.measured() ? p.y() : null;
            Verdict.Outcome o;
            if (ours == null) {
                o = Verdict.Outcome.NOT_ENOUGH_DATA;
                missing++;
            } else {
                double off = off(ours, w.paper());
                o = Math.abs(off) <= t ? Verdict.Outcome.AGREES : Verdict.Outcome.DIFFERS;
                if (o == Verdict.Outcome.AGREES) {
                    agree++;
                }
                if (Math.abs(off) > furthestOff) {
                    furthestOff = Math.abs(off);
                    furthest = new Verdict.Row(w.series(), f.at(w.x()), w.paper(), ours, o);
                }
            }
            rows.add(new Verdict.Row(w.series(), f.at(w.x()), w.paper(), ours, o));
        }
        int measured = rows.size() - missing;
        StringBuilder ours = new StringBuilder()
                .append(agree)
                .append(" of ")
                .append(measured)
                .append(" measured values within ±")
                .append(Math.round(t * 100))
                .append("% of the paper's");
        if (missing > 0) {
            ours.append(" (").append(missing).append(" not measured yet)");
        }
        if (furthest != null) {
            ours.append("; furthest: ")
                    .append(furthest.series())
                    .append(" at ")
                    .append(furthest.x())
                    .append(", ")
                    .append(Numbers.format(furthest.ours()))
                    .append(" against ")
                    .append(Numbers.format(furthest.paper()))
                    .append(" (")
                    .append(Numbers.percent(off(furthest.ours(), furthest.paper())))
                    .append(")");
        }
        Verdict.Outcome outcome = agree < measured
                ? Verdict.Outcome.DIFFERS
                : missing > 0 ? Verdict.Outcome.NOT_ENOUGH_DATA : Verdict.Outcome.AGREES;
        Verdict v = verdict(c, f, ours.toString(), outcome);
        return new Verdict(v.id(), v.kind(), v.figure(), v.claim(), v.outcome(), List.copyOf(rows), "");
    }

    /** Ours relative to the paper's: +0.12 is 12% above it. */
    static double off(double ours, double paper) {
        return paper == 0 ? (ours == 0 ? 0 : Math.signum(ours)) : (ours - paper) / Math.abs(paper);
    }
}
