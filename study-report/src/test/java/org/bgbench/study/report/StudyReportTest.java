package org.bgbench.study.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The report page's text: escaped, formatted, linked relative to itself, incomplete said, written atomically. */
class StudyReportTest {
    @TempDir
    Path dir;

    private String write() throws Exception {
        Path json = dir.resolve("study.json");
        Synthetic.JSON.writeValue(json.toFile(), Samples.study().json());
        Path html = dir.resolve("report.html");
        Files.writeString(html, "an older report");
        StudyReport.write(json, html);
        try (Stream<Path> files = Files.list(dir)) {
            assertThat(files.map(p -> p.getFileName().toString()))
                    .containsExactlyInAnyOrder("study.json", "report.html");
        }
        return Files.readString(html);
    }

    @Test
    void pageIsSelfContainedAndEscaped() throws Exception {
        String page = write();
        assertThat(page)
                .startsWith("<!DOCTYPE html>")
                .contains("<h1>Throughput against T &lt;synthetic&gt; &amp; friends</h1>")
                .contains("reproduces figure 3.3 of the dissertation")
                .doesNotContain("<script", "href=\"http", "src=", "<link", "url(", "@import");
    }

    @Test
    void numbersAreFormattedAndLinkedToTheirResults() throws Exception {
        String page = write();
        assertThat(page)
                .contains(">1,235</span>") // 1234.5: a separator, no decimals from 100 up
                .contains("<a href=\"points/sqlite-VP-8.0-r1.json\">")
                .contains("data-y=\"4210\"")
                .contains("data-y=\"1234.5\"") // the exact value for readers of the page
                .contains(">1,350</span>"); // the bar figure's
    }

    @Test
    void incompleteFailedAndDeviationsAreSaid() throws Exception {
        String page = write();
        assertThat(page)
                .contains("incomplete: 2 of 4 points")
                .contains("store refused: too many connections &lt;pool of 16&gt;")
                .contains("M = 300 members instead of 10,000")
                .contains("<code>bg study run synthetic-3.3 --scale tiny --out /tmp/s</code>")
                .contains("bench-1: 2 cores, 7.7 GB memory, Linux 6.1, Java 25");
    }

    @Test
    void aResultOutsideTheReportsDirectoryIsLinkedRelatively() {
        Links links = new Links(dir.resolve("html"), dir.resolve("out"));
        assertThat(links.to("points/a b#1.json")).isEqualTo("../out/points/a%20b%231.json");
        assertThat(links.to("")).isEmpty();
    }

    @Test
    void oddFiguresStillDraw() {
        String[] designs = {"Basic with images as BLOBs", "Boosted with images in files", "Manual", "MVs"};
        Study study = new Synthetic()
                .figure("one", "nodes", "speedup")
                .series("HBase Manual", 3, 2.4)
                .figure("pending", "T", "actions/s")
                .series("sqlite VP", 1, Double.NaN, 2, Double.NaN)
                .figure("paper-only", "T", "actions/s")
                .paper("MongoDB", 1, 100)
                .paper("MongoDB", 2, 180)
                .figure("designs", "design", "SoAR (actions/s)")
                .categories("a very long series name for the legend to wrap", designs, -20, 1e6, 3, 0)
                .categories("second", designs, 1, 2, 3, 4)
                .study();
        String page = StudyReport.html(study, new Links(dir, dir));
        assertThat(page)
                .contains("data-series=\"HBase Manual\" data-x=\"3\" data-y=\"2.4\"")
                .contains("<p class=\"none\">No point of this figure is measured yet.</p>")
                .contains("data-series=\"MongoDB\" data-x=\"2\" data-y=\"180\" data-source=\"paper\"")
                .contains("rotate(-30") // design names too long to stand side by side
                .contains(">1,000,000</span>")
                .doesNotContain("NaN", "Infinity");
    }

    @Test
    void findingsSayWhichAgree() throws Exception {
        String page = write();
        assertThat(page)
                .contains("data-finding=\"peak\" data-outcome=\"agrees\"")
                .contains("trend, <a href=\"#figure-3.3\">figure 3.3</a>") // where the paper states it
                .contains("data-finding=\"memory-rises\" data-outcome=\"not enough data\"")
                .contains("sqlite VP peaks at T=8 (4,210 actions/s) and falls to 3,900 at T=32");
    }

    @Test
    void aRateStudysCategoricalFigureDrawsEveryRatingAndItsFindingsReadTheCategory() {
        String[] stores = {"sqlite", "postgres"};
        Study study = new Synthetic()
                .figure("lambda", "store", "Λ (s)")
                .categories("reload", stores, 12.5, 40)
                .categories("loadfree", stores, 5, 8)
                .paper("loadfree", "postgres", 11820)
                .finding("{\"id\": \"speedup\", \"kind\": \"ratio\", \"figure\": \"lambda\", \"a\": \"reload\","
                        + " \"b\": \"loadfree\", \"at\": \"sqlite\", \"paper_factor\": 9.6, \"tolerance\": 1}")
                .finding("{\"id\": \"fastest\", \"kind\": \"winner\", \"figure\": \"lambda\", \"by\": \"lowest\","
                        + " \"at\": \"postgres\", \"paper_winner\": \"loadfree\"}")
                .study();
        String page = StudyReport.html(study, new Links(dir, dir));
        // Every rating is a bar of its own, at its category, with study.json's number, linked to its result.
        assertThat(page)
                .contains("<rect class=\"ours\"")
                .contains("data-series=\"reload\" data-x=\"sqlite\" data-y=\"12.5\" data-source=\"ours\"")
                .contains("data-series=\"reload\" data-x=\"postgres\" data-y=\"40\" data-source=\"ours\"")
                .contains("data-series=\"loadfree\" data-x=\"sqlite\" data-y=\"5\" data-source=\"ours\"")
                .contains("data-series=\"loadfree\" data-x=\"postgres\" data-y=\"11820\" data-source=\"paper\"")
                .contains("<a href=\"points/reload-0.0-r1.json\">");
        // 12.5 / 5 = 2.5, outside 9.6 / 2 to 9.6 × 2; loadfree is the lowest on postgres.
        assertThat(page)
                .contains("data-finding=\"speedup\" data-outcome=\"differs\"")
                .contains("reload / loadfree at sqlite: 12.5 / 5 s = 2.50×")
                .contains("data-finding=\"fastest\" data-outcome=\"agrees\"");
    }
}
