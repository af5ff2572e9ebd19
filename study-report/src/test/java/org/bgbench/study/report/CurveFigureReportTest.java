package org.bgbench.study.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A curve figure (each series one point's freshness-confidence curve: fractional x, shares on y, series with x of
 * their own) is drawn with exactly the numbers of study.json, and a finding reads it like any other figure.
 */
class CurveFigureReportTest {
    private static final Pattern OURS = Pattern.compile(
            "<circle class=\"ours\"[^>]*data-series=\"([^\"]*)\" data-x=\"([^\"]*)\" data-y=\"([^\"]*)\"");
    private static final Pattern TABLE =
            Pattern.compile("<span class=\"value\" data-series=\"([^\"]*)\" data-x=\"([^\"]*)\" data-y=\"([^\"]*)\" "
                    + "data-source=\"ours\">");

    @TempDir
    Path dir;

    @Test
    void everyPointOfEachCurveIsDrawnAndTabledAsStudyJsonHasIt() {
        Study study = new Synthetic()
                .figure("fig-6.3", "ms since the latest write", "freshness confidence (share of reads)")
                .series("casql ttl-30s", 225.125, 0.25, 450.25, 0.625, 675.375, 0.8125)
                .series("casql ttl-120s", 225.5, 0.125, 451.0, 0.25, 676.5, 0.375)
                .finding("{\"id\": \"fresh\", \"kind\": \"winner\", \"figure\": \"fig-6.3\","
                        + " \"paper_winner\": \"casql ttl-30s\"}")
                .study();
        String page = StudyReport.html(study, new Links(dir, dir));
        List<String> expected = new ArrayList<>();
        for (Figure.Series s : study.figure("fig-6.3").series()) {
            for (Figure.Point p : s.points()) {
                expected.add(s.name() + " @" + p.x().number() + " = " + p.y());
            }
        }
        assertThat(expected).hasSize(6);
        assertThat(read(OURS, page)).containsExactlyInAnyOrderElementsOf(expected);
        assertThat(read(TABLE, page)).containsExactlyInAnyOrderElementsOf(expected);
        assertThat(page)
                .contains("data-finding=\"fresh\" data-outcome=\"agrees\"")
                .doesNotContain("NaN");
    }

    private static List<String> read(Pattern p, String page) {
        List<String> out = new ArrayList<>();
        Matcher m = p.matcher(page);
        while (m.find()) {
            out.add(m.group(1) + " @" + Double.parseDouble(m.group(2)) + " = " + Double.parseDouble(m.group(3)));
        }
        return out;
    }
}
