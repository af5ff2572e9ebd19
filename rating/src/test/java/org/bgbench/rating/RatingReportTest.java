package org.bgbench.rating;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.NodeList;
import org.xml.sax.SAXException;

class RatingReportTest {
    private static final Sla SLA = Sla.parse("95%:100ms:0.01%:10m");
    private static final SimulatedStore.Curve CURVE = SimulatedStore.servers(8, 0.001, 0.01, 1, SLA.beta());

    private static RatingResult rated() {
        return new Rating(
                        RatingSettings.builder(SLA)
                                .experimentDuration(Duration.ofMinutes(1))
                                .build(),
                        new SimulatedStore(CURVE))
                .rate();
    }

    @Test
    void chartIsWellFormedSvgWithTheRatingsMarkedAndWithinBetaAtEveryPoint() throws Exception {
        RatingResult r = rated();
        String svg = RatingReport.svg(r);
        Document doc = parse(svg);
        assertThat(doc.getDocumentElement().getTagName()).isEqualTo("svg");
        assertThat(svg)
                .contains("SoAR = 7,477 actions/s at T=8 (confirmed)")
                .contains("Socialites = 121")
                .contains("threads T (log scale)")
                .contains("throughput (actions/s)");
        // One marker per experiment, each with a tooltip naming it.
        NodeList titles = doc.getElementsByTagName("title");
        assertThat(titles.getLength()).isEqualTo(r.experiments().size() + 1);
        assertThat(svg).contains("#4 soar-climb: T=8, 1m, 7,477 actions/s, 100% within β");
        // Within-β labels: at least the rated points and the failures' values.
        assertThat(svg).contains(">100%<").contains(">Δ 100%<").contains(">94.46%<");
        assertThat(svg).contains("confirmation run (Δ)");
    }

    @Test
    void chartOfAStoppedRatingWithNoExperiment() throws Exception {
        Rating rating = new Rating(RatingSettings.defaults(SLA), new SimulatedStore(CURVE));
        rating.requestStop("before it began");
        RatingResult r = rating.rate();
        String svg = RatingReport.svg(r);
        parse(svg);
        assertThat(svg).contains("no experiments");
        assertThat(RatingReport.html(r, null))
                .contains("Stopped early:</b> stopped on request: before it began")
                .contains("<title>BG rating</title>");
    }

    @Test
    void zeroRatingHasNoMarks() throws Exception {
        RatingResult r = new Rating(
                        RatingSettings.defaults(SLA),
                        new SimulatedStore(SimulatedStore.servers(1, 0.05, 0, 1, SLA.beta())))
                .rate();
        String svg = RatingReport.svg(r);
        parse(svg);
        assertThat(svg).doesNotContain("SoAR =").doesNotContain("Socialites =").contains(">86.47%<");
    }

    @Test
    void htmlIsSelfContainedWithSummaryWarningsChartAndTable() {
        RatingResult r = new Rating(
                        RatingSettings.defaults(SLA),
                        new SimulatedStore(SimulatedStore.function(t -> t == 15 ? 10 : 100.0 * Math.min(t, 16), 40)))
                .rate();
        String html = RatingReport.html(r, "SQLite <basic> & \"boosted\"");
        assertThat(html)
                .startsWith("<!DOCTYPE html>")
                .contains("<title>SQLite &lt;basic&gt; &amp; &quot;boosted&quot;</title>")
                .doesNotContain("<script")
                .doesNotContain("src=")
                .contains("not unimodal")
                .contains("95%:100ms:0.01%:10m");
        assertThat(html.split("<svg", -1)).hasSize(3);
        int rows = html.split("<tr class=\"", -1).length - 1;
        assertThat(rows).isEqualTo(r.experiments().size());
        assertThat(html).contains("<td class=\"l\">soar-climb</td><td>1</td><td>10m</td><td>100</td><td>100%</td>");
        assertThat(html).contains("missed: 0% of actions within β=100ms, α requires 95%");
    }

    /** A rating whose every experiment has a result file with latencies, as the runner writes them. */
    private static Map<Integer, ExperimentFile> files(RatingResult r) {
        Map<Integer, ExperimentFile> m = new HashMap<>();
        for (Experiment e : r.experiments()) {
            m.put(
                    e.index(),
                    new ExperimentFile(
                            String.format(Locale.ROOT, "%02d-T%d.json", e.index(), e.threads()),
                            new ExperimentFile.Latency(
                                    2.0 + e.threads(), 10.0 + 2 * e.threads(), 20.0 + 3 * e.threads())));
        }
        return m;
    }

    @Test
    void theVerdictComesFirstWithItsWarningsFoldedThenTheChartsThenTheExperiments() {
        RatingResult r = new Rating(
                        RatingSettings.defaults(SLA),
                        new SimulatedStore(SimulatedStore.function(t -> t == 15 ? 10 : 100.0 * Math.min(t, 16), 40)))
                .rate();
        assertThat(r.warnings()).isNotEmpty();
        String html = RatingReport.html(r, "t", RatingReport.Axis.THREADS, files(r));
        int verdict = html.indexOf("id=\"verdict\"");
        int warnings = html.indexOf("<details");
        int throughput = html.indexOf("<h2>Throughput against T");
        int latency = html.indexOf("<h2>Latency against T");
        int experiments = html.indexOf("<h2>Experiments");
        assertThat(verdict).isPositive();
        assertThat(html.indexOf("SoAR")).isGreaterThan(verdict);
        assertThat(warnings).isGreaterThan(verdict).isLessThan(throughput);
        assertThat(html.substring(warnings, throughput)).contains("</details>").contains("not unimodal");
        assertThat(throughput).isLessThan(latency);
        assertThat(latency).isLessThan(experiments);
    }

    @Test
    void aNoisyHostIsNamedInTheVerdictAboveItsFoldedWarnings() {
        RatingResult r = rated();
        String noisy = "the machine's CPU was saturated in 3 of 3 experiments";
        String html = RatingReport.html(r, "t", RatingReport.Axis.THREADS, files(r), noisy);
        int verdict = html.indexOf("id=\"verdict\"");
        int named = html.indexOf("id=\"noisy-host\"");
        assertThat(named).isGreaterThan(verdict).isLessThan(html.indexOf("</section>"));
        assertThat(html.substring(named)).contains("On a noisy host: " + noisy.replace("'", "&#39;"));
        assertThat(RatingReport.html(r, "t", RatingReport.Axis.THREADS, files(r), null))
                .doesNotContain("noisy-host");
    }

    @Test
    void everyExperimentIsLinkedToItsResultAndItsLatencyIsDrawn() throws Exception {
        RatingResult r = rated();
        String html = RatingReport.html(r, "t", RatingReport.Axis.THREADS, files(r));
        // Kept as test output, to look at in a browser.
        Files.createDirectories(Path.of("target"));
        Files.writeString(Path.of("target", "rating-report-sample.html"), html);
        for (Experiment e : r.experiments()) {
            String name = String.format(Locale.ROOT, "%02d-T%d.json", e.index(), e.threads());
            assertThat(html).contains("<a href=\"" + name + "\">");
        }
        int a = html.indexOf("<figure id=\"latency\">");
        String svg = html.substring(html.indexOf("<svg", a), html.indexOf("</svg>", a) + 6);
        Document doc = parse(svg);
        NodeList lines = doc.getElementsByTagName("polyline");
        assertThat(lines.getLength()).isEqualTo(3);
        assertThat(svg)
                .contains("class=\"p50\"")
                .contains("class=\"p95\"")
                .contains("class=\"p99\"")
                .contains("latency (ms)")
                .contains("β = 100ms");
        // The table has the percentiles with their unit.
        assertThat(html).contains("<th>p95</th>").contains("<td>26 ms</td>");
    }

    @Test
    void countsAndTimesAreFormattedWithSeparatorsAndUnits() {
        RatingResult r = rated();
        String html = RatingReport.html(r, "t", RatingReport.Axis.THREADS, files(r));
        Experiment big = r.experiments().stream()
                .filter(e -> e.measurement().actions() >= 1000)
                .findFirst()
                .orElseThrow();
        assertThat(html)
                .contains("<td>"
                        + String.format(Locale.ROOT, "%,d", big.measurement().actions()) + "</td>")
                .doesNotContain("<td>" + big.measurement().actions() + "</td>")
                .contains(" s</td>");
    }

    @Test
    void aRatingThatReachedMaxThreadsStillMeetingTheSlaIsShownAsALowerBound() {
        RatingResult r = new Rating(
                        RatingSettings.builder(SLA).maxThreads(8).build(),
                        new SimulatedStore(SimulatedStore.function(t -> 100.0 * t, 40)))
                .rate();
        assertThat(r.socialites().orElseThrow().threads()).isEqualTo(8);
        String html = RatingReport.html(r, "t");
        assertThat(html).contains("<span class=\"big\">≥ 8</span>").contains("max-threads=8");
        // T is whole: a linear axis of T = 1…8 has no tick between two values of T.
        assertThat(RatingReport.svg(r))
                .doesNotContainPattern(">\\d+\\.5</text>")
                .contains(">8</text>");
        assertThat(RatingReport.html(rated(), "t"))
                .doesNotContain("class=\"big\">≥")
                .doesNotContain("max-threads=8");
    }

    @Test
    void resultMapHoldsOnlyJsonValues() {
        RatingResult r = rated();
        assertJson(r.toMap(), "$");
    }

    private static void assertJson(Object v, String path) {
        if (v == null || v instanceof String || v instanceof Boolean || v instanceof Integer || v instanceof Long) {
            return;
        }
        if (v instanceof Double d) {
            assertThat(d).as(path).isFinite();
            return;
        }
        if (v instanceof Map<?, ?> m) {
            m.forEach((k, x) -> {
                assertThat(k).as(path).isInstanceOf(String.class);
                assertJson(x, path + "." + k);
            });
            return;
        }
        if (v instanceof List<?> l) {
            for (int i = 0; i < l.size(); i++) {
                assertJson(l.get(i), path + "[" + i + "]");
            }
            return;
        }
        throw new AssertionError(path + " is a " + v.getClass().getName() + ", not a JSON value");
    }

    private static Document parse(String xml) throws ParserConfigurationException, IOException, SAXException {
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setNamespaceAware(true);
        return f.newDocumentBuilder().parse(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)));
    }
}
