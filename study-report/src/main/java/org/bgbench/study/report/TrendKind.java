package org.bgbench.study.report;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The shape of one series' curve against x, beside the paper's {@code paper_trend}: increasing, decreasing,
 * peaks-then-falls, saturates (ends within {@code tolerance} of its peak, reached before the last x) or flat. Steps
 * smaller than the tolerance do not break a shape; a curve that fits none is irregular.
 */
final class TrendKind implements FindingKind {
    static final List<String> TRENDS = List.of("increasing", "decreasing", "peaks-then-falls", "saturates", "flat");
    private static final double DEFAULT_TOLERANCE = 0.05;

    @Override
    public String name() {
        return "trend";
    }

    @Override
    public Set<String> fields() {
        return Set.of("series", "paper_trend", "tolerance");
    }

    @Override
    public void check(FieldCheck c) {
        c.text("series");
        c.oneOf("paper_trend", TRENDS, null);
        c.optionalFraction("tolerance", DEFAULT_TOLERANCE);
    }

    @Override
    public List<Map.Entry<String, String>> seriesNamed(FieldCheck c) {
        return List.of(Map.entry("series", c.text("series")));
    }

    @Override
    public String paper(FieldCheck c, Figure figure) {
        return c.text("series") + " " + words(c.oneOf("paper_trend", TRENDS, null));
    }

    private static String words(String trend) {
        return switch (trend) {
            case "peaks-then-falls" -> "peaks then falls";
            case "flat" -> "stays flat";
            case "increasing" -> "increases";
            case "decreasing" -> "decreases";
            default -> trend;
        };
    }

    @Override
    public Verdict evaluate(FieldCheck c, Figure f) {
        String name = c.text("series");
        double t = c.optionalFraction("tolerance", DEFAULT_TOLERANCE);
        Figure.Series s = f.series(name);
        if (!f.numericX()) {
            return verdict(c, f, "the figure's x is categorical: no trend", Verdict.Outcome.NOT_ENOUGH_DATA);
        }
        if (s == null || s.points().stream().anyMatch(p -> !p.measured())) {
            return verdict(c, f, name + " has points not measured yet", Verdict.Outcome.NOT_ENOUGH_DATA);
        }
        List<Figure.Point> ps = s.points().stream()
                .sorted((p, q) -> Double.compare(p.x().number(), q.x().number()))
                .toList();
        if (ps.size() < 3) {
            return verdict(
                    c, f, name + " has " + ps.size() + " points; a trend needs 3", Verdict.Outcome.NOT_ENOUGH_DATA);
        }
        int n = ps.size();
        int peak = 0;
        double min = Double.MAX_VALUE;
        for (int i = 0; i < n; i++) {
            if (ps.get(i).y() > ps.get(peak).y()) {
                peak = i;
            }
            min = Math.min(min, ps.get(i).y());
        }
        double max = ps.get(peak).y();
        Figure.Point first = ps.get(0);
        Figure.Point last = ps.get(n - 1);
        Figure.Point top = ps.get(peak);
        String trend;
        String ours;
        if (min >= max * (1 - t)) {
            trend = "flat";
            ours = name + " stays within " + Numbers.percent(t).substring(1) + " of " + FindingKind.y(f, max) + " from "
                    + f.at(first.x()) + " to " + f.at(last.x());
        } else if (last.y() >= max * (1 - t) && rising(ps, 0, n - 1, t)) {
            int reach = 0;
            while (ps.get(reach).y() < max * (1 - t)) {
                reach++;
            }
            if (reach < n - 1) {
                trend = "saturates";
                ours = name + " rises from " + Numbers.format(first.y()) + " at " + f.at(first.x())
                        + " and saturates from " + f.at(ps.get(reach).x()) + " (within "
                        + Numbers.percent(t).substring(1) + " of its peak, " + FindingKind.y(f, max) + ")";
            } else {
                trend = "increasing";
                ours = name + " increases from " + Numbers.format(first.y()) + " at " + f.at(first.x()) + " to "
                        + FindingKind.y(f, last.y()) + " at " + f.at(last.x());
            }
        } else if (first.y() >= max * (1 - t) && falling(ps, 0, n - 1, t)) {
            trend = "decreasing";
            ours = name + " decreases from " + FindingKind.y(f, first.y()) + " at " + f.at(first.x()) + " to "
                    + Numbers.format(last.y()) + " at " + f.at(last.x());
        } else if (peak > 0 && peak < n - 1 && rising(ps, 0, peak, t) && falling(ps, peak, n - 1, t)) {
            trend = "peaks-then-falls";
            ours = name + " peaks at " + f.at(top.x()) + " (" + FindingKind.y(f, max) + ") and falls to "
                    + Numbers.format(last.y()) + " at " + f.at(last.x());
        } else {
            trend = "irregular";
            ours = name + " rises and falls without one shape: peak " + FindingKind.y(f, max) + " at " + f.at(top.x())
                    + ", low " + Numbers.format(min);
        }
        return verdict(
                c,
                f,
                ours,
                trend.equals(c.oneOf("paper_trend", TRENDS, null)) ? Verdict.Outcome.AGREES : Verdict.Outcome.DIFFERS);
    }

    /** No step from {@code from} to {@code to} falls by more than the tolerance. */
    private static boolean rising(List<Figure.Point> ps, int from, int to, double t) {
        for (int i = from; i < to; i++) {
            if (ps.get(i + 1).y() < ps.get(i).y() * (1 - t)) {
                return false;
            }
        }
        return true;
    }

    /** No step from {@code from} to {@code to} rises by more than the tolerance. */
    private static boolean falling(List<Figure.Point> ps, int from, int to, double t) {
        for (int i = from; i < to; i++) {
            if (ps.get(i + 1).y() > ps.get(i).y() * (1 + t)) {
                return false;
            }
        }
        return true;
    }
}
