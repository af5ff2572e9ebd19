package org.bgbench.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
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
 * {@code bg run} against a PostgreSQL server that is killed ({@code kill -9} on the postmaster and every backend) after
 * the run's second second and started again on the same data directory after its fifth: the seconds in which the store
 * failed every call make the run incomplete (as seconds in which it answered nothing would), the result and the
 * summary say which seconds and why in words, the series shows their errors, the run exits 1, the store stays marked
 * as written by a run that did not end (the crash may have lost acknowledged writes), and the store's CPU counts the
 * restarted server's processes.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Tag("server")
class KilledPostgresTest {
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
    /** A measured second's progress line (labelled by its elapsed time, so counted rather than matched by label). */
    private static final Pattern SECOND = Pattern.compile("(?m)^\\s+\\d+s\\s.*act/s");

    @TempDir
    static Path dir;

    private EmbeddedPostgres pg;
    private String url;
    /** The server started again by the test, stopped with the rest at the end. */
    private Process restarted;

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
        // pg_ctl stop on the data directory stops whichever postmaster holds it, the restarted one too.
        if (pg != null) {
            pg.close();
        }
        if (restarted != null) {
            restarted.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
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

    /** The command line a process was started with, from /proc. */
    private static List<String> commandLine(long pid) throws Exception {
        String raw = Files.readString(Path.of("/proc/" + pid + "/cmdline"), StandardCharsets.UTF_8);
        return Arrays.asList(raw.split("\0"));
    }

    /** Waits until {@code seconds} measured seconds have been reported. */
    private static void waitFor(int seconds, StringWriter err) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (SECOND.matcher(err.toString()).results().count() < seconds && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
    }

    @Test
    void aServerKilledAndRestartedMidRunMakesItIncompleteNamingTheRefusedSecondsAndItsNewProcessesCount()
            throws Exception {
        long postmaster = postmaster();
        List<String> serverCommand = new ArrayList<>();
        // The embedded server runs in a user namespace of its own when started as root (PostgreSQL refuses root).
        if ("root".equals(System.getProperty("user.name"))) {
            serverCommand.addAll(List.of("unshare", "-U"));
        }
        serverCommand.addAll(commandLine(postmaster));
        Path result = dir.resolve("killed.json");
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        List<Long> killed = new CopyOnWriteArrayList<>();
        Thread killer = Thread.ofPlatform().daemon().start(() -> {
            try {
                waitFor(2, err);
                List<String> kill = new ArrayList<>(List.of("kill", "-KILL", Long.toString(postmaster)));
                ProcessHandle.of(postmaster)
                        .ifPresent(p -> p.descendants().forEach(d -> {
                            kill.add(Long.toString(d.pid()));
                            killed.add(d.pid());
                        }));
                killed.add(postmaster);
                new ProcessBuilder(kill).redirectErrorStream(true).start().waitFor(10, TimeUnit.SECONDS);
                waitFor(5, err);
                restarted = new ProcessBuilder(serverCommand)
                        .redirectErrorStream(true)
                        .redirectOutput(dir.resolve("restarted.log").toFile())
                        .start();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        int exit = bg(
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
                        "4",
                        "--duration",
                        "10s",
                        "--warmup",
                        "0s",
                        "-p",
                        "validation=false",
                        "--out",
                        result.toString()));
        killer.join(TimeUnit.SECONDS.toMillis(30));
        assertThat(killed).as("the server was killed").contains(postmaster);
        assertThat(restarted).as("and started again").isNotNull();

        assertThat(exit).as("%s\n%s", out, err).isEqualTo(Bg.FAILED);
        JsonNode r = JSON.readTree(result.toFile());
        JsonNode config = r.get("config");
        assertThat(config.get("completed").asBoolean()).isFalse();
        List<Integer> refused = new ArrayList<>();
        config.get("refused_seconds").forEach(s -> refused.add(s.asInt()));
        assertThat(refused)
                .as("killed after second 2, started after second 5")
                .isNotEmpty()
                .allMatch(s -> s >= 3 && s <= 10);
        String reason = config.get("incomplete_reason").asText();
        assertThat(reason)
                .as(reason)
                .containsPattern(
                        "^The store refused every call (from second \\d+ to \\d+" + "|in seconds? [0-9–, ]+): ")
                .contains("connection refused")
                .endsWith(". The run does not meet " + "the SLA.");
        assertThat(err.toString()).contains("bg: error: the run is incomplete: The store refused every call");
        assertThat(out.toString())
                .contains("Incomplete  The store refused every call")
                .containsPattern("actions failed \\(.*\\), and at least 10 % of the calls in \\d+ of \\d+ seconds: "
                        + ".*\\(100 %\\)");
        int lastRefused = refused.get(refused.size() - 1);
        boolean recovered = false;
        for (JsonNode point : r.get("series")) {
            int second = point.get("second").asInt();
            if (refused.contains(second)) {
                assertThat(point.get("actions").asLong())
                        .as("second %d", second)
                        .isZero();
                assertThat(point.get("errors").asLong()).as("second %d", second).isPositive();
                assertThat(point.get("error_pct").asDouble())
                        .as("second %d", second)
                        .isEqualTo(100.0);
            }
            recovered |= second > lastRefused && point.get("actions").asLong() > 0;
        }
        assertThat(recovered)
                .as("actions completed again once the server was back")
                .isTrue();

        // The store's CPU: the restarted server's processes, found once the old ones had gone.
        JsonNode cpu = r.get("cpu");
        assertThat(cpu.get("store_processes").asInt()).as("%s", cpu).isPositive();
        List<Long> pids = new ArrayList<>();
        cpu.get("store_pids").forEach(p -> pids.add(p.asLong()));
        assertThat(pids).containsExactly(restarted.pid());
        assertThat(out.toString()).containsPattern("store \\d+\\.\\d\\d cores \\([1-9]\\d* processes\\)");

        // Writes in flight when the server died, or acknowledged just before (synchronous_commit is off), may or
        // may not be in the store: it stays marked as written by a run that did not end.
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
}
