package org.bgbench.study.report;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The break-even point of a physical design change (CIKM 2013 section H): from the Basic design's mean read and write
 * service times Q̄ and Ū and its share of writes u, and the new design's read speed-up X = Q̄ / Q̄', equation 3 gives
 * the write slow-down Y the change may cost before the workload's mean service time gets worse. The finding predicts
 * from it whether the new design is faster (its measured write slow-down Ū' / Ū below Y), checks the prediction
 * against both designs' measured mean service times (equations 1 and 2 as measured), and compares the outcome with
 * the paper's ({@code paper_new_faster}).
 *
 * <p>Fields: {@code basic} and {@code new} (series), {@code at} (the x, e.g. a mix), {@code figure} (mean read
 * service time), {@code writes_figure} (mean write service time), {@code shares_figure} (% of actions that write) and
 * {@code paper_new_faster}. Agrees when the prediction matches the measurement and the new design is faster exactly
 * when the paper says it is.
 */
final class BreakEvenKind implements FindingKind {
    @Override
    public String name() {
        return "breakeven";
    }

    @Override
    public Set<String> fields() {
        return Set.of("basic", "new", "at", "writes_figure", "shares_figure", "paper_new_faster");
    }

    @Override
    public void check(FieldCheck c) {
        if (c.text("basic").equals(c.text("new"))) {
            throw c.bad("new", "must name another series than 'basic'", c.node().get("new"));
        }
        if (c.optionalX("at") == null) {
            throw c.bad("at", "is required: the x (e.g. the mix) both designs are compared at", null);
        }
        c.text("writes_figure");
        c.text("shares_figure");
        c.bool("paper_new_faster");
    }

    @Override
    public List<Map.Entry<String, String>> seriesNamed(FieldCheck c) {
        return List.of(Map.entry("basic", c.text("basic")), Map.entry("new", c.text("new")));
    }

    @Override
    public List<Map.Entry<String, String>> figuresNamed(FieldCheck c) {
        return List.of(
                Map.entry("writes_figure", c.text("writes_figure")),
                Map.entry("shares_figure", c.text("shares_figure")));
    }

    @Override
    public String paper(FieldCheck c, Figure figure) {
        return c.text("new") + " is " + (c.bool("paper_new_faster") ? "faster" : "slower") + " than " + c.text("basic")
                + " at " + FindingKind.at(figure, c.optionalX("at"))
                + ", as equation 3's break-even slow-down of writes predicts";
    }

    @Override
    public Verdict evaluate(FieldCheck c, Figure f) {
        return verdict(c, f, "needs its writes and shares figures", Verdict.Outcome.NOT_ENOUGH_DATA);
    }

    @Override
    public Verdict evaluate(FieldCheck c, Figure reads, Study study) {
        Figure writes = study.figure(c.text("writes_figure"));
        Figure shares = study.figure(c.text("shares_figure"));
        if (writes == null || shares == null) {
            return verdict(
                    c,
                    reads,
                    "the study has no figure '" + (writes == null ? c.text("writes_figure") : c.text("shares_figure"))
                            + "'",
                    Verdict.Outcome.NOT_ENOUGH_DATA);
        }
        Figure.X at = c.optionalX("at");
        String basic = c.text("basic");
        String changed = c.text("new");
        Double q = y(reads, basic, at);
        Double uMs = y(writes, basic, at);
        Double share = y(shares, basic, at);
        Double q2 = y(reads, changed, at);
        Double u2 = y(writes, changed, at);
        Double share2 = y(shares, changed, at);
        if (q == null || uMs == null || share == null || q2 == null || u2 == null || share2 == null) {
            return verdict(
                    c,
                    reads,
                    "not every read and write time of both designs is measured at " + reads.at(at),
                    Verdict.Outcome.NOT_ENOUGH_DATA);
        }
        if (!(q > 0 && uMs > 0 && q2 > 0 && u2 > 0 && share > 0 && share < 100)) {
            return verdict(
                    c,
                    reads,
                    "both designs need reads and writes with positive service times at " + reads.at(at),
                    Verdict.Outcome.NOT_ENOUGH_DATA);
        }
        double u = share / 100;
        double x = q / q2;
        double slowdown = u2 / uMs;
        double tolerable = (x - 1) / x * (1 - u) / u * q / uMs + 1;
        boolean predictedFaster = slowdown < tolerable;
        double sBasic = u * uMs + (1 - u) * q;
        double sNew = share2 / 100 * u2 + (1 - share2 / 100) * q2;
        boolean measuredFaster = sNew < sBasic;
        String ours = String.format(
                Locale.ROOT,
                "at %s: Q̄ %s ms, Ū %s ms, u %s %%; X = %s, so %s; measured Y = %s, predicting %s %s;"
                        + " measured mean service time %s ms against %s ms: %s",
                reads.at(at),
                Numbers.format(q),
                Numbers.format(uMs),
                Numbers.format(share),
                Numbers.factor(x),
                tolerable > 0
                        ? "Y may reach " + Numbers.factor(tolerable)
                        : "no write time breaks even (equation 3 gives Y = " + Numbers.factor(tolerable)
                                + ": reads got slower)",
                Numbers.factor(slowdown),
                changed,
                predictedFaster ? "faster" : "slower",
                Numbers.format(sNew),
                Numbers.format(sBasic),
                measuredFaster ? "faster" : "slower");
        boolean agrees = predictedFaster == measuredFaster && measuredFaster == c.bool("paper_new_faster");
        return verdict(c, reads, ours, agrees ? Verdict.Outcome.AGREES : Verdict.Outcome.DIFFERS);
    }

    private static Double y(Figure f, String series, Figure.X at) {
        Figure.Series s = f.series(series);
        Figure.Point p = s == null ? null : s.at(at);
        return p != null && p.measured() ? p.y() : null;
    }
}
