package org.bgbench.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bg run} against a PostgreSQL server that is stopped (SIGSTOP on the postmaster and every backend: the kernel
 * still accepts connections, nothing answers) one second into a 6 s run, and continued only after the command
 * returned: the run ends on time, exits 1, and the result on disk and the summary say which actions were stuck, which
 * seconds stalled, and that the run does not meet the SLA. On the same server, {@code bg run} processes released at
 * one instant: one runs, the others are refused.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Tag("server")
class StuckPostgresTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String[] GRAPH = {
        "-p",
        "usercount=200",
        "-p",
        "friendcountperuser=10",
        "-p",
        "resourcecountperuser=4",
        "-p",
        "confperc=0.7",
        "-p",
        "commentcountperresource=1"
    };
    private static final int THREADS = 4;
    private static final Pattern FIRST_SECOND = Pattern.compile("(?m)^\\s+1s\\s.*act/s");

    @TempDir
    static Path dir;

    private EmbeddedPostgres pg;
    private String url;

    @BeforeAll
    void start() throws Exception {
        pg = EmbeddedPostgres.builder()
                .setPGStartupWait(Duration.ofSeconds(60))
                .setServerConfig("fsync", "off")
                .setServerConfig("synchronous_commit", "off")
                .start();
        url = "postgres.url=jdbc:postgresql://localhost:" + pg.getPort() + "/postgres";
        StringWriter err = new StringWriter();
        assertThat(bg(new StringWriter(), err, with("load", "--store", "postgres", "-p", url, "--replace")))
                .as(err.toString())
                .isZero();
    }

    @AfterAll
    void stop() throws Exception {
        if (pg != null) {
            pg.close();
        }
    }

    private static int bg(StringWriter out, StringWriter err, String... args) {
        System.setProperty("bg.state.dir", dir.resolve("state").toString());
        return Bg.run(new PrintWriter(out, true), new PrintWriter(err, true), args);
    }

    private static String[] with(String... more) {
        List<String> all = new ArrayList<>(List.of(more));
        all.addAll(List.of(GRAPH));
        return all.toArray(String[]::new);
    }

    /** The postmaster's pid: the parent of a backend's. */
    private long postmaster() throws Exception {
        try (Connection c = pg.getPostgresDatabase().getConnection();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT pg_backend_pid()")) {
            rs.next();
            return ProcessHandle.of(rs.getLong(1))
                    .flatMap(ProcessHandle::parent)
                    .orElseThrow()
                    .pid();
        }
    }

    private static void signal(String signal, List<Long> pids) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("kill", "-" + signal));
        pids.forEach(p -> cmd.add(Long.toString(p)));
        new ProcessBuilder(cmd).redirectErrorStream(true).start().waitFor(10, TimeUnit.SECONDS);
    }

    @Test
    void aServerStoppedForMostOfARunEndsItOnTimeIncompleteWithItsStuckActionsAndStalledSeconds() throws Exception {
        long postmaster = postmaster();
        Path result = dir.resolve("stuck.json");
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        List<Long> stopped = new CopyOnWriteArrayList<>();
        long[] frozenAt = {0};
        // Stops the server once the first measured second is reported; never leaves it stopped past a minute.
        Thread freezer = Thread.ofPlatform().daemon().start(() -> {
            try {
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                while (!FIRST_SECOND.matcher(err.toString()).find() && System.nanoTime() < deadline) {
                    Thread.sleep(20);
                }
                List<Long> pids = new ArrayList<>(List.of(postmaster));
                ProcessHandle.of(postmaster).ifPresent(p -> p.descendants().forEach(d -> pids.add(d.pid())));
                signal("STOP", pids);
                stopped.addAll(pids);
                frozenAt[0] = System.nanoTime();
                Thread.sleep(60_000);
                signal("CONT", pids);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        long t0 = System.nanoTime();
        int exit;
        try {
            exit = bg(
                    out,
                    err,
                    with(
                            "run",
                            "--store",
                            "postgres",
                            "-p",
                            url,
                            "--workload",
                            "high",
                            "--threads",
                            Integer.toString(THREADS),
                            "--duration",
                            "6s",
                            "--warmup",
                            "0s",
                            "-p",
                            "validation=false",
                            "--out",
                            result.toString()));
        } finally {
            freezer.interrupt();
            signal("CONT", List.copyOf(stopped));
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        double afterFreeze = (System.nanoTime() - frozenAt[0]) / 1e9;
        assertThat(stopped).as("the server was stopped").isNotEmpty();

        // The default postgres.timeout at β = 100 ms is 10 s: a read gives up 11 s after the call began, so the
        // threads waiting since the freeze are back about 11 s after it, within duration + grace.
        assertThat(afterFreeze).as("returned once the stuck calls timed out").isBetween(9.0, 5 + 11 + 6.0);
        assertThat(seconds).as("%s\n%s", out, err).isLessThan(6 + 11 + 15);
        assertThat(exit).as("%s\n%s", out, err).isEqualTo(Bg.FAILED);
        assertThat(err.toString())
                .contains("bg: error: the run is incomplete: The store stopped answering: " + THREADS
                        + " actions were still waiting when the run ended");
        assertThat(out.toString())
                .contains("Incomplete  The store stopped answering: " + THREADS + " actions were "
                        + "still waiting when the run ended, the longest for ")
                .contains("completed nothing. The run does not " + "meet the SLA.");

        JsonNode r = JSON.readTree(result.toFile());
        assertThat(r.get("duration_s").asDouble())
                .as("the measured period ended on time")
                .isBetween(5.8, 7.0);
        assertThat(r.get("total").get("stuck").asLong()).isEqualTo(THREADS);
        long perAction = 0;
        for (JsonNode a : r.get("actions")) {
            perAction += a.get("stuck").asLong();
        }
        assertThat(perAction).as("stuck per action").isEqualTo(THREADS);
        assertThat(r.get("total").get("max_ms").asDouble())
                .as("waited since the freeze")
                .isBetween(3_500.0, 6_000.0);
        JsonNode config = r.get("config");
        assertThat(config.get("completed").asBoolean()).isFalse();
        assertThat(config.get("abort_reason").isNull()).isTrue();
        assertThat(config.get("stuck_threads").asInt())
                .as("every thread left once its read timed out")
                .isZero();
        List<Integer> stalled = new ArrayList<>();
        config.get("stalled_seconds").forEach(s -> stalled.add(s.asInt()));
        assertThat(stalled).contains(3, 4, 5).allMatch(s -> s >= 2);
        assertThat(config.get("incomplete_reason").asText()).startsWith("The store stopped answering: ");
        for (JsonNode point : r.get("series")) {
            if (stalled.contains(point.get("second").asInt())) {
                assertThat(point.get("actions").asLong()).isZero();
                assertThat(point.get("errors").asLong()).isZero();
            }
        }
        // The stuck writes may or may not have reached the store: it stays marked as written by a run that did not
        // end, and the next run is refused until the store is repaired or reloaded.
        StringWriter again = new StringWriter();
        assertThat(bg(
                        new StringWriter(),
                        again,
                        with(
                                "run",
                                "--store",
                                "postgres",
                                "-p",
                                url,
                                "--workload",
                                "high",
                                "--duration",
                                "1s",
                                "--out",
                                dir.resolve("again.json").toString())))
                .isEqualTo(Bg.FAILED);
        assertThat(again.toString()).contains("has not ended").contains("bg verify --store postgres --repair");
    }

    @Test
    void aBadTimeoutIsRefusedInOneLineNamingTheKey() {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        assertThat(bg(
                        out,
                        err,
                        with(
                                "run",
                                "--store",
                                "postgres",
                                "-p",
                                url,
                                "-p",
                                "postgres.timeout=soon",
                                "--duration",
                                "1s",
                                "--out",
                                dir.resolve("bad.json").toString())))
                .isEqualTo(Bg.BAD_INPUT);
        assertThat(err.toString().strip())
                .isEqualTo("bg: error: postgres.timeout: expected a timeout such as 10s, " + "30s or 2m, got 'soon'");
    }

    /**
     * Runs started at the same instant: a row lock on the state mark, held here, lets each {@code bg run} process
     * read the mark and check the store (it then prints "bg: running") but not mark it; released, they all try at
     * once. One runs; the others exit 1 with the usual line and write no result.
     */
    @Test
    void ofRunsStartedAtTheSameInstantOneRunsAndTheOthersAreRefused() throws Exception {
        StringWriter loadErr = new StringWriter();
        assertThat(bg(new StringWriter(), loadErr, with("load", "--store", "postgres", "-p", url, "--replace")))
                .as(loadErr.toString())
                .isZero();
        int n = 3;
        List<Process> runs = new ArrayList<>();
        try (Connection lock = pg.getPostgresDatabase().getConnection()) {
            lock.setAutoCommit(false);
            try (Statement st = lock.createStatement()) {
                st.executeQuery("SELECT value FROM bg_meta WHERE \"key\" = 'state' FOR UPDATE")
                        .close();
            }
            for (int i = 0; i < n; i++) {
                List<String> cmd = new ArrayList<>(List.of(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "--enable-native-access=ALL-UNNAMED",
                        "-Xmx512m",
                        "-Dbg.state.dir=" + dir.resolve("state"),
                        "-cp",
                        System.getProperty("java.class.path"),
                        "org.bgbench.cli.Bg"));
                cmd.addAll(List.of(with(
                        "run",
                        "--store",
                        "postgres",
                        "-p",
                        url,
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
                        dir.resolve("same-" + i + ".json").toString())));
                runs.add(new ProcessBuilder(cmd)
                        .directory(dir.toFile())
                        .redirectOutput(dir.resolve("same-" + i + ".out").toFile())
                        .redirectError(dir.resolve("same-" + i + ".err").toFile())
                        .start());
            }
            for (int i = 0; i < n; i++) {
                Path err = dir.resolve("same-" + i + ".err");
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
                while (runs.get(i).isAlive()
                        && System.nanoTime() < deadline
                        && !Files.readString(err).contains("bg: running")) {
                    Thread.sleep(20);
                }
                assertThat(Files.readString(err))
                        .as("run %d checked the store", i)
                        .contains("bg: running");
            }
            lock.rollback();
        }
        int ran = 0;
        for (int i = 0; i < n; i++) {
            assertThat(runs.get(i).waitFor(120, TimeUnit.SECONDS)).isTrue();
            String err = Files.readString(dir.resolve("same-" + i + ".err"));
            String both = "exit " + runs.get(i).exitValue() + "\n" + err;
            if (runs.get(i).exitValue() == 0) {
                ran++;
            } else {
                assertThat(runs.get(i).exitValue()).as(both).isEqualTo(Bg.FAILED);
                assertThat(err.lines().filter(l -> l.startsWith("bg: error:")).toList())
                        .as(both)
                        .hasSize(1)
                        .allMatch(l -> l.startsWith("bg: error: a run on this store has not ended ("));
                assertThat(err).as(both).doesNotContain("Exception");
                assertThat(dir.resolve("same-" + i + ".json")).doesNotExist();
            }
        }
        assertThat(ran).as("runs that started").isOne();
        try (Connection c = pg.getPostgresDatabase().getConnection();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT value FROM bg_meta WHERE \"key\" = 'state'")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getString(1)).as("the one run sealed its state").startsWith("state:");
        }
    }
}
