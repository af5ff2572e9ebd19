package org.bgbench.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.bgbench.measurement.KindResult;
import org.bgbench.measurement.RunResult;
import org.bgbench.measurement.report.IntervalLog;
import org.bgbench.measurement.report.ResultJson;
import org.bgbench.model.Action;
import org.bgbench.runner.Interrupts;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The worker, shutdown and deck commands and runs on workers end to end, in process. */
@Tag("server") // spawns processes
class BgWorkerCommandTest extends BgCommandFixture {
    /** A secret of whitespace, or of a character or two repeated, is no secret: from the flag, a file, the env. */
    @Test
    void aBlankOrTriviallyWeakSecretIsRefusedWhereverItComesFrom() throws Exception {
        String blank = " ".repeat(16);
        assertThat(bg("worker", "--listen", "127.0.0.1:0", "--dir", dir.toString(), "--secret", blank))
                .isEqualTo(Bg.BAD_INPUT);
        assertThat(err.toString()).contains("bg: error: --secret: the secret is only whitespace");
        assertThat(bg("shutdown", "--workers", "127.0.0.1:1", "--secret", "abababababababab"))
                .isEqualTo(Bg.BAD_INPUT);
        assertThat(err.toString()).contains("--secret: the secret has only 2 different characters; at least 8");
        assertThat(bg("shutdown", "--workers", "127.0.0.1:1", "--secret", " sixteen-characters"))
                .isEqualTo(Bg.BAD_INPUT);
        assertThat(err.toString()).contains("--secret: the secret begins or ends with whitespace");
        Path file = dir.resolve("blank.secret");
        Files.writeString(file, blank + "\n");
        assertThat(bg("worker", "--listen", "127.0.0.1:0", "--dir", dir.toString(), "--secret-file", file.toString()))
                .isEqualTo(Bg.BAD_INPUT);
        assertThat(err.toString()).contains("--secret-file: " + file + " holds only whitespace");
        assertThat(bg("shutdown", "--workers", "127.0.0.1:1", "--secret-file", file.toString()))
                .isEqualTo(Bg.BAD_INPUT);
        assertThat(err.toString()).doesNotContain("\tat ");

        // The environment: a real process, started with BG_SECRET of spaces.
        ProcessBuilder pb = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-cp",
                        System.getProperty("java.class.path"),
                        Bg.class.getName(),
                        "worker",
                        "--listen",
                        "127.0.0.1:0",
                        "--dir",
                        dir.resolve("w").toString())
                .redirectErrorStream(true);
        pb.environment().put("BG_SECRET", blank);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor()).as(out).isEqualTo(Bg.BAD_INPUT);
        assertThat(out)
                .contains("bg: error: BG_SECRET: the secret is only whitespace")
                .doesNotContain("listening");
    }

    /**
     * A coordinator cannot make a real worker write outside its --dir or load a jar: the worker refuses the settings
     * (one line naming the key), the coordinator's command fails, and nothing appears where it pointed.
     */
    @Test
    void aWorkerRefusesACoordinatorsFilesOutsideItsDirectoryAndItsCode() throws Exception {
        Path secretFile = dir.resolve("w.secret");
        Files.writeString(secretFile, "a-secret-for-the-confinement-test\n");
        Files.setPosixFilePermissions(secretFile, PosixFilePermissions.fromString("rw-------"));
        AtomicInteger code = new AtomicInteger(-1);
        StringWriter workerErr = new StringWriter();
        Thread[] worker = new Thread[1];
        int port = startWorker(workerErr, code, worker, "--secret-file", secretFile.toString());
        String workers = "127.0.0.1:" + port;
        Path outside = dir.resolve("outside.db");
        Path jar = dir.resolve("evil.jar");
        Files.writeString(jar, "not a jar");
        try {
            String[][] attempts = {
                {"jdbc.url=jdbc:sqlite:" + outside, "jdbc.url: sqlite:" + outside},
                {"jdbc.driver-jar=" + jar, "jdbc.driver-jar: names code for BG to load or run"},
                {"jdbc.dialect=/etc/passwd", "jdbc.dialect: '/etc/passwd' is outside the worker's own directory"},
            };
            for (String[] a : attempts) {
                int before = err.getBuffer().length();
                String[] setting = a[0].startsWith("jdbc.url")
                        ? new String[] {"-p", a[0]}
                        : new String[] {"-p", "jdbc.url=jdbc:sqlite:w.db", "-p", a[0]};
                List<String> args = new ArrayList<>(List.of(
                        "load",
                        "--store",
                        "jdbc",
                        "--workers",
                        workers,
                        "--secret-file",
                        secretFile.toString(),
                        "-p",
                        "usercount=100",
                        "-p",
                        "friendcountperuser=4",
                        "-p",
                        "resourcecountperuser=1"));
                args.addAll(List.of(setting));
                int exit = bg(args.toArray(String[]::new));
                String said = err.toString().substring(before);
                assertThat(exit).as(said).isEqualTo(Bg.FAILED);
                assertThat(said.lines().filter(l -> l.startsWith("bg: error:")).count())
                        .as(said)
                        .isEqualTo(1);
                assertThat(said)
                        .as(a[0])
                        .contains(a[1].startsWith("jdbc.url") ? "outside the worker's own directory" : a[1])
                        .doesNotContain("root:x:")
                        .doesNotContain("\tat ");
            }
            assertThat(outside).doesNotExist();
            assertThat(worker[0].isAlive()).as("the worker still serves").isTrue();
        } finally {
            bg("shutdown", "--workers", workers, "--secret-file", secretFile.toString());
            worker[0].join(Duration.ofSeconds(15));
        }
    }

    @Test
    void aWorkerServesUntilItsCoordinatorShutsItDown() throws Exception {
        // No secret: the worker generates one and writes it to the --secret-file that does not exist yet.
        Path secretFile = dir.resolve("worker.secret");
        AtomicInteger code = new AtomicInteger(-1);
        StringWriter workerErr = new StringWriter();
        Thread[] worker = new Thread[1];
        int port = startWorker(workerErr, code, worker, "--secret-file", secretFile.toString());
        assertThat(workerErr.toString()).contains("generated one and wrote it to " + secretFile);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(secretFile)))
                .isEqualTo("rw-------");

        assertThat(bg("shutdown", "--workers", "127.0.0.1:" + port, "--secret", "wrong-but-long-enough"))
                .isEqualTo(Bg.FAILED);
        assertThat(err.toString())
                .contains("refused the secret")
                .contains("warning: --secret puts the secret on the" + " command line");
        assertThat(worker[0].isAlive()).as("a wrong secret shuts nothing down").isTrue();
        int before = err.getBuffer().length();
        assertThat(bg("shutdown", "--workers", "127.0.0.1:" + port, "--secret-file", secretFile.toString()))
                .as(err.toString())
                .isZero();
        assertThat(err.toString().substring(before)).doesNotContain("warning");
        worker[0].join(Duration.ofSeconds(15));
        assertThat(worker[0].isAlive()).isFalse();
        assertThat(code.get()).isZero();
        assertThat(workerErr.toString()).contains("shut down by the coordinator");
    }

    @Test
    void aTlsWorkerIsReachedWithItsPinnedFingerprint() throws Exception {
        Path secretFile = dir.resolve("tls.secret");
        Files.writeString(secretFile, "a-secret-for-the-tls-test\n");
        Files.setPosixFilePermissions(secretFile, PosixFilePermissions.fromString("rw-------"));
        AtomicInteger code = new AtomicInteger(-1);
        StringWriter workerErr = new StringWriter();
        Thread[] worker = new Thread[1];
        int port = startWorker(workerErr, code, worker, "--secret-file", secretFile.toString(), "--tls");
        Matcher m = Pattern.compile("--tls-pin (([0-9A-F]{2}:){31}[0-9A-F]{2})").matcher(workerErr.toString());
        assertThat(m.find()).as(workerErr.toString()).isTrue();
        String pin = m.group(1);
        String workers = "127.0.0.1:" + port;

        assertThat(bg("shutdown", "--workers", workers, "--secret-file", secretFile.toString()))
                .isEqualTo(Bg.FAILED);
        assertThat(err.toString()).contains("it probably expects TLS");
        assertThat(bg(
                        "shutdown",
                        "--workers",
                        workers,
                        "--secret-file",
                        secretFile.toString(),
                        "--tls-pin",
                        "00".repeat(32)))
                .isEqualTo(Bg.FAILED);
        assertThat(err.toString()).contains("failed the TLS handshake").contains("not the one pinned with --tls-pin");
        assertThat(worker[0].isAlive()).isTrue();
        assertThat(bg("shutdown", "--workers", workers, "--secret-file", secretFile.toString(), "--tls-pin", pin))
                .as(err.toString())
                .isZero();
        worker[0].join(Duration.ofSeconds(15));
        assertThat(worker[0].isAlive()).isFalse();
        assertThat(code.get()).isZero();
    }

    /**
     * The same workers, the coordinator's --out on a full disk: the merged summary is printed, then one error line
     * naming the merged result and the workers' copies, and the run fails.
     */
    private void fullDiskOnTheCoordinator(String workers, String secret) throws Exception {
        Path mnt = dir.resolve("full-disk");
        SmallDisk.mount(mnt, "1m");
        try {
            SmallDisk.fill(mnt.resolve("filler"));
            Path full = mnt.resolve("full.json");
            int before = err.getBuffer().length();
            int printed = out.getBuffer().length();
            assertThat(bg(
                            "run",
                            "--store",
                            "sqlite",
                            "-p",
                            "sqlite.file=hlog.sqlite",
                            "--workers",
                            workers,
                            "--secret",
                            secret,
                            "--threads",
                            "2",
                            "--duration",
                            "1s",
                            "--warmup",
                            "0s",
                            "--quiet",
                            "--out",
                            full.toString(),
                            "-p",
                            "usercount=200",
                            "-p",
                            "friendcountperuser=4",
                            "-p",
                            "fragments=2"))
                    .as(err.toString())
                    .isEqualTo(Bg.FAILED);
            String said = err.toString().substring(before);
            assertThat(out.toString().substring(printed))
                    .contains("BG run: ")
                    .contains("Workers  2")
                    .contains("Result: " + full.toAbsolutePath() + " (not written: the summary above is what was "
                            + "measured)");
            assertThat(said)
                    .containsOnlyOnce("bg: error: cannot write the result to " + full + ": ")
                    .contains("No space left on device (and 2 more files not written); the summary above is what "
                            + "was measured")
                    .doesNotContain("Exception", "\tat ");
            try (var left = Files.list(mnt)) {
                assertThat(left.map(f -> f.getFileName().toString()))
                        .as("no reserve or temporary file is left")
                        .noneMatch(n -> n.endsWith(".reserve") || n.endsWith(".tmp"));
            }
        } finally {
            SmallDisk.unmount(mnt);
        }
    }

    @Test
    void aRunOnTwoWorkersWritesAMergedHlogWithTheMergedResultsCounts() throws Exception {
        String secret = "a-secret-for-the-hlog-test";
        AtomicInteger code1 = new AtomicInteger(-1);
        AtomicInteger code2 = new AtomicInteger(-1);
        Thread[] w1 = new Thread[1];
        Thread[] w2 = new Thread[1];
        int p1 = startWorker(new StringWriter(), code1, w1, "--secret", secret);
        int p2 = startWorker(new StringWriter(), code2, w2, "--secret", secret);
        String workers = "127.0.0.1:" + p1 + ",127.0.0.1:" + p2;
        Path result = dir.resolve("two.json");
        try {
            // SQLite: a relative file is under each worker's own directory, so each has a store of its own.
            assertThat(bg(
                            "run",
                            "--store",
                            "sqlite",
                            "-p",
                            "sqlite.file=hlog.sqlite",
                            "--load",
                            "--workers",
                            workers,
                            "--secret",
                            secret,
                            "--threads",
                            "4",
                            "--duration",
                            "2s",
                            "--warmup",
                            "1s",
                            "--quiet",
                            "--out",
                            result.toString(),
                            "-p",
                            "usercount=200",
                            "-p",
                            "friendcountperuser=4",
                            "-p",
                            "fragments=2"))
                    .as(err.toString())
                    .isZero();
            fullDiskOnTheCoordinator(workers, secret);
        } finally {
            bg("shutdown", "--workers", workers, "--secret", secret);
            w1[0].join(Duration.ofSeconds(15));
            w2[0].join(Duration.ofSeconds(15));
        }
        RunResult merged = ResultJson.read(result);
        assertThat(merged.config().get("workers_count")).isEqualTo(2);
        Path hlog = dir.resolve("two.hlog");
        assertThat(merged.bottleneckWarnings()).noneMatch(w -> w.contains("histogram log"));

        // Read back by HdrHistogram: per action and session, and untagged for all actions, the merged result's counts.
        Map<String, Long> totals = new LinkedHashMap<>();
        int untagged = 0;
        try (org.HdrHistogram.HistogramLogReader reader = new org.HdrHistogram.HistogramLogReader(hlog.toFile())) {
            org.HdrHistogram.EncodableHistogram e;
            while ((e = reader.nextIntervalHistogram()) != null) {
                String tag = e.getTag() == null ? "" : e.getTag();
                totals.merge(tag, ((org.HdrHistogram.Histogram) e).getTotalCount(), Long::sum);
                untagged += tag.isEmpty() ? 1 : 0;
            }
        }
        Map<String, KindResult> kinds = new LinkedHashMap<>(merged.actions());
        kinds.putAll(merged.sessions());
        assertThat(merged.total().count()).isPositive();
        kinds.forEach(
                (kind, k) -> assertThat(totals.getOrDefault(kind, 0L)).as(kind).isEqualTo(k.count() + k.stuck()));
        assertThat(totals.get(""))
                .isEqualTo(merged.total().count() + merged.total().stuck());
        assertThat(untagged)
                .as("a merged second each, warm-up excluded")
                .isGreaterThanOrEqualTo(merged.series().size())
                .isLessThanOrEqualTo(merged.series().size() + 2);
        if (merged.total().stuck() == 0) {
            assertThat(Files.readString(hlog))
                    .as("the seconds alone add up: nothing was stuck")
                    .doesNotContain(IntervalLog.REST_COMMENT);
        }
        Path printed = dir.resolve("two.txt");
        new org.HdrHistogram.HistogramLogProcessor(new String[] {"-i", hlog.toString(), "-o", printed.toString()})
                .run();
        assertThat(Files.readString(dir.resolve("two.txt.hgrm")))
                .containsPattern("Total count\\s+=\\s+" + totals.get("") + "\\]");

        // The coordinator's live file (what the deck shows): the merged seconds, per action summed over the workers.
        List<JsonNode> live = new ArrayList<>();
        for (String line : Files.readAllLines(dir.resolve("two.live.jsonl"))) {
            live.add(new ObjectMapper().readTree(line));
        }
        assertThat(live.get(0).path("type").asText()).isEqualTo("start");
        assertThat(live.get(0).path("threads").asInt()).isEqualTo(4);
        assertThat(live.get(live.size() - 1).path("type").asText()).isEqualTo("end");
        assertThat(live.get(live.size() - 1).path("throughput").asDouble()).isEqualTo(merged.throughput());
        List<JsonNode> secondsSeen = live.stream()
                .filter(n -> n.path("type").asText().equals("second"))
                .toList();
        assertThat(secondsSeen).hasSize(merged.series().size());
        for (int i = 0; i < secondsSeen.size(); i++) {
            JsonNode n = secondsSeen.get(i);
            assertThat(n.path("actions").asLong())
                    .isEqualTo(merged.series().get(i).actions());
            long perKind = 0;
            for (Action a : Action.values()) {
                perKind += n.path("kinds").path(a.code()).path("n").asLong();
            }
            assertThat(perKind)
                    .as("second " + n.path("second"))
                    .isEqualTo(n.path("actions").asLong());
        }
    }

    @Test
    void theDeckServesItsPageAndFormsUntilInterrupted() throws Exception {
        StringWriter deckErr = new StringWriter();
        AtomicInteger code = new AtomicInteger(-1);
        Thread deck = Thread.ofPlatform()
                .start(() -> code.set(Bg.run(
                        new PrintWriter(new StringWriter(), true),
                        new PrintWriter(deckErr, true),
                        "deck",
                        "--listen",
                        "127.0.0.1:0",
                        "--runs",
                        dir.resolve("runs").toString())));
        try {
            Pattern open = Pattern.compile("bg deck: open (http://\\S+)");
            long deadline = System.nanoTime() + 30_000_000_000L;
            Matcher m = open.matcher("");
            while (!(m = open.matcher(deckErr.toString())).find() && System.nanoTime() < deadline && deck.isAlive()) {
                Thread.sleep(10);
            }
            assertThat(m.find(0)).as(deckErr.toString()).isTrue();
            URI page = URI.create(m.group(1));
            assertThat(page.getHost()).isEqualTo("127.0.0.1");
            // a token on loopback too, generated and printed once in the address
            assertThat(page.getQuery()).matches("token=[A-Za-z0-9_-]{32}");
            assertThat(deckErr.toString().split(page.getQuery(), -1)).hasSize(2);
            HttpClient http = HttpClient.newHttpClient();
            assertThat(http.send(
                                    HttpRequest.newBuilder(page.resolve("/api/forms"))
                                            .build(),
                                    HttpResponse.BodyHandlers.ofString())
                            .statusCode())
                    .isEqualTo(401);
            HttpResponse<String> forms = http.send(
                    HttpRequest.newBuilder(page.resolve("/api/forms"))
                            .header("Authorization", "Bearer " + page.getQuery().substring(6))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(forms.statusCode()).isEqualTo(200);
            assertThat(forms.body()).contains("\"name\":\"sqlite\"").contains("\"name\":\"memory\"");
            Interrupts.interrupt("stopped by the test");
            deck.join(Duration.ofSeconds(10));
            assertThat(code.get()).as(deckErr.toString()).isZero();
        } finally {
            Interrupts.reset();
        }
    }

    @Test
    void anUnreachableWorkerIsAClearFailure() {
        assertThat(bg(
                        "run",
                        "--store",
                        "memory",
                        "--workers",
                        "127.0.0.1:1",
                        "--secret",
                        "sixteen-characters",
                        "-p",
                        "usercount=200",
                        "-p",
                        "friendcountperuser=4",
                        "--duration",
                        "1s"))
                .isEqualTo(Bg.FAILED);
        assertThat(err.toString()).contains("worker 127.0.0.1:1 is unreachable").doesNotContain("\tat ");
    }
}
