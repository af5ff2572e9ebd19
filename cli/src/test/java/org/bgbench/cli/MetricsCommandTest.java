package org.bgbench.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.bgbench.measurement.KindResult;
import org.bgbench.measurement.RunResult;
import org.bgbench.measurement.report.ResultJson;
import org.bgbench.metrics.PrometheusParsers;
import org.bgbench.metrics.PrometheusParsers.Format;
import org.bgbench.metrics.PrometheusParsers.Sample;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code --metrics}: bg run serves its experiment while it runs (each scrape checked by promtool and parsed by the
 * Prometheus Python client), a bg worker serves the experiments coordinators run on it, labelled with its address,
 * and bad values are one line of bad input.
 */
@Tag("server")
class MetricsCommandTest {
    private static final Pattern URL = Pattern.compile("bg: metrics at (http://\\S+/metrics)");
    private static final String[] GRAPH = {
        "-p",
        "usercount=300",
        "-p",
        "friendcountperuser=10",
        "-p",
        "resourcecountperuser=4",
        "-p",
        "confperc=0.7",
        "-p",
        "commentcountperresource=1"
    };

    @TempDir
    Path dir;

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    @BeforeEach
    void stateDir() {
        System.setProperty("bg.state.dir", dir.resolve("state").toString());
    }

    private int bg(String... args) {
        return Bg.run(new PrintWriter(out, true), new PrintWriter(err, true), args);
    }

    private static String[] with(String[] base, String... more) {
        List<String> all = new ArrayList<>(List.of(more));
        all.addAll(List.of(base));
        return all.toArray(String[]::new);
    }

    /** The URL the command printed, once it has. */
    private static String awaitUrl(StringWriter w, Thread t) throws InterruptedException {
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (System.nanoTime() < deadline && t.isAlive()) {
            Matcher m = URL.matcher(w.toString());
            if (m.find()) {
                return m.group(1);
            }
            Thread.sleep(20);
        }
        Matcher m = URL.matcher(w.toString());
        assertThat(m.find()).as(w.toString()).isTrue();
        return m.group(1);
    }

    @Test
    void bgRunIsScrapedWhileItMeasures() throws Exception {
        PrometheusParsers.requireTools();
        Path result = dir.resolve("run.json");
        AtomicInteger code = new AtomicInteger(-1);
        Thread run = Thread.ofPlatform()
                .start(() -> code.set(bg(with(
                        GRAPH,
                        "run",
                        "--store",
                        "memory",
                        "-p",
                        "memory.name=metrics-cli",
                        "--workload",
                        "high",
                        "--threads",
                        "2",
                        "--duration",
                        "4s",
                        "--warmup",
                        "1s",
                        "--quiet",
                        "--metrics",
                        "127.0.0.1:0",
                        "--out",
                        result.toString()))));
        String url = awaitUrl(err, run);
        assertThat(url).matches("http://127\\.0\\.0\\.1:\\d+/metrics");
        assertThat(err.toString().lines().filter(l -> l.contains("metrics at"))).hasSize(1);

        List<Sample> measuring = null;
        while (run.isAlive()) {
            String body;
            try {
                body = PrometheusParsers.scrape(url, Format.TEXT);
            } catch (ConnectException e) {
                break; // the command has ended and closed its endpoint
            }
            List<Sample> samples = PrometheusParsers.parse(body, Format.TEXT);
            if (sum(samples, "bg_warmup") == 0
                    && sum(samples, "bg_running") == 1
                    && sum(samples, "bg_completed_total") > 0) {
                PrometheusParsers.promtoolCheck(body);
                measuring = samples;
                break;
            }
            Thread.sleep(100);
        }
        run.join(60_000);
        assertThat(code.get()).as(err.toString()).isZero();
        assertThat(measuring).as("a scrape while bg run measured").isNotNull();
        RunResult r = ResultJson.read(result);
        // One scrape is one consistent snapshot: each action's histogram holds exactly its completed executions, and
        // nothing counted yet exceeds what the result counts in the end.
        for (Map.Entry<String, KindResult> e : r.actions().entrySet()) {
            String code0 = e.getKey();
            double completed = one(measuring, "bg_completed_total", code0);
            assertThat(one(measuring, "bg_latency_seconds_count", code0))
                    .as(code0)
                    .isEqualTo(completed);
            assertThat(completed).as(code0).isLessThanOrEqualTo(e.getValue().count());
            assertThat(one(measuring, "bg_errors_total", code0))
                    .as(code0)
                    .isLessThanOrEqualTo(e.getValue().errors());
        }
        assertThat(measuring.stream()
                        .filter(s -> s.name().equals("bg_threads"))
                        .findFirst()
                        .orElseThrow()
                        .value())
                .isEqualTo(2);
        // The endpoint ends with the command.
        assertThatThrownBy(() -> PrometheusParsers.scrape(url, Format.TEXT)).isInstanceOf(ConnectException.class);
    }

    @Test
    void bgRateServesEveryExperimentOfTheRatingOnCountersThatNeverGoBack() throws Exception {
        PrometheusParsers.requireTools();
        Path rating = dir.resolve("rating");
        AtomicInteger code = new AtomicInteger(-1);
        Thread rate = Thread.ofPlatform()
                .start(() -> code.set(bg(with(
                        GRAPH,
                        "rate",
                        "--store",
                        "memory",
                        "-p",
                        "memory.name=metrics-rate",
                        "--delta",
                        "1s",
                        "--warmup",
                        "0s",
                        "--sla",
                        "95%:100ms:0.01%:1s",
                        "--max-threads",
                        "4",
                        "--no-confirm",
                        "--metrics",
                        "127.0.0.1:0",
                        "--out",
                        rating.toString()))));
        String url = awaitUrl(err, rate);
        double experiments = 0;
        double completed = 0;
        int scrapes = 0;
        while (rate.isAlive()) {
            String body;
            try {
                body = PrometheusParsers.scrape(url, Format.TEXT);
            } catch (IOException e) {
                break; // the rating has ended and closed its endpoint
            }
            List<Sample> samples = PrometheusParsers.parse(body, Format.TEXT);
            double e = sum(samples, "bg_experiments_total");
            double c = sum(samples, "bg_completed_total");
            assertThat(e).as("experiments started").isGreaterThanOrEqualTo(experiments);
            assertThat(c).as("a counter never goes back between experiments").isGreaterThanOrEqualTo(completed);
            if (e > experiments) {
                PrometheusParsers.promtoolCheck(body);
            }
            experiments = e;
            completed = c;
            scrapes++;
            Thread.sleep(150);
        }
        rate.join(120_000);
        assertThat(code.get()).as(err.toString()).isZero();
        @SuppressWarnings("unchecked")
        Map<String, Object> json =
                new ObjectMapper().readValue(rating.resolve("rating.json").toFile(), Map.class);
        int rated = ((List<?>) json.get("experiments")).size();
        assertThat(scrapes).isPositive();
        assertThat(experiments)
                .as("experiments seen by the scrapes")
                .isGreaterThanOrEqualTo(2)
                .isLessThanOrEqualTo(rated);
        assertThat(completed).isPositive();
    }

    @Test
    void aWorkerLabelsItsExperimentsWithItsAddress() throws Exception {
        PrometheusParsers.requireTools();
        Path secret = dir.resolve("worker.secret");
        Files.writeString(secret, "a-secret-for-the-metrics-test\n");
        Files.setPosixFilePermissions(secret, PosixFilePermissions.fromString("rw-------"));
        int port;
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = probe.getLocalPort();
        }
        StringWriter workerErr = new StringWriter();
        AtomicInteger code = new AtomicInteger(-1);
        Thread worker = Thread.ofPlatform()
                .start(() -> code.set(Bg.run(
                        new PrintWriter(new StringWriter(), true),
                        new PrintWriter(workerErr, true),
                        "worker",
                        "--listen",
                        "127.0.0.1:" + port,
                        "--dir",
                        dir.resolve("worker").toString(),
                        "--secret-file",
                        secret.toString(),
                        "--metrics",
                        "127.0.0.1:0")));
        String url = awaitUrl(workerErr, worker);
        String workers = "127.0.0.1:" + port;
        try {
            String db = "sqlite.file=w.sqlite"; // under the worker's --dir
            String[] cluster = {"--store", "sqlite", "-p", db, "--workers", workers, "--secret-file", secret.toString()
            };
            assertThat(bg(with(with(GRAPH, cluster), "load")))
                    .as(err.toString())
                    .isZero();
            Path result = dir.resolve("cluster.json");
            assertThat(bg(with(
                            with(GRAPH, cluster),
                            "run",
                            "--workload",
                            "high",
                            "--threads",
                            "2",
                            "--duration",
                            "2s",
                            "--warmup",
                            "0s",
                            "--quiet",
                            "--out",
                            result.toString())))
                    .as(err.toString())
                    .isZero();
            // The run is over and the worker still serves: its counters are its whole share, here the whole run.
            String body = PrometheusParsers.scrape(url, Format.TEXT);
            PrometheusParsers.promtoolCheck(body);
            List<Sample> samples = PrometheusParsers.parse(body, Format.TEXT);
            RunResult r = ResultJson.read(result);
            assertThat(r.total().count()).isPositive();
            for (Map.Entry<String, KindResult> e : r.actions().entrySet()) {
                List<Sample> found = samples.stream()
                        .filter(s -> s.name().equals("bg_completed_total")
                                && e.getKey().equals(s.labels().get("action")))
                        .toList();
                assertThat(found).as(e.getKey()).hasSize(1);
                assertThat(found.get(0).labels())
                        .containsEntry("worker", workers)
                        .containsEntry("store", "sqlite");
                assertThat(found.get(0).value())
                        .as(e.getKey())
                        .isEqualTo(e.getValue().count());
            }
        } finally {
            bg("shutdown", "--workers", workers, "--secret-file", secret.toString());
            worker.join(30_000);
        }
        assertThat(code.get()).as(workerErr.toString()).isZero();
    }

    private static double one(List<Sample> samples, String name, String action) {
        List<Sample> found = samples.stream()
                .filter(s -> s.name().equals(name) && action.equals(s.labels().get("action")))
                .toList();
        assertThat(found).as(name + "{action=" + action + "}").hasSize(1);
        assertThat(found.get(0).labels()).containsEntry("worker", "local").containsEntry("store", "memory");
        return found.get(0).value();
    }

    private static double sum(List<Sample> samples, String name) {
        return samples.stream()
                .filter(s -> s.name().equals(name))
                .mapToDouble(Sample::value)
                .sum();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "no port           | run --store memory --metrics 127.0.0.1 -p usercount=200 -p friendcountperuser=4   | --metrics: expected HOST:PORT",
                "empty port        | run --store memory --metrics localhost: -p usercount=200 -p friendcountperuser=4  | --metrics: expected HOST:PORT",
                "port not a number | rate --store memory --metrics localhost:http -p usercount=200 -p friendcountperuser=4 | --metrics: the port must be a number",
                "port too large    | run --store memory --metrics 127.0.0.1:70000 -p usercount=200 -p friendcountperuser=4 | --metrics: the port must be 0..65535",
                "unknown host      | run --store memory --metrics no-such-host.invalid:9464 -p usercount=200 -p friendcountperuser=4 | --metrics: unknown host 'no-such-host.invalid'",
                "worker bad value  | worker --listen 127.0.0.1:0 --secret sixteen-characters --metrics nonsense        | --metrics: expected HOST:PORT",
                "with --workers    | run --store memory --workers 127.0.0.1:1 --secret sixteen-characters --metrics 127.0.0.1:0 -p usercount=200 -p friendcountperuser=4 | --metrics: with --workers",
            })
    void badValuesGetOneClearLineAndExitCode2(String what, String args, String message) {
        int code = bg(args.trim().split("\\s+"));
        assertThat(code).as(what + ": " + err).isEqualTo(Bg.BAD_INPUT);
        assertThat(err.toString())
                .contains(message.trim())
                .doesNotContain("\tat ")
                .doesNotContain("Usage:")
                .doesNotContain("metrics at");
        assertThat(err.toString()
                        .lines()
                        .filter(l -> l.startsWith("bg: error:"))
                        .count())
                .isEqualTo(1);
    }

    @Test
    void aPortInUseIsBadInput() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            int code = bg(with(
                    GRAPH,
                    "run",
                    "--store",
                    "memory",
                    "--duration",
                    "1s",
                    "--quiet",
                    "--metrics",
                    "127.0.0.1:" + taken.getLocalPort(),
                    "--out",
                    dir.resolve("taken.json").toString()));
            assertThat(code).as(err.toString()).isEqualTo(Bg.BAD_INPUT);
            assertThat(err.toString())
                    .contains("bg: error: --metrics: cannot listen on 127.0.0.1:" + taken.getLocalPort())
                    .doesNotContain("\tat ");
            assertThat(err.toString()
                            .lines()
                            .filter(l -> l.startsWith("bg: error:"))
                            .count())
                    .isEqualTo(1);
        }
    }
}
