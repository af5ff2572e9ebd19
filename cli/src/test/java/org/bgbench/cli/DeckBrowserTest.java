package org.bgbench.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.BiFunction;
import java.util.stream.Collectors;
import org.bgbench.deck.Deck;
import org.bgbench.scaling.speedup.ScaleMode;
import org.bgbench.scaling.speedup.ScaleReport;
import org.bgbench.scaling.speedup.SoarFigure;
import org.bgbench.store.StoreRegistry;
import org.bgbench.store.conformance.servers.ServerScripts;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The deck in a real browser (Debian's Chromium, headless, driven through chromium-driver): a bad input shown next to
 * its field, a custom mix's live check, two runs and a short rating against SQLite started from the page, the live
 * chart growing while a run goes on, a result opened with its downloads, and two runs compared. The deck's commands
 * are real {@code bg} processes. Screenshots of the deck and of the rating's HTML report go to {@code target/deck-screenshots} (kept as CI
 * artifacts).
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Tag("server")
class DeckBrowserTest {
    private static final Path SHOTS = Path.of("target", "deck-screenshots");
    private static final ObjectMapper JSON = new ObjectMapper();
    private static Path dir;
    private static Deck deck;
    private static WebDriver browser;
    private static WebDriverWait wait;

    @BeforeAll
    static void start() throws Exception {
        browser = HeadlessChromium.start();
        dir = Files.createTempDirectory("bg-deck-test");
        List<String> bg = List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED",
                "-Dbg.state.dir=" + dir.resolve("state"),
                "-cp",
                System.getProperty("java.class.path"),
                Bg.class.getName());
        deck = Deck.start(
                new Deck.Config(new InetSocketAddress("127.0.0.1", 0), null, dir.resolve("runs"), dir, bg),
                StoreRegistry.discover());
        wait = new WebDriverWait(browser, Duration.ofSeconds(90));
        // A redraw replaces the elements a condition reads: it is read again, not failed.
        wait.ignoring(StaleElementReferenceException.class);
        Files.createDirectories(SHOTS);
        browser.get(deck.uri().toString()); // the printed address: its token becomes the page's cookie
        wait.until(d -> "true".equals(d.findElement(By.tagName("body")).getDomAttribute("data-ready")));
    }

    @AfterAll
    static void stop() throws Exception {
        if (browser != null) {
            browser.quit();
        }
        if (deck != null) {
            deck.jobs().stopAll();
            deck.close();
        }
        if (dir != null) {
            ServerScripts.deleteTree(dir);
        }
    }

    private static WebElement field(String name) {
        return browser.findElement(By.id("f-" + name.replaceAll("[^\\w-]", "_")));
    }

    private static void type(String name, String value) {
        WebElement e = field(name);
        e.clear();
        e.sendKeys(value);
    }

    private static void check(String name) {
        ((JavascriptExecutor) browser).executeScript("arguments[0].checked = true", field(name));
    }

    /** The text of an element, shown or not (Selenium's getText is empty for a hidden one). */
    private static int number(WebElement e) {
        String t = e.getDomProperty("textContent");
        return t == null || t.isBlank() ? 0 : Integer.parseInt(t.trim());
    }

    private static void setUp(String command, String threads) {
        browser.findElement(By.cssSelector("nav [data-tab=setup]")).click();
        new Select(browser.findElement(By.id("command"))).selectByValue(command);
        new Select(browser.findElement(By.id("store"))).selectByValue("sqlite");
        type("sqlite.file", dir.resolve("runs/deck.sqlite").toString()); // the deck passes on paths under runs only
        type("usercount", "300");
        type("friendcountperuser", "6");
        type("resourcecountperuser", "4");
        new Select(browser.findElement(By.id("workload"))).selectByValue("high");
        if (threads != null) {
            type("--threads", threads);
        }
    }

    private static void shot(String name) throws Exception {
        HeadlessChromium.shot(browser, SHOTS, name);
    }

    /**
     * Waits until the page has started {@code started} jobs (its start button posts asynchronously) and all have
     * ended; asserts how many ended with exit code 0.
     */
    private static void jobsDone(int started, int succeeded) {
        wait.until(d -> deck.jobs().all().size() == started
                && deck.jobs().all().stream().allMatch(j -> j.exitCode() != null));
        assertThat(deck.jobs().all().stream().filter(j -> j.exitCode() == 0).count())
                .as(() -> deck.jobs().all().stream()
                        .map(j -> j.args() + " exit " + j.exitCode() + ":\n  " + String.join("\n  ", j.lines()))
                        .collect(Collectors.joining("\n")))
                .isEqualTo(succeeded);
    }

    @Test
    @Order(1)
    void aBadInputIsShownNextToItsField() throws Exception {
        // The form opens with the command line's defaults: bg run's mix, its graph greyed in the graph's fields.
        assertThat(new Select(browser.findElement(By.id("workload")))
                        .getFirstSelectedOption()
                        .getDomAttribute("value"))
                .isEqualTo("low");
        assertThat(field("usercount").getDomProperty("placeholder")).isEqualTo("10000, or the store's graph");
        new Select(browser.findElement(By.id("command"))).selectByValue("load");
        assertThat(field("usercount").getDomProperty("placeholder")).isEqualTo("10000");
        setUp("run", "0");
        browser.findElement(By.id("start")).click();
        WebElement error = browser.findElement(By.cssSelector(".field-error[data-for='--threads']"));
        wait.until(d -> !error.getText().isBlank());
        assertThat(error.getText()).contains("T must be at least 1");
        assertThat(field("--threads").getDomAttribute("class")).contains("invalid");
        jobsDone(1, 0);
        // The jobs table says why it failed, and lists no result: the run never wrote one.
        WebElement row = browser.findElement(By.cssSelector("#jobs tbody tr[data-job='1']"));
        wait.until(d -> row.findElements(By.tagName("td")).get(2).getText().contains("T must be at least 1"));
        assertThat(row.findElements(By.tagName("td")).get(3).getText()).isEmpty();
        shot("failed-start");
    }

    @Test
    @Order(2)
    void aFileOutsideTheRunsDirectoryIsRefusedNextToItsField() throws Exception {
        setUp("run", "1");
        type("sqlite.file", dir.resolve("elsewhere.sqlite").toString());
        browser.findElement(By.id("start")).click();
        WebElement error = browser.findElement(By.cssSelector(".field-error[data-for='sqlite.file']"));
        wait.until(d -> !error.getText().isBlank());
        assertThat(error.getText())
                .startsWith("sqlite.file: ")
                .contains("outside the runs directory")
                .contains("--allow-external");
        assertThat(field("sqlite.file").getDomAttribute("class")).contains("invalid");
        assertThat(deck.jobs().all()).hasSize(1); // no command was started
        assertThat(dir.resolve("elsewhere.sqlite")).doesNotExist();
    }

    @Test
    @Order(3)
    void aCustomMixIsCheckedAsItIsTyped() {
        browser.findElement(By.cssSelector("nav [data-tab=setup]")).click();
        new Select(browser.findElement(By.id("workload"))).selectByValue("custom");
        WebElement check = browser.findElement(By.id("mix-check"));
        browser.findElement(By.id("mix-VP")).sendKeys("50");
        wait.until(d -> check.getText().contains("must be 100"));
        browser.findElement(By.id("mix-IF")).sendKeys("10");
        browser.findElement(By.id("mix-AFR")).sendKeys("10");
        browser.findElement(By.id("mix-LF")).sendKeys("30");
        wait.until(d -> check.getText().contains("not symmetric"));
        browser.findElement(By.id("mix-LF")).clear();
        browser.findElement(By.id("mix-LF")).sendKeys("20");
        browser.findElement(By.id("mix-TF")).sendKeys("10");
        wait.until(d -> check.getText().contains("symmetric ✓"));
        assertThat(check.getText()).contains("sum 100 %");
    }

    @Test
    @Order(4)
    void runsStartedFromThePageAreWatchedLiveAndOpened() throws Exception {
        setUp("run", "2");
        type("--duration", "6s");
        type("--warmup", "1s");
        check("--load");
        browser.findElement(By.id("start")).click();
        // The page switches to the live view of the run it started; the chart grows second by second.
        WebElement seconds = browser.findElement(By.id("live-seconds"));
        wait.until(d -> number(seconds) >= 3);
        int before = number(seconds);
        wait.until(d -> number(seconds) > before);
        assertThat(browser.findElements(By.cssSelector("#live-throughput canvas")))
                .isNotEmpty();
        assertThat(browser.findElements(By.cssSelector("#live-kinds tbody tr"))).isNotEmpty();
        assertThat(browser.findElements(By.cssSelector("#live-nodes tr.bottleneck")))
                .hasSize(1);
        shot("live");
        jobsDone(2, 1);
        // The run's name in words, not its file; once it ends, its summary with a link to its result.
        String name = new Select(browser.findElement(By.id("live-run")))
                .getFirstSelectedOption()
                .getText();
        assertThat(name).contains("sqlite").contains("high mix").contains("T=2").doesNotContain(".live.jsonl");
        WebElement summary = browser.findElement(By.id("live-summary"));
        wait.until(d -> summary.isDisplayed()
                && !summary.findElements(By.cssSelector("a.open-result")).isEmpty());
        assertThat(summary.getText()).contains("Finished").contains("actions/s").contains("within β");
        String resultHref = summary.findElement(By.cssSelector("a.result-json")).getDomAttribute("href");
        assertThat(JSON.readTree(get(resultHref)).path("threads").asInt()).isEqualTo(2);
        axesReadable("#live-throughput");
        axesReadable("#live-latency");
        // The seconds of the run count on through the warm-up into the measured period: no two points at one x,
        // the warm-up's before the measured ones.
        List<Double> x = xValues("document.getElementById('live-throughput').chart");
        assertThat(x).as("x of the live chart").doesNotHaveDuplicates().isSorted();
        assertThat(x.getFirst()).isGreaterThan(0.0);
        // Several series: a legend naming each with its figure; one series: none (the heading names it).
        legendWithValues("#live-errors", "errors", "no-ops");
        legendWithValues("#live-latency", "p50", "p95", "p99");
        assertThat(browser.findElements(By.cssSelector("#live-throughput .u-legend")))
                .isEmpty();
        ((JavascriptExecutor) browser)
                .executeScript("arguments[0].scrollIntoView()", browser.findElement(By.id("live-beta")));
        shot("live-finished-errors");
        ((JavascriptExecutor) browser).executeScript("window.scrollTo(0, 0)");
        shot("live-finished");

        setUp("run", "4");
        type("--duration", "4s");
        type("--warmup", "1s");
        browser.findElement(By.id("start")).click();
        jobsDone(3, 2);

        browser.findElement(By.cssSelector("nav [data-tab=results]")).click();
        wait.until(d -> d.findElements(By.cssSelector("#runs tbody tr[data-path$='.json']"))
                        .size()
                >= 2);
        List<WebElement> runs = browser.findElements(By.cssSelector("#runs tbody tr[data-path$='.json']"));
        assertThat(runs.get(0).findElements(By.tagName("td")).get(1).getText())
                .contains("T=")
                .contains("started")
                .doesNotContain(".json");
        runs.get(0).findElement(By.cssSelector("button.open")).click();
        wait.until(d -> !d.findElements(By.cssSelector("#detail .downloads a")).isEmpty());
        assertThat(browser.findElements(By.cssSelector("#d-throughput canvas"))).isNotEmpty();
        axesReadable("#d-throughput");
        shot("result");
        // The downloads are the result as written and its series as CSV.
        String json = get(browser.findElement(By.linkText("JSON")).getDomAttribute("href"));
        JsonNode result = JSON.readTree(json);
        assertThat(result.path("threads").asInt()).isEqualTo(4);
        String csv = get(browser.findElement(By.partialLinkText("CSV")).getDomAttribute("href"));
        assertThat(csv.lines().count()).isEqualTo(result.path("series").size() + 1);
        assertThat(csv.lines().findFirst().orElseThrow()).startsWith("second,elapsed_s");

        for (WebElement r : runs.subList(0, 2)) {
            r.findElement(By.cssSelector("input.pick")).click();
        }
        browser.findElement(By.id("compare-selected")).click();
        wait.until(
                d -> d.findElements(By.cssSelector("#compare-table tbody tr")).size() == 2);
        assertThat(browser.findElements(By.cssSelector("#compare-throughput canvas")))
                .isNotEmpty();
        String table = browser.findElement(By.id("compare-table")).getText();
        assertThat(table).contains("sqlite").contains("high");
        // Both runs on the seconds their intervals end (a last, partial one where the run ended), not by index.
        List<Double> cx = xValues("document.getElementById('compare-throughput').chart");
        assertThat(cx).doesNotHaveDuplicates().isSorted().contains(lastElapsed(result));
        // the legend reads at the last second, the longer run's (T=2's)
        legendWithValues("#compare-throughput", "T=2");
        shot("compare");
    }

    @Test
    @Order(5)
    void aShortRatingShowsEachExperimentWithItsVerdictAsItFinishes() throws Exception {
        setUp("rate", null);
        type("--delta", "2s");
        type("--warmup", "1s");
        type("--max-threads", "4");
        type("--sla", "95%:100ms:0.01%:2s");
        check("--no-confirm");
        browser.findElement(By.id("start")).click();
        wait.until(d ->
                d.findElements(By.cssSelector("#live-rating-table tbody tr")).size() >= 2);
        // read in one step: the page redraws the table twice a second
        String row = (String) ((JavascriptExecutor) browser)
                .executeScript("return document.querySelector('#live-rating-table tbody tr').textContent");
        assertThat(row).containsAnyOf("meets", "fails");
        ((JavascriptExecutor) browser)
                .executeScript("arguments[0].scrollIntoView()", browser.findElement(By.id("live-rating")));
        shot("rating-live");
        jobsDone(4, 3);
        browser.findElement(By.cssSelector("nav [data-tab=results]")).click();
        wait.until(d -> !d.findElements(By.cssSelector("#runs tbody tr[data-path^='rate-deck']"))
                .isEmpty());
        browser.findElement(By.cssSelector("#runs tbody tr[data-path^='rate-deck'] button.open"))
                .click();
        wait.until(d -> d.findElement(By.id("detail")).getText().contains("SoAR"));
        int rows =
                browser.findElements(By.cssSelector("#d-rating-table tbody tr")).size();
        JsonNode rating = JSON.readTree(Files.readString(Files.list(dir.resolve("runs"))
                .filter(p -> p.getFileName().toString().startsWith("rate-deck"))
                .findFirst()
                .orElseThrow()
                .resolve("rating.json")));
        assertThat(rows).isEqualTo(rating.path("experiments").size()).isPositive();
        assertThat(browser.findElements(By.id("d-noisy")))
                .as("a noisy host named iff the rating says so")
                .hasSize(rating.path("noisy_host").isNull() ? 0 : 1);
        shot("rating");

        // The same rating on a noisy host: the deck names it under the headline.
        Path noisy = dir.resolve("runs").resolve("rate-noisy");
        Files.createDirectories(noisy);
        String words = "the machine's CPU was saturated in 2 of 2 experiments";
        Files.writeString(
                noisy.resolve("rating.json"),
                JSON.writeValueAsString(((ObjectNode) rating.deepCopy()).put("noisy_host", words)));
        browser.findElement(By.cssSelector("nav [data-tab=results]")).click();
        wait.until(d -> !d.findElements(By.cssSelector("#runs tbody tr[data-path^='rate-noisy']"))
                .isEmpty());
        browser.findElement(By.cssSelector("#runs tbody tr[data-path^='rate-noisy'] button.open"))
                .click();
        wait.until(d -> d.findElement(By.id("d-noisy")).getText().equals("On a noisy host: " + words));
    }

    @Test
    @Order(6)
    void aScaleResultAndAnElasticityResultAreDrawn() throws Exception {
        // scale.json as bg scale's own report writes it; the elasticity result as the lead's format describes it.
        BiFunction<String, Integer, ScaleReport.Outcome> rated = (name, n) -> new ScaleReport.Outcome(
                new ScaleReport.Outcome.Config(name, n, 1000, "0" + n + "-" + name),
                new ScaleReport.Outcome.Rating(
                        true,
                        // Two nodes reached max-threads with the SLA still met: a lower bound.
                        new SoarFigure(
                                1000.0 * n * 0.9 + 100, 4 * n, "confirmed", n == 2 ? "max-threads reached" : null),
                        null),
                new ScaleReport.Outcome.Hardware(List.of(), null, true));
        ScaleReport report = new ScaleReport(
                ScaleMode.SPEEDUP,
                "postgres",
                "95%:100ms:0.01%:60s",
                List.of(
                        rated.apply("one", 1),
                        rated.apply("two", 2),
                        ScaleReport.Outcome.failed(
                                new ScaleReport.Outcome.Config("three", 3, 1000, "03-three"),
                                "start command exited 3: port in use",
                                true)),
                List.of("every configuration's nodes and BG ran on this one machine"));
        Path scale = Files.createDirectories(dir.resolve("runs/scale-deck"));
        Files.writeString(scale.resolve("scale.json"), JSON.writeValueAsString(report.toMap()));
        Path elast = Files.createDirectories(dir.resolve("runs/elast-deck"));
        Files.writeString(elast.resolve("elasticity.json"), """
                {"kind":"elasticity","store":"cassandra","nodesBefore":2,"nodesAfter":3,"requestSet":2000,"repeats":5,
                 "readPct":80,"threads":2,"points":[{"t":10,"mean":1.8,"sd":0.1,"n":5,"phase":"baseline"},
                 {"t":20,"mean":1.85,"sd":0.1,"n":5,"phase":"baseline"},{"t":35,"mean":2.4,"sd":0.3,"n":5,"phase":"transition"},
                 {"t":50,"mean":1.7,"sd":0.1,"n":5,"phase":"transition"},{"t":60,"mean":1.6,"sd":0.05,"n":5,"phase":"stable"},
                 {"t":70,"mean":1.61,"n":5,"phase":"scaled"}],
                 "adds":[{"t":25,"command":"scripts/cassandra.sh add","exitCode":0,"seconds":20.5}],
                 "stableAt":60,"stabilisationSeconds":35,"medianDelta":0.05,"margin":2,"status":"stable",
                 "score":{"elasticity":123.4,"a":1.2,"b":0.3,"rt1":0.0009,"rt2":0.0008,"av1":1.83,"av2":1.6},
                 "warnings":["one machine"]}""");
        browser.findElement(By.cssSelector("nav [data-tab=results]")).click();
        wait.until(d -> !d.findElements(By.cssSelector("#runs tbody tr[data-path='scale-deck']"))
                .isEmpty());
        browser.findElement(By.cssSelector("#runs tbody tr[data-path='scale-deck'] button.open"))
                .click();
        wait.until(
                d -> d.findElements(By.cssSelector("#d-scale-table tbody tr")).size() == 3);
        String two = browser.findElement(By.cssSelector("#d-scale-table tbody tr[data-config='two']"))
                .getText();
        // SoAR ≥ 1,900 against the baseline's 1,000 at twice the nodes: ratio ≥ 1.9, efficiency ≥ 95 %.
        assertThat(two).contains("≥ 1,900").contains("≥ 1.9").contains("≥ 95 %");
        assertThat(browser.findElement(By.cssSelector("#d-scale-table tbody tr[data-config='three']"))
                        .getText())
                .contains("failed")
                .contains("port in use");
        assertThat(browser.findElement(By.id("detail")).getText()).contains("ran on this one machine");
        assertThat(browser.findElements(By.cssSelector("#d-scale canvas"))).isNotEmpty();
        shot("scale");
        browser.findElement(By.cssSelector("#runs tbody tr[data-path='elast-deck/elasticity.json'] button.open"))
                .click();
        wait.until(d ->
                !d.findElements(By.cssSelector("#d-elasticity-score tbody tr")).isEmpty());
        assertThat(browser.findElement(By.id("d-elasticity-score")).getText())
                .contains("123.4")
                .contains("35");
        WebElement plot = browser.findElement(By.cssSelector("#d-elasticity .uplot"));
        // One add-node mark and the stable mark; five of the six points have a standard deviation.
        wait.until(d -> "2".equals(plot.getDomAttribute("data-marks")));
        assertThat(plot.getDomAttribute("data-error-bars")).isEqualTo("5");
        // The margin lines are the median delta × the run's --margin factor.
        assertThat(plot.getDomAttribute("data-margin")).isEqualTo("0.1");
        shot("elasticity");
    }

    @Test
    @Order(7)
    void aSweepIsDrawnAsThroughputAgainstT() throws Exception {
        // bg sweep's JSON (format bg-sweep/1); its T=2 point is the page's own run of T=2, to be opened from it.
        Path runT2 = Files.list(dir.resolve("runs"))
                .filter(p -> p.getFileName().toString().matches("deck-.*-T2\\.json"))
                .findFirst()
                .orElseThrow();
        String point = "{\"threads\":%d,\"throughput\":%d,\"withinBetaPct\":99.9,\"actions\":%d,\"errors\":0,"
                + "\"unpredictablePct\":0.0,\"result\":%s}";
        Files.writeString(
                dir.resolve("runs/sweep-deck.json"),
                "{\"format\":\"bg-sweep/1\",\"store\":\"sqlite\",\"mix\":\"low\",\"duration_s\":30,\"warmup_s\":0,"
                        + "\"beta_ms\":100,\"reset\":\"image\",\"points\":["
                        + String.join(
                                ",",
                                point.formatted(1, 1400, 42000, JSON.writeValueAsString("/nowhere/T1.json")),
                                point.formatted(2, 2600, 78000, JSON.writeValueAsString(runT2.toString())),
                                point.formatted(4, 2500, 75000, JSON.writeValueAsString("/nowhere/T4.json")))
                        + "]}");
        browser.findElement(By.cssSelector("nav [data-tab=results]")).click();
        wait.until(d -> !d.findElements(By.cssSelector("#runs tbody tr[data-path='sweep-deck.json']"))
                .isEmpty());
        assertThat(browser.findElement(By.cssSelector("#runs tbody tr[data-path='sweep-deck.json']"))
                        .getText())
                .contains("sweep")
                .contains("T=1 1,400");
        browser.findElement(By.cssSelector("#runs tbody tr[data-path='sweep-deck.json'] button.open"))
                .click();
        wait.until(
                d -> d.findElements(By.cssSelector("#d-sweep-table tbody tr")).size() == 3);
        assertThat(browser.findElement(By.cssSelector("#detail h2")).getText()).isEqualTo("sweep of sqlite · low mix");
        // One point at each T, none twice; one series, so no legend (its heading names it).
        assertThat(xValues("document.getElementById('d-sweep').chart")).containsExactly(1.0, 2.0, 4.0);
        assertThat(browser.findElements(By.cssSelector("#d-sweep .u-legend"))).isEmpty();
        axesReadable("#d-sweep");
        shot("sweep");
        // Only a point whose run lies in the runs directory can be opened.
        assertThat(browser.findElements(By.cssSelector("#d-sweep-table button.open")))
                .hasSize(1);
        browser.findElement(By.cssSelector("#d-sweep-table tr[data-threads='2'] button.open"))
                .click();
        wait.until(d -> d.findElement(By.cssSelector("#detail h2")).getText().contains("T=2"));
    }

    @Test
    @Order(8)
    void chartsOfLargeAndTinyFiguresHaveWholeReadableTicks() throws Exception {
        // The page's own chart function, given seven-digit and sub-millisecond figures over a few seconds.
        JavascriptExecutor js = (JavascriptExecutor) browser;
        browser.findElement(By.cssSelector("nav [data-tab=compare]")).click();
        js.executeScript("""
                for (const id of ['probe-big', 'probe-tiny']) {
                  const d = document.createElement('div'); d.id = id; document.getElementById('compare').append(d);
                }
                chart('probe-big', '', [{label: 'actions/s'}]).setData([[1, 2, 3, 4, 5, 6],
                  [1250000, 2400000, 3900000, 5100000, 6800000, 9700000]]);
                chart('probe-tiny', '', [{label: 'p50'}, {label: 'p95'}]).setData([[1, 2, 3, 4, 5, 6],
                  [0.001, 0.0011, 0.0012, 0.0013, 0.0012, 0.0011], [0.0014, 0.0015, 0.0016, 0.0015, 0.0014, 0.0015]]);""");
        axesReadable("#probe-big");
        axesReadable("#probe-tiny");
        assertThat(browser.findElement(By.cssSelector("#probe-big .uplot")).getDomAttribute("data-y-ticks"))
                .contains("10,000,000");
        // A chart of several series names them without "--" values; one of a single series has no legend.
        assertThat(browser.findElement(By.cssSelector("#probe-tiny .u-legend")).getText())
                .contains("p50")
                .doesNotContain("--");
        assertThat(browser.findElements(By.cssSelector("#probe-big .u-legend"))).isEmpty();
        js.executeScript("arguments[0].scrollIntoView()", browser.findElement(By.id("probe-big")));
        shot("charts-probe");
    }

    @Test
    @Order(9)
    void theRatingsReportPutsTheVerdictFirstAndLinksEveryExperiment() throws Exception {
        Path ratingDir = Files.list(dir.resolve("runs"))
                .filter(p -> p.getFileName().toString().startsWith("rate-deck"))
                .findFirst()
                .orElseThrow();
        JsonNode rating = JSON.readTree(Files.readString(ratingDir.resolve("rating.json")));
        browser.get(ratingDir.resolve("rating.html").toUri().toString());
        int verdict = browser.findElement(By.id("verdict")).getRect().getY();
        int throughput = browser.findElement(By.id("throughput")).getRect().getY();
        int latency = browser.findElement(By.id("latency")).getRect().getY();
        assertThat(verdict).isLessThan(throughput);
        assertThat(throughput).isLessThan(latency);
        assertThat(browser.findElements(By.cssSelector("#latency polyline"))).hasSize(3);
        List<WebElement> links = browser.findElements(By.cssSelector("#experiments a[href]"));
        assertThat(links).hasSize(rating.path("experiments").size());
        for (WebElement a : links) {
            assertThat(ratingDir.resolve(a.getDomAttribute("href"))).exists();
        }
        shot("report");
        browser.get(deck.uri().toString());
    }

    /**
     * Every axis of the chart in {@code box} has distinct tick labels, the x axis whole seconds, and the y axis is
     * wider than its widest label (uPlot draws on a canvas: the page records what it drew on the chart's element).
     */
    private static void axesReadable(String box) {
        WebElement plot = browser.findElement(By.cssSelector(box + " .uplot"));
        wait.until(d -> plot.getDomAttribute("data-y-ticks") != null
                && !plot.getDomAttribute("data-y-ticks").isEmpty());
        List<String> y = List.of(plot.getDomAttribute("data-y-ticks").split("\\|"));
        List<String> x = List.of(plot.getDomAttribute("data-x-ticks").split("\\|"));
        assertThat(y).as(box + " y ticks").doesNotHaveDuplicates();
        assertThat(x).as(box + " x ticks").doesNotHaveDuplicates().allMatch(t -> t.matches("\\d[\\d,]*"));
        int width = Integer.parseInt(plot.getDomAttribute("data-y-label-width"));
        int size = Integer.parseInt(plot.getDomAttribute("data-y-axis-size"));
        assertThat(width + 15).as(box + " y labels within the axis").isLessThanOrEqualTo(size);
    }

    /** The x values of the uPlot chart the script {@code chart} names. */
    @SuppressWarnings("unchecked")
    private static List<Double> xValues(String chart) {
        List<Object> xs = (List<Object>) ((JavascriptExecutor) browser).executeScript("return " + chart + ".data[0]");
        return xs.stream().map(v -> ((Number) v).doubleValue()).toList();
    }

    /** The end of the result's last interval that the charts draw: not a short one (under 0.5 s) ending the run. */
    private static double lastElapsed(JsonNode result) {
        JsonNode series = result.path("series");
        for (int i = series.size() - 1; i > 0; i--) {
            if (series.get(i).path("interval_s").asDouble(1) >= 0.5) {
                return series.get(i).path("elapsed_s").asDouble();
            }
        }
        return series.get(0).path("elapsed_s").asDouble();
    }

    /** The chart in {@code box} has one legend, naming each of {@code names} with its figure beside it. */
    private static void legendWithValues(String box, String... names) {
        List<WebElement> legend = browser.findElements(By.cssSelector(box + " .u-legend"));
        assertThat(legend).as(box + " legend").hasSize(1);
        List<WebElement> rows = legend.getFirst().findElements(By.cssSelector(".u-series"));
        for (String name : names) {
            WebElement row = rows.stream()
                    .filter(r -> r.findElement(By.cssSelector(".u-label"))
                            .getDomProperty("textContent")
                            .contains(name))
                    .findFirst()
                    .orElseThrow(() -> new AssertionError(box + ": no legend entry " + name));
            List<WebElement> value = row.findElements(By.cssSelector(".u-value"));
            assertThat(value).as(box + " " + name + " value").hasSize(1);
            assertThat(value.getFirst().getDomProperty("textContent"))
                    .as(box + " " + name + " value")
                    .matches("-?[\\d,]+(\\.\\d+)?");
        }
    }

    private static String get(String href) throws Exception {
        HttpResponse<String> r = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + deck.port() + href))
                                .header("Authorization", "Bearer " + deck.token())
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(href).isEqualTo(200);
        return r.body();
    }
}
