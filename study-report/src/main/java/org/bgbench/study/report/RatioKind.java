package org.bgbench.study.report;

import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The y of series {@code a} over series {@code b}, at one x ({@code at}) or at each series' maximum, beside the
 * paper's {@code paper_factor}: agrees when ours is within a factor (1 + {@code tolerance}) of it and on the same
 * side of 1.
 */
final class RatioKind implements FindingKind {
    @Override
    public String name() {
        return "ratio";
    }

    @Override
    public Set<String> fields() {
        return Set.of("a", "b", "at", "paper_factor", "tolerance");
    }

    @Override
    public void check(FieldCheck c) {
        if (c.text("a").equals(c.text("b"))) {
            throw c.bad("b", "must name another series than 'a'", c.node().get("b"));
        }
        c.optionalX("at");
        c.positive("paper_factor");
        c.positive("tolerance");
    }

    @Override
    public List<Map.Entry<String, String>> seriesNamed(FieldCheck c) {
        return List.of(Map.entry("a", c.text("a")), Map.entry("b", c.text("b")));
    }

    @Override
    public String paper(FieldCheck c, Figure figure) {
        double f = c.positive("paper_factor");
        double t = c.positive("tolerance");
        Figure.X at = c.optionalX("at");
        return c.text("a") + " / " + c.text("b")
                + (at == null ? " at their peaks" : " at " + FindingKind.at(figure, at)) + " = "
                + Numbers.factor(f) + " (accepted: " + Numbers.factor(f / (1 + t)) + " to "
                + Numbers.factor(f * (1 + t))
                + ")";
    }

    @Override
    public Verdict evaluate(FieldCheck c, Figure f) {
        String a = c.text("a");
        String b = c.text("b");
        Figure.X at = c.optionalX("at");
        Figure.Point pa = point(f, a, at);
        Figure.Point pb = point(f, b, at);
        if (pa == null || pb == null) {
            String missing = pa == null ? a : b;
            return verdict(
                    c,
                    f,
                    missing + (at == null ? " has points not measured yet" : " is not measured at " + f.at(at)),
                    Verdict.Outcome.NOT_ENOUGH_DATA);
        }
        if (pb.y() == 0) {
            return verdict(c, f, b + " is 0: no ratio", Verdict.Outcome.NOT_ENOUGH_DATA);
        }
        double ratio = pa.y() / pb.y();
        String ours = a + " / " + b
                + (at == null
                        ? " at their peaks: " + FindingKind.y(f, pa.y()) + " at " + f.at(pa.x()) + " / "
                                + Numbers.format(pb.y()) + " at " + f.at(pb.x())
                        : " at " + f.at(at) + ": " + Numbers.format(pa.y()) + " / " + FindingKind.y(f, pb.y()))
                + " = " + Numbers.factor(ratio);
        double factor = c.positive("paper_factor");
        double t = c.positive("tolerance");
        boolean within = ratio >= factor / (1 + t) && ratio <= factor * (1 + t);
        boolean sameSide = factor == 1 || (ratio > 1) == (factor > 1);
        return verdict(c, f, ours, within && sameSide ? Verdict.Outcome.AGREES : Verdict.Outcome.DIFFERS);
    }

    /** The series' point at {@code at}, or its highest when {@code at} is null; null when not measured. */
    private static Figure.Point point(Figure f, String name, Figure.X at) {
        Figure.Series s = f.series(name);
        if (s == null || s.points().isEmpty()) {
            return null;
        }
        if (at != null) {
            Figure.Point p = s.at(at);
            return p != null && p.measured() ? p : null;
        }
        if (s.points().stream().anyMatch(p -> !p.measured())) {
            return null;
        }
        return s.points().stream()
                .max(Comparator.comparingDouble(Figure.Point::y))
                .orElseThrow();
    }
}
