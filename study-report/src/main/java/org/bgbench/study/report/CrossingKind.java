package org.bgbench.study.report;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Where the curves of series {@code a} and {@code b} cross (linearly between the two x around a change of sign),
 * beside the paper's {@code paper_x}: the range {@code [from, to]} it crosses in, or {@code "none"}.
 */
final class CrossingKind implements FindingKind {
    private static final String RANGE = "must be [from, to] (two numbers, from <= to) or \"none\"";

    @Override
    public String name() {
        return "crossing";
    }

    @Override
    public Set<String> fields() {
        return Set.of("a", "b", "paper_x");
    }

    @Override
    public void check(FieldCheck c) {
        if (c.text("a").equals(c.text("b"))) {
            throw c.bad("b", "must name another series than 'a'", c.node().get("b"));
        }
        range(c);
    }

    /** The paper's range, or null for "none". */
    private static double[] range(FieldCheck c) {
        JsonNode v = c.node().get("paper_x");
        if (v != null && v.isTextual() && v.asText().equals("none")) {
            return null;
        }
        if (v == null
                || !v.isArray()
                || v.size() != 2
                || !v.get(0).isNumber()
                || !v.get(1).isNumber()
                || v.get(0).asDouble() > v.get(1).asDouble()) {
            throw c.bad("paper_x", RANGE, v);
        }
        return new double[] {v.get(0).asDouble(), v.get(1).asDouble()};
    }

    @Override
    public List<Map.Entry<String, String>> seriesNamed(FieldCheck c) {
        return List.of(Map.entry("a", c.text("a")), Map.entry("b", c.text("b")));
    }

    @Override
    public String paper(FieldCheck c, Figure figure) {
        double[] r = range(c);
        String pair = c.text("a") + " and " + c.text("b");
        if (r == null) {
            return pair + " do not cross";
        }
        return pair + " cross "
                + (r[0] == r[1]
                        ? "at " + FindingKind.at(figure, new Figure.X(r[0], null))
                        : "between " + FindingKind.at(figure, new Figure.X(r[0], null)) + " and "
                                + FindingKind.at(figure, new Figure.X(r[1], null)));
    }

    @Override
    public Verdict evaluate(FieldCheck c, Figure f) {
        String a = c.text("a");
        String b = c.text("b");
        Figure.Series sa = f.series(a);
        Figure.Series sb = f.series(b);
        if (!f.numericX()) {
            return verdict(c, f, "the figure's x is categorical: no crossing", Verdict.Outcome.NOT_ENOUGH_DATA);
        }
        for (Figure.Series s : new Figure.Series[] {sa, sb}) {
            if (s == null || s.points().stream().anyMatch(p -> !p.measured())) {
                return verdict(
                        c,
                        f,
                        (s == null ? (sa == null ? a : b) : s.name()) + " has points not measured yet",
                        Verdict.Outcome.NOT_ENOUGH_DATA);
            }
        }
        List<double[]> shared = new ArrayList<>(); // x, ya - yb
        for (Figure.X x : f.xs()) {
            Figure.Point pa = sa.at(x);
            Figure.Point pb = sb.at(x);
            if (pa != null && pb != null) {
                shared.add(new double[] {x.number(), pa.y() - pb.y()});
            }
        }
        if (shared.size() < 2) {
            return verdict(c, f, a + " and " + b + " share fewer than two x", Verdict.Outcome.NOT_ENOUGH_DATA);
        }
        List<Double> crossings = new ArrayList<>();
        double[] last = null; // the last shared x where the curves differ
        for (double[] p : shared) {
            if (p[1] == 0) {
                continue;
            }
            if (last != null && Math.signum(p[1]) != Math.signum(last[1])) {
                crossings.add(last[0] + (p[0] - last[0]) * (last[1] / (last[1] - p[1])));
            }
            last = p;
        }
        double lo = shared.get(0)[0];
        double hi = shared.get(shared.size() - 1)[0];
        Figure.X xLo = new Figure.X(lo, null);
        Figure.X xHi = new Figure.X(hi, null);
        double[] r = range(c);
        if (crossings.isEmpty()) {
            String above = last == null ? "neither" : last[1] > 0 ? a : b;
            String ours = a + " and " + b + " do not cross from " + f.at(xLo) + " to " + f.at(xHi)
                    + (last == null ? " (they are equal)" : " (" + above + " stays above)");
            if (r != null && (r[1] < lo || r[0] > hi)) {
                return verdict(
                        c, f, ours + ", and the paper's crossing lies outside it", Verdict.Outcome.NOT_ENOUGH_DATA);
            }
            return verdict(c, f, ours, r == null ? Verdict.Outcome.AGREES : Verdict.Outcome.DIFFERS);
        }
        double first = crossings.get(0);
        String ours = a + " and " + b + " cross near " + f.at(new Figure.X(round(first), null))
                + (crossings.size() > 1
                        ? " (first of " + crossings.size() + " crossings)"
                        : " (" + (firstSign(shared) > 0 ? a : b) + " above before, " + (last[1] > 0 ? a : b)
                                + " above after)");
        boolean inRange = r != null && crossings.stream().anyMatch(x -> x >= r[0] && x <= r[1]);
        return verdict(c, f, ours, inRange ? Verdict.Outcome.AGREES : Verdict.Outcome.DIFFERS);
    }

    private static double firstSign(List<double[]> shared) {
        return shared.stream()
                .mapToDouble(p -> Math.signum(p[1]))
                .filter(d -> d != 0)
                .findFirst()
                .orElse(0);
    }

    /** An interpolated crossing claims no more than one decimal (none from 10 up). */
    private static double round(double x) {
        return Math.abs(x) >= 10 ? Math.round(x) : Math.round(x * 10) / 10.0;
    }
}
