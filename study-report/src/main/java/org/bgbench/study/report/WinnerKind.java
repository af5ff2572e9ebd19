package org.bgbench.study.report;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which series has the highest (or lowest) y: at one x ({@code at}), or over all x by each series' best point.
 * Fields: {@code paper_winner}, optional {@code by} (highest, lowest), {@code at}, {@code among} (series names).
 */
final class WinnerKind implements FindingKind {
    private record Best(String series, Figure.Point point) {}

    @Override
    public String name() {
        return "winner";
    }

    @Override
    public Set<String> fields() {
        return Set.of("paper_winner", "by", "at", "among");
    }

    @Override
    public void check(FieldCheck c) {
        String winner = c.text("paper_winner");
        c.oneOf("by", List.of("highest", "lowest"), "highest");
        c.optionalX("at");
        List<String> among = c.optionalNames("among");
        if (!among.isEmpty() && !among.contains(winner)) {
            throw c.bad("paper_winner", "must be one of the series in 'among': " + String.join(", ", among), null);
        }
    }

    @Override
    public List<Map.Entry<String, String>> seriesNamed(FieldCheck c) {
        List<Map.Entry<String, String>> named = new ArrayList<>();
        named.add(Map.entry("paper_winner", c.text("paper_winner")));
        c.optionalNames("among").forEach(n -> named.add(Map.entry("among", n)));
        return named;
    }

    @Override
    public String paper(FieldCheck c, Figure figure) {
        Figure.X at = c.optionalX("at");
        return c.text("paper_winner") + " is " + c.oneOf("by", List.of("highest", "lowest"), "highest")
                + (at == null ? " overall" : " at " + FindingKind.at(figure, at));
    }

    @Override
    public Verdict evaluate(FieldCheck c, Figure f) {
        boolean highest = c.oneOf("by", List.of("highest", "lowest"), "highest").equals("highest");
        Figure.X at = c.optionalX("at");
        List<String> among = c.optionalNames("among");
        if (among.isEmpty()) {
            among = f.series().stream().map(Figure.Series::name).toList();
        }
        List<Best> best = new ArrayList<>();
        for (String name : among) {
            Figure.Series s = f.series(name);
            if (s == null || s.points().isEmpty()) {
                return verdict(c, f, "no points for " + name + " yet", Verdict.Outcome.NOT_ENOUGH_DATA);
            }
            Figure.Point p;
            if (at != null) {
                p = s.at(at);
                if (p == null || !p.measured()) {
                    return verdict(
                            c, f, name + " is not measured at " + f.at(at) + " yet", Verdict.Outcome.NOT_ENOUGH_DATA);
                }
            } else {
                if (s.points().stream().anyMatch(q -> !q.measured())) {
                    return verdict(c, f, name + " has points not measured yet", Verdict.Outcome.NOT_ENOUGH_DATA);
                }
                Comparator<Figure.Point> byY = Comparator.comparingDouble(Figure.Point::y);
                p = highest
                        ? s.points().stream().max(byY).orElseThrow()
                        : s.points().stream().min(byY).orElseThrow();
            }
            best.add(new Best(name, p));
        }
        if (best.size() < 2) {
            return verdict(c, f, "fewer than two series to compare", Verdict.Outcome.NOT_ENOUGH_DATA);
        }
        Comparator<Best> order = Comparator.comparingDouble(b -> b.point().y());
        best.sort(highest ? order.reversed() : order);
        Best first = best.get(0);
        Best second = best.get(1);
        String word = highest ? "highest" : "lowest";
        String ours = at != null
                ? first.series() + " is " + word + " at " + f.at(at) + " ("
                        + FindingKind.y(f, first.point().y()) + "), then " + second.series() + " ("
                        + Numbers.format(second.point().y()) + ")"
                : first.series() + " is " + word + " overall: "
                        + FindingKind.y(f, first.point().y()) + " at "
                        + f.at(first.point().x()) + " (next: " + second.series() + ", "
                        + Numbers.format(second.point().y()) + " at "
                        + f.at(second.point().x()) + ")";
        boolean agrees = first.series().equals(c.text("paper_winner"));
        return verdict(c, f, ours, agrees ? Verdict.Outcome.AGREES : Verdict.Outcome.DIFFERS);
    }
}
