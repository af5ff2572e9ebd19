package org.bgbench.metrics;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/**
 * The real Prometheus text-format parsers the metrics tests check BG's endpoint with: {@code promtool check metrics}
 * (Debian package prometheus) and the Prometheus Python client's parsers (Debian package python3-prometheus-client),
 * both run as processes. A missing tool fails the test when the environment variable CI is set (scripts/test-deps.sh
 * installs both) and skips it otherwise, saying what to install. Also used by the cli module's tests (test-jar).
 */
public final class PrometheusParsers {
    /** The text format, or OpenMetrics when the scraper asks for it. */
    public enum Format {
        TEXT,
        OPENMETRICS
    }

    /** One parsed sample. */
    public record Sample(String family, String type, String name, Map<String, String> labels, double value) {}

    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private PrometheusParsers() {}

    /** GET {@code url} (OpenMetrics asked for when {@code format} says so); fails unless 200. */
    public static String scrape(String url, Format format) throws IOException, InterruptedException {
        HttpRequest.Builder r = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10));
        if (format == Format.OPENMETRICS) {
            r.header("Accept", "application/openmetrics-text; version=1.0.0; charset=utf-8");
        }
        HttpResponse<String> response = HTTP.send(r.build(), HttpResponse.BodyHandlers.ofString());
        Assertions.assertEquals(200, response.statusCode(), "GET " + url);
        String type = response.headers().firstValue("Content-Type").orElse("");
        Assertions.assertTrue(
                type.startsWith(format == Format.OPENMETRICS ? "application/openmetrics-text" : "text/plain"),
                "Content-Type " + type);
        return response.body();
    }

    /** Fails the test when CI is set, else skips it: {@code tool} is missing. */
    private static void missing(String tool, String install) {
        String why = tool + " is not installed (" + install + "; scripts/test-deps.sh installs it)";
        if (System.getenv("CI") != null) {
            Assertions.fail(why + ", and CI is set");
        }
        Assumptions.abort(why + ": skipped");
    }

    private static boolean onPath(String binary) {
        for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(":")) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, binary))) {
                return true;
            }
        }
        return false;
    }

    /** The Python that has the module: the one on the path, else Debian's (a pyenv or venv python may not). */
    private static String python;

    /** Checks that both parsers are there before a test starts a run (fails under CI, else skips). */
    public static void requireTools() throws IOException, InterruptedException {
        if (!onPath("promtool")) {
            missing("promtool", "Debian package prometheus");
        }
        if (python == null) {
            for (String candidate : List.of("python3", "/usr/bin/python3")) {
                if ((candidate.startsWith("/") ? Files.isExecutable(Path.of(candidate)) : onPath(candidate))
                        && exec(
                                                List.of(
                                                        candidate,
                                                        "-c",
                                                        "import prometheus_client.parser, "
                                                                + "prometheus_client.openmetrics.parser"),
                                                "")
                                        .code
                                == 0) {
                    python = candidate;
                    break;
                }
            }
        }
        if (python == null) {
            missing(
                    "the Python module prometheus_client (for python3 or /usr/bin/python3)",
                    "Debian package python3-prometheus-client");
        }
    }

    /** {@code promtool check metrics} on {@code body} (text format): fails the test with its findings. */
    public static void promtoolCheck(String body) throws IOException, InterruptedException {
        Result r = exec(List.of("promtool", "check", "metrics"), body);
        Assertions.assertEquals(0, r.code, "promtool check metrics: " + r.out + "\n" + body);
    }

    /** The samples of {@code body} as the Prometheus Python client parses it. */
    public static List<Sample> parse(String body, Format format) throws IOException, InterruptedException {
        String script;
        try (InputStream in = PrometheusParsers.class.getResourceAsStream("parse_exposition.py")) {
            script = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        requireTools();
        Result r = exec(List.of(python, "-c", script, format == Format.OPENMETRICS ? "openmetrics" : "text"), body);
        Assertions.assertEquals(0, r.code, "the Python Prometheus parser refused the body: " + r.err + "\n" + body);
        List<Sample> samples = new ArrayList<>();
        for (JsonNode f : new ObjectMapper().readTree(r.out).get("families")) {
            for (JsonNode s : f.get("samples")) {
                Map<String, String> labels = new TreeMap<>();
                s.get("labels")
                        .fields()
                        .forEachRemaining(
                                e -> labels.put(e.getKey(), e.getValue().asText()));
                JsonNode v = s.get("value");
                samples.add(new Sample(
                        f.get("name").asText(),
                        f.get("type").asText(),
                        s.get("name").asText(),
                        labels,
                        v.isNumber() ? v.asDouble() : Double.parseDouble(v.asText())));
            }
        }
        return samples;
    }

    private record Result(int code, String out, String err) {}

    private static Result exec(List<String> command, String stdin) throws IOException, InterruptedException {
        Path out = Files.createTempFile("bg-prom", ".out");
        Path err = Files.createTempFile("bg-prom", ".err");
        try {
            Process p = new ProcessBuilder(command)
                    .redirectOutput(out.toFile())
                    .redirectError(err.toFile())
                    .start();
            try (var w = p.getOutputStream()) {
                w.write(stdin.getBytes(StandardCharsets.UTF_8));
            }
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                Assertions.fail(command.get(0) + " did not finish within 60 s");
            }
            return new Result(p.exitValue(), Files.readString(out), Files.readString(err));
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }
}
