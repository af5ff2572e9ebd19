package org.bgbench.study.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * A synthetic study's report.html in a real browser (Debian's Chromium, headless, through chromium-driver): the
 * numbers on the page, read back from its charts and tables, equal the study.json's, and each finding's verdict
 * equals the one computed from it. A screenshot of the whole page goes to {@code target/study-report-screenshots}.
 */
@Tag("server")
class StudyReportBrowserTest {
    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final Path DRIVER = Path.of("/usr/bin/chromedriver");
    private static final Path SHOTS = Path.of("target", "study-report-screenshots");
    private static Path dir;
    private static JsonNode json;
    private static WebDriver browser;

    @BeforeAll
    static void open() throws Exception {
        boolean found = Files.isExecutable(CHROMIUM) && Files.isExecutable(DRIVER);
        if (!found && System.getenv("CI") != null) {
            throw new AssertionError("Chromium and its driver (Debian packages chromium and chromium-driver) are"
                    + " missing; CI is set, so this test fails instead of being skipped");
        }
        Assumptions.assumeTrue(found, "Chromium and its driver (Debian packages chromium and chromium-driver)");
        dir = Files.createTempDirectory("bg-study-report");
        json = Samples.study().json();
        Path study = dir.resolve("study.json");
        Synthetic.JSON.writeValue(study.toFile(), json);
        StudyReport.write(study, dir.resolve("report.html"));
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        options.addArguments(
                "--headless=new",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-dev-shm-usage",
                "--remote-debugging-pipe",
                "--window-size=1000,900");
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(DRIVER.toFile())
                .usingAnyFreePort()
                .build();
        browser = new ChromeDriver(service, options);
        browser.get(dir.resolve("report.html").toUri().toString());
        Files.createDirectories(SHOTS);
    }

    @AfterAll
    static void close() throws Exception {
        if (browser != null) {
            browser.quit();
        }
        if (dir != null) {
            try (var files = Files.walk(dir)) {
                for (Path p : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
    }

    /** series|x → y of every point in study.json, ours (measured) or the paper's, of one figure. */
    private static Map<String, Double> expected(String figure, boolean paper) {
        Map<String, Double> out = new TreeMap<>();
        for (JsonNode f : json.get("figures")) {
            if (!f.get("id").asText().equals(figure)) {
                continue;
            }
            if (paper) {
                f.get("paper")
                        .forEach(p -> out.put(
                                key(p.get("series").asText(), p.get("x")),
                                p.get("y").asDouble()));
            } else {
                for (JsonNode s : f.get("series")) {
                    for (JsonNode p : s.get("points")) {
                        if (p.get("y").isNumber()) {
                            out.put(
                                    key(s.get("name").asText(), p.get("x")),
                                    p.get("y").asDouble());
                        }
                    }
                }
            }
        }
        return out;
    }

    private static String key(String series, JsonNode x) {
        return series + "|" + (x.isNumber() ? ChartKit.raw(x.asDouble()) : x.asText());
    }

    /** series|x → y as the page's elements under {@code css} carry them. */
    private static Map<String, Double> onPage(String css) {
        Map<String, Double> out = new TreeMap<>();
        for (WebElement e : browser.findElements(By.cssSelector(css))) {
            Double before = out.put(
                    e.getDomAttribute("data-series") + "|" + e.getDomAttribute("data-x"),
                    Double.parseDouble(e.getDomAttribute("data-y")));
            assertThat(before)
                    .as("a second element for " + e.getDomAttribute("data-series"))
                    .isNull();
        }
        return out;
    }

    @Test
    void chartsAndTablesCarryTheJsonsNumbers() {
        for (String figure : List.of("3.3", "8.3", "7.11")) {
            String svg = "svg[data-figure='" + figure + "'] ";
            String table = "table.numbers[data-figure='" + figure + "'] ";
            Map<String, Double> ours = expected(figure, false);
            Map<String, Double> paper = expected(figure, true);
            assertThat(ours).isNotEmpty();
            assertThat(paper).isNotEmpty();
            assertThat(onPage(svg + "[data-source=ours]")).isEqualTo(ours);
            assertThat(onPage(svg + "[data-source=paper]")).isEqualTo(paper);
            assertThat(onPage(table + "[data-source=ours]")).isEqualTo(ours);
            assertThat(onPage(table + "[data-source=paper]")).isEqualTo(paper);
        }
    }

    @Test
    void tableTextIsTheFormattedValue() {
        for (WebElement e : browser.findElements(By.cssSelector("table.numbers .value"))) {
            double y = Double.parseDouble(e.getDomAttribute("data-y"));
            assertThat(e.getText()).isEqualTo(Numbers.format(y));
            assertThat(Double.parseDouble(e.getText().replace(",", "")))
                    .isCloseTo(y, org.assertj.core.data.Offset.offset(0.5));
        }
    }

    @Test
    void pointsLinkToTheirResultFiles() {
        List<String> hrefs = new ArrayList<>();
        for (WebElement a : browser.findElements(By.cssSelector("svg[data-figure='3.3'] a"))) {
            hrefs.add(a.getDomAttribute("href"));
        }
        List<String> expected = new ArrayList<>();
        for (JsonNode s : json.get("figures").get(0).get("series")) {
            for (JsonNode p : s.get("points")) {
                if (p.get("results").size() > 0) {
                    expected.add(p.get("results").get(0).asText());
                }
            }
        }
        assertThat(hrefs).containsExactlyInAnyOrderElementsOf(expected);
    }

    @Test
    void verdictsEqualTheOnesComputedFromTheJson() throws Exception {
        Map<String, String> page = new TreeMap<>();
        for (WebElement row : browser.findElements(By.cssSelector("table.verdicts tr[data-finding]"))) {
            page.put(row.getDomAttribute("data-finding"), row.getDomAttribute("data-outcome"));
            assertThat(row.findElement(By.cssSelector(".badge")).getText())
                    .isEqualTo(row.getDomAttribute("data-outcome"));
        }
        Map<String, String> computed = new TreeMap<>();
        Findings.evaluateAll(Study.of(json))
                .forEach(v -> computed.put(v.id(), v.outcome().words()));
        assertThat(page).isEqualTo(computed).hasSize(json.get("findings").size());
        assertThat(browser.findElement(By.cssSelector(".incomplete")).getText()).isEqualTo("incomplete: 2 of 4 points");
        assertThat(browser.findElement(By.cssSelector("table.failed tr[data-point] td.error"))
                        .getText())
                .isEqualTo(json.get("points").get(2).get("error").asText());
        shot("report");
        for (WebElement svg : browser.findElements(By.cssSelector("svg.chart"))) {
            Files.write(
                    SHOTS.resolve("figure-" + svg.getDomAttribute("data-figure") + ".png"),
                    svg.getScreenshotAs(OutputType.BYTES));
        }
        Files.write(
                SHOTS.resolve("findings.png"),
                browser.findElement(By.cssSelector("section.findings")).getScreenshotAs(OutputType.BYTES));
    }

    private static void shot(String name) throws Exception {
        long height = (Long) ((JavascriptExecutor) browser).executeScript("return document.body.scrollHeight");
        browser.manage().window().setSize(new Dimension(1000, (int) Math.min(12000, height + 140)));
        Files.write(SHOTS.resolve(name + ".png"), ((TakesScreenshot) browser).getScreenshotAs(OutputType.BYTES));
    }
}
