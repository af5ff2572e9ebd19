package org.bgbench.study.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.Set;
import org.bgbench.study.report.Verdict.Outcome;
import org.junit.jupiter.api.Test;

/**
 * The break-even finding (CIKM 2013 section H) on synthetic service times whose answer is known: the paper's own
 * example (X = 8.6 at u = 0.4 %, a change that pays off), a change whose write slow-down exceeds the break-even
 * point, and a design not measured yet.
 */
class BreakEvenKindTest {
    private static final String[] MIXES = {"verylow", "high"};

    /** Basic and a new design: mean read and write times (ms) and % of writes at the very low and high mixes. */
    private static Study study(double newHighWriteMs) {
        return new Synthetic()
                .figure("read-ms", "mix", "ms")
                .categories("pg basic", MIXES, 150, 1)
                .categories("pg new", MIXES, 150 / 8.6, 0.5)
                .figure("write-ms", "mix", "ms")
                .categories("pg basic", MIXES, 1.4, 1)
                .categories("pg new", MIXES, 140, newHighWriteMs)
                .figure("write-pct", "mix", "%")
                .categories("pg basic", MIXES, 0.4, 10)
                .categories("pg new", MIXES, 0.4, 10)
                .study();
    }

    private static String finding(String at, boolean paperNewFaster) {
        return "{\"id\":\"h\",\"kind\":\"breakeven\",\"figure\":\"read-ms\",\"writes_figure\":\"write-ms\","
                + "\"shares_figure\":\"write-pct\",\"basic\":\"pg basic\",\"new\":\"pg new\",\"at\":\"" + at
                + "\",\"paper_new_faster\":" + paperNewFaster + "}";
    }

    @Test
    void thePapersExampleBreaksEvenFarAboveItsWriteSlowdown() {
        Verdict v = Findings.evaluate(Synthetic.parse(finding("verylow", true)), study(20));
        assertThat(v.outcome()).isEqualTo(Outcome.AGREES);
        // Equation 3: (8.6 − 1) / 8.6 · 0.996 / 0.004 · 150 / 1.4 + 1 = 23,577; the slow-down of 100 is far below.
        assertThat(v.claim().ours())
                .contains("X = 8.60×", "Y may reach 23,577×", "measured Y = 100×", "predicting pg new faster")
                .endsWith(": faster");
        assertThat(v.claim().paper())
                .isEqualTo(
                        "pg new is faster than pg basic at verylow, as equation 3's break-even slow-down of writes predicts");
    }

    @Test
    void aWriteSlowdownAboveTheBreakEvenPointMakesTheNewDesignSlower() {
        // u = 10 %, X = 2: Y may reach 0.5 · 9 · 1 + 1 = 5.5; writes 20 times slower make the new design slower.
        Verdict slower = Findings.evaluate(Synthetic.parse(finding("high", false)), study(20));
        assertThat(slower.outcome()).isEqualTo(Outcome.AGREES);
        assertThat(slower.claim().ours())
                .contains("Y may reach 5.50×", "predicting pg new slower")
                .endsWith(": slower");
        assertThat(Findings.evaluate(Synthetic.parse(finding("high", true)), study(20))
                        .outcome())
                .isEqualTo(Outcome.DIFFERS);
        // Writes only 3 times slower: below 5.5, so the new design is faster, against a paper that says slower.
        Verdict faster = Findings.evaluate(Synthetic.parse(finding("high", false)), study(3));
        assertThat(faster.outcome()).isEqualTo(Outcome.DIFFERS);
        assertThat(faster.claim().ours()).contains("predicting pg new faster").endsWith(": faster");
    }

    @Test
    void readsThatGotSlowerBreakEvenWithNoWriteTime() {
        // Reads 2 times slower (X = 0.5) at u = 10 %: Y = (−1) · 9 · 1 + 1 = −8, nothing makes up for them.
        Study s = new Synthetic()
                .figure("read-ms", "mix", "ms")
                .categories("pg basic", MIXES, 1, 1)
                .categories("pg new", MIXES, 1, 2)
                .figure("write-ms", "mix", "ms")
                .categories("pg basic", MIXES, 1, 1)
                .categories("pg new", MIXES, 1, 0.5)
                .figure("write-pct", "mix", "%")
                .categories("pg basic", MIXES, 0.4, 10)
                .categories("pg new", MIXES, 0.4, 10)
                .study();
        Verdict v = Findings.evaluate(Synthetic.parse(finding("high", false)), s);
        assertThat(v.claim().ours())
                .contains("no write time breaks even (equation 3 gives Y = -8.00×: reads got slower)")
                .contains("predicting pg new slower")
                .endsWith(": slower");
        assertThat(v.outcome()).isEqualTo(Outcome.AGREES);
    }

    @Test
    void aDesignNotMeasuredYetIsNotEnoughData() {
        Verdict v = Findings.evaluate(Synthetic.parse(finding("high", false)), study(Double.NaN));
        assertThat(v.outcome()).isEqualTo(Outcome.NOT_ENOUGH_DATA);
        assertThat(v.claim().ours()).contains("not every read and write time of both designs is measured at high");
    }

    @Test
    void aFindingNamingAFigureTheStudyLacksIsRefusedInOneLine() {
        String bad = finding("high", false).replace("\"write-ms\"", "\"write-time\"");
        Map<String, Set<String>> figures = Map.of(
                "read-ms", Set.of("pg basic", "pg new"),
                "write-ms", Set.of("pg basic", "pg new"),
                "write-pct", Set.of("pg basic", "pg new"));
        assertThat(Findings.check(Synthetic.parse(bad), figures).orElseThrow())
                .isEqualTo("finding 'h': field 'writes_figure' must be one of the study's figures: read-ms, write-ms,"
                        + " write-pct (got \"write-time\")");
        assertThat(Findings.check(Synthetic.parse(finding("high", false).replace("false", "\"no\"")))
                        .orElseThrow())
                .isEqualTo("finding 'h': field 'paper_new_faster' is required: true or false (got \"no\")");
    }
}
