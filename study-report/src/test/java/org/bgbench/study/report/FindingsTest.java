package org.bgbench.study.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.Set;
import org.bgbench.study.report.Verdict.Outcome;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Each kind of finding on synthetic curves whose answer is known: agrees, differs, and not enough data. */
class FindingsTest {
    private static final double NA = Double.NaN;

    /** SQLite peaks at T=8 and falls; memory keeps rising and crosses SQLite between T=4 and T=8; Mongo saturates. */
    private static Synthetic curves() {
        return new Synthetic()
                .figure("3.3", "T", "actions/s")
                .series("sqlite VP", 1, 1000, 2, 2000, 4, 3500, 8, 4210, 16, 4000, 32, 3900)
                .series("memory VP", 1, 800, 2, 1700, 4, 3000, 8, 5000, 16, 7000, 32, 9000)
                .series("mongo VP", 1, 500, 2, 900, 4, 1500, 8, 1900, 16, 1950, 32, 1960)
                .series("slow VP", 1, 5000, 2, 4000, 4, 3000, 8, 2000, 16, 1500, 32, 1000)
                .series("flat VP", 1, 1000, 2, 1020, 4, 990, 8, 1010, 16, 1000, 32, 995)
                .series("partial VP", 1, 100, 2, NA, 4, 300, 8, NA, 16, 500, 32, 600)
                .paper("sqlite VP", 8, 4000)
                .paper("memory VP", 32, 10000);
    }

    private static Verdict eval(String finding) {
        return Findings.evaluate(Synthetic.parse(finding), curves().study());
    }

    @Test
    void trendFindsEachShapeAndSaysSo() {
        Verdict peak = eval("{\"id\":\"peak\",\"kind\":\"trend\",\"figure\":\"3.3\",\"series\":\"sqlite VP\","
                + "\"paper_trend\":\"peaks-then-falls\"}");
        assertThat(peak.outcome()).isEqualTo(Outcome.AGREES);
        assertThat(peak.statement())
                .isEqualTo("sqlite VP peaks at T=8 (4,210 actions/s) and falls to 3,900 at T=32;"
                        + " the paper: sqlite VP peaks then falls — agrees");
        assertThat(eval(trend("memory VP", "increasing")).outcome()).isEqualTo(Outcome.AGREES);
        Verdict sat = eval(trend("mongo VP", "saturates"));
        assertThat(sat.outcome()).isEqualTo(Outcome.AGREES);
        assertThat(sat.claim().ours()).contains("saturates from T=8");
        assertThat(eval(trend("slow VP", "decreasing")).outcome()).isEqualTo(Outcome.AGREES);
        assertThat(eval(trend("flat VP", "flat")).outcome()).isEqualTo(Outcome.AGREES);
    }

    @Test
    void trendDiffersWhenTheShapeIsAnother() {
        Verdict v = eval(trend("sqlite VP", "increasing"));
        assertThat(v.outcome()).isEqualTo(Outcome.DIFFERS);
        assertThat(v.statement()).endsWith("the paper: sqlite VP increases — differs");
        assertThat(eval(trend("memory VP", "saturates")).outcome()).isEqualTo(Outcome.DIFFERS);
        // A wider tolerance reads SQLite's 7% fall after its peak as saturation.
        Verdict wide = eval("{\"id\":\"t\",\"kind\":\"trend\",\"figure\":\"3.3\",\"series\":\"sqlite VP\","
                + "\"paper_trend\":\"saturates\",\"tolerance\":0.1}");
        assertThat(wide.outcome()).isEqualTo(Outcome.AGREES);
    }

    @Test
    void trendLacksDataWhileAPointIsMissing() {
        Verdict v = eval(trend("partial VP", "increasing"));
        assertThat(v.outcome()).isEqualTo(Outcome.NOT_ENOUGH_DATA);
        assertThat(v.claim().ours()).isEqualTo("partial VP has points not measured yet");
        assertThat(eval(trend("no such VP", "increasing")).outcome()).isEqualTo(Outcome.NOT_ENOUGH_DATA);
    }

    @Test
    void winnerAtOneXAndOverAll() {
        Verdict at = eval("{\"id\":\"w\",\"kind\":\"winner\",\"figure\":\"3.3\",\"paper_winner\":\"sqlite VP\","
                + "\"at\":2,\"among\":[\"sqlite VP\",\"memory VP\",\"mongo VP\"]}");
        assertThat(at.outcome()).isEqualTo(Outcome.AGREES);
        assertThat(at.claim().ours())
                .isEqualTo("sqlite VP is highest at T=2 (2,000 actions/s), then memory VP (1,700)");
        Verdict all = eval("{\"id\":\"w\",\"kind\":\"winner\",\"figure\":\"3.3\",\"paper_winner\":\"sqlite VP\","
                + "\"among\":[\"sqlite VP\",\"memory VP\",\"mongo VP\"]}");
        assertThat(all.outcome()).isEqualTo(Outcome.DIFFERS);
        assertThat(all.claim().ours()).startsWith("memory VP is highest overall: 9,000 actions/s at T=32");
        Verdict lowest = eval("{\"id\":\"w\",\"kind\":\"winner\",\"figure\":\"3.3\",\"paper_winner\":\"mongo VP\","
                + "\"by\":\"lowest\",\"among\":[\"sqlite VP\",\"memory VP\",\"mongo VP\"]}");
        assertThat(lowest.outcome()).isEqualTo(Outcome.AGREES);
        Verdict missing = eval("{\"id\":\"w\",\"kind\":\"winner\",\"figure\":\"3.3\",\"paper_winner\":\"sqlite VP\","
                + "\"at\":8,\"among\":[\"sqlite VP\",\"partial VP\"]}");
        assertThat(missing.outcome()).isEqualTo(Outcome.NOT_ENOUGH_DATA);
    }

    @ParameterizedTest
    @CsvSource({
        "32, 2, 0.25, AGREES", // 9,000 / 3,900 = 2.31, within 1.6 to 2.5
        "32, 3, 0.2, DIFFERS", // outside 2.5 to 3.6
        "32, 0.5, 4, DIFFERS", // within 0.1 to 2.5 but on the other side of 1
        "64, 2, 0.25, NOT_ENOUGH_DATA"
    })
    void ratioAtOneX(int at, double factor, double tolerance, Outcome expected) {
        Verdict v = eval("{\"id\":\"r\",\"kind\":\"ratio\",\"figure\":\"3.3\",\"a\":\"memory VP\",\"b\":\"sqlite VP\","
                + "\"at\":" + at + ",\"paper_factor\":" + factor + ",\"tolerance\":" + tolerance + "}");
        assertThat(v.outcome()).isEqualTo(expected);
        if (expected != Outcome.NOT_ENOUGH_DATA) {
            assertThat(v.claim().ours()).endsWith(": 9,000 / 3,900 actions/s = 2.31×");
        }
    }

    @Test
    void ratioAtEachSeriesPeak() {
        Verdict v = eval("{\"id\":\"r\",\"kind\":\"ratio\",\"figure\":\"3.3\",\"a\":\"memory VP\",\"b\":\"sqlite VP\","
                + "\"paper_factor\":2,\"tolerance\":0.1}");
        assertThat(v.outcome()).isEqualTo(Outcome.AGREES);
        assertThat(v.claim().ours()).contains("9,000 actions/s at T=32 / 4,210 at T=8 = 2.14×");
        Verdict partial = eval("{\"id\":\"r\",\"kind\":\"ratio\",\"figure\":\"3.3\",\"a\":\"partial VP\","
                + "\"b\":\"sqlite VP\",\"paper_factor\":2,\"tolerance\":0.1}");
        assertThat(partial.outcome()).isEqualTo(Outcome.NOT_ENOUGH_DATA);
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "sqlite VP | memory VP | [4, 8] | AGREES",
                "sqlite VP | memory VP | [16, 32] | DIFFERS",
                "sqlite VP | memory VP | \"none\" | DIFFERS",
                "memory VP | mongo VP | \"none\" | AGREES",
                "memory VP | mongo VP | [2, 4] | DIFFERS",
                "memory VP | mongo VP | [64, 128] | NOT_ENOUGH_DATA",
                "sqlite VP | partial VP | [4, 8] | NOT_ENOUGH_DATA"
            })
    void crossing(String a, String b, String paperX, Outcome expected) {
        Verdict v = eval("{\"id\":\"c\",\"kind\":\"crossing\",\"figure\":\"3.3\",\"a\":\"" + a + "\",\"b\":\"" + b
                + "\",\"paper_x\":" + paperX + "}");
        assertThat(v.outcome()).isEqualTo(expected);
    }

    @Test
    void crossingIsInterpolatedBetweenTheXAroundIt() {
        // 3,500 − 3,000 = +500 at T=4, 4,210 − 5,000 = −790 at T=8: zero at 4 + 4 × 500 / 1,290 = 5.55.
        Verdict v = eval("{\"id\":\"c\",\"kind\":\"crossing\",\"figure\":\"3.3\",\"a\":\"sqlite VP\","
                + "\"b\":\"memory VP\",\"paper_x\":[4,8]}");
        assertThat(v.claim().ours())
                .isEqualTo("sqlite VP and memory VP cross near T=5.6 (sqlite VP above before, memory VP above after)");
        assertThat(v.claim().paper()).isEqualTo("sqlite VP and memory VP cross between T=4 and T=8");
        Verdict none = eval("{\"id\":\"c\",\"kind\":\"crossing\",\"figure\":\"3.3\",\"a\":\"memory VP\","
                + "\"b\":\"mongo VP\",\"paper_x\":\"none\"}");
        assertThat(none.claim().ours())
                .isEqualTo("memory VP and mongo VP do not cross from T=1 to T=32 (memory VP stays above)");
    }

    @Test
    void tableComparesEachRowWithinTheTolerance() {
        // Ours: 4,210 against 4,000 (+5%) and 9,000 against 10,000 (−10%).
        Verdict v = eval("{\"id\":\"t\",\"kind\":\"table\",\"figure\":\"3.3\",\"tolerance\":0.15}");
        assertThat(v.outcome()).isEqualTo(Outcome.AGREES);
        assertThat(v.rows()).extracting(Verdict.Row::ours).containsExactly(4210.0, 9000.0);
        assertThat(v.claim().ours())
                .isEqualTo("2 of 2 measured values within ±15% of the paper's; furthest: memory VP at T=32,"
                        + " 9,000 against 10,000 (−10%)");
        Verdict tight = eval("{\"id\":\"t\",\"kind\":\"table\",\"figure\":\"3.3\",\"tolerance\":0.07}");
        assertThat(tight.outcome()).isEqualTo(Outcome.DIFFERS);
        assertThat(tight.rows()).extracting(Verdict.Row::outcome).containsExactly(Outcome.AGREES, Outcome.DIFFERS);
        Verdict missing = eval("{\"id\":\"t\",\"kind\":\"table\",\"figure\":\"3.3\",\"tolerance\":0.15,"
                + "\"rows\":[{\"series\":\"sqlite VP\",\"x\":8,\"paper\":4000},"
                + "{\"series\":\"partial VP\",\"x\":8,\"paper\":350}]}");
        assertThat(missing.outcome()).isEqualTo(Outcome.NOT_ENOUGH_DATA);
        assertThat(missing.claim().ours()).contains("1 of 1 measured values", "(1 not measured yet)");
    }

    @Test
    void aFindingOfAFigureTheStudyLacksHasNoData() {
        Verdict v = eval(trend("sqlite VP", "increasing").replace("\"3.3\"", "\"9.9\""));
        assertThat(v.outcome()).isEqualTo(Outcome.NOT_ENOUGH_DATA);
        assertThat(v.claim().ours()).isEqualTo("the study has no figure '9.9'");
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "{\"id\":\"x\",\"figure\":\"f\"} | finding 'x': field 'kind' must be one of winner, ratio, crossing,"
                        + " trend, table",
                "{\"kind\":\"trend\"} | finding: field 'id' is required: a non-empty string",
                "{\"id\":\"x\",\"kind\":\"trend\",\"figure\":\"f\",\"series\":\"s\",\"paper_trend\":\"up\"}"
                        + " | finding 'x': field 'paper_trend' must be one of increasing, decreasing,"
                        + " peaks-then-falls, saturates, flat (got \"up\")",
                "{\"id\":\"x\",\"kind\":\"trend\",\"figure\":\"f\",\"series\":\"s\",\"paper_trend\":\"flat\","
                        + "\"tolerance\":5} | finding 'x': field 'tolerance' must be a number above 0 and below 1",
                "{\"id\":\"x\",\"kind\":\"trend\",\"figure\":\"f\",\"series\":\"s\",\"paper_trend\":\"flat\","
                        + "\"colour\":1} | finding 'x': unknown field 'colour'; accepted: figure, id, kind,"
                        + " paper_trend, series, tolerance, where",
                "{\"id\":\"x\",\"kind\":\"ratio\",\"figure\":\"f\",\"a\":\"p\",\"b\":\"q\",\"paper_factor\":-1,"
                        + "\"tolerance\":0.1} | finding 'x': field 'paper_factor' is required: a number above 0"
                        + " (got -1)",
                "{\"id\":\"x\",\"kind\":\"ratio\",\"figure\":\"f\",\"a\":\"p\",\"b\":\"p\",\"paper_factor\":2,"
                        + "\"tolerance\":0.1} | finding 'x': field 'b' must name another series than 'a'",
                "{\"id\":\"x\",\"kind\":\"crossing\",\"figure\":\"f\",\"a\":\"p\",\"b\":\"q\",\"paper_x\":[8,4]}"
                        + " | finding 'x': field 'paper_x' must be [from, to]",
                "{\"id\":\"x\",\"kind\":\"winner\",\"figure\":\"f\",\"paper_winner\":\"z\",\"among\":[\"p\",\"q\"]}"
                        + " | finding 'x': field 'paper_winner' must be one of the series in 'among': p, q",
                "{\"id\":\"x\",\"kind\":\"winner\",\"figure\":\"f\",\"paper_winner\":\"p\",\"at\":[1]}"
                        + " | finding 'x': field 'at' must be an x value of the figure",
                "{\"id\":\"x\",\"kind\":\"table\",\"figure\":\"f\",\"tolerance\":0.1,\"rows\":[{\"series\":\"p\"}]}"
                        + " | finding 'x': field 'rows' must be a list of rows",
                "{\"id\":\"x\",\"kind\":\"table\",\"tolerance\":0.1} | finding 'x': field 'figure' is required"
            })
    void checkNamesTheBadFieldInOneLine(String finding, String expected) {
        String line = Findings.check(Synthetic.parse(finding)).orElseThrow();
        assertThat(line).startsWith(expected).doesNotContain("\n");
        assertThatThrownBy(() -> Findings.evaluate(Synthetic.parse(finding), curves().study()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(line);
    }

    @Test
    void checkAcceptsEachKindWellFormed() {
        for (String f : new String[] {
            trend("s", "flat"),
            "{\"id\":\"w\",\"kind\":\"winner\",\"figure\":\"f\",\"paper_winner\":\"p\",\"at\":\"Boosted\","
                    + "\"where\":\"table 8.3\"}",
            "{\"id\":\"r\",\"kind\":\"ratio\",\"figure\":\"f\",\"a\":\"p\",\"b\":\"q\",\"paper_factor\":2,"
                    + "\"tolerance\":0.5}",
            "{\"id\":\"c\",\"kind\":\"crossing\",\"figure\":\"f\",\"a\":\"p\",\"b\":\"q\",\"paper_x\":[1,2]}",
            "{\"id\":\"t\",\"kind\":\"table\",\"figure\":\"f\",\"tolerance\":0.2,"
                    + "\"rows\":[{\"series\":\"p\",\"x\":\"Basic\",\"paper\":12}]}"
        }) {
            assertThat(Findings.check(Synthetic.parse(f))).as(f).isEmpty();
        }
    }

    @Test
    void checkAgainstTheStudysFiguresNamesAnUnknownFigureOrSeries() {
        Map<String, Set<String>> figures = Map.of("3.3", Set.of("sqlite VP", "memory VP"), "8.3", Set.of());
        assertThat(Findings.check(Synthetic.parse(trend("sqlite VP", "flat")), figures))
                .isEmpty();
        assertThat(Findings.check(Synthetic.parse(trend("mongo VP", "flat")), figures))
                .contains("finding 't': field 'series' must name a series of figure '3.3': memory VP, sqlite VP"
                        + " (got \"mongo VP\")");
        assertThat(Findings.check(Synthetic.parse(trend("s", "flat").replace("3.3", "9.9")), figures))
                .contains("finding 't': field 'figure' must be one of the study's figures: 3.3, 8.3 (got \"9.9\")");
        String among = "{\"id\":\"w\",\"kind\":\"winner\",\"figure\":\"3.3\",\"paper_winner\":\"sqlite VP\","
                + "\"among\":[\"sqlite VP\",\"hbase VP\"]}";
        assertThat(Findings.check(Synthetic.parse(among), figures).orElseThrow())
                .contains("field 'among'");
        // Series not known before the study runs (an empty set) are not checked.
        assertThat(Findings.check(Synthetic.parse(among.replace("3.3", "8.3")), figures))
                .isEmpty();
    }

    private static String trend(String series, String paperTrend) {
        return "{\"id\":\"t\",\"kind\":\"trend\",\"figure\":\"3.3\",\"series\":\"" + series + "\",\"paper_trend\":\""
                + paperTrend + "\"}";
    }
}
