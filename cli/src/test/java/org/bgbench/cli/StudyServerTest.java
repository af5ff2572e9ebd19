package org.bgbench.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.bgbench.runner.Interrupts;
import org.bgbench.store.conformance.servers.ServerScripts;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A study whose store declares {@code server: mariadb}: BG starts a real MariaDB server through scripts/mariadb.sh
 * under the group's data directory, measures the points on it and stops it, also when a SIGINT stops the study
 * midway (no server is left, and a resume completes the study); a missing server is refused before anything runs,
 * and a user's -p keys mean BG starts none.
 */
@Tag("server")
class StudyServerTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @BeforeEach
    void stateDir() {
        System.setProperty("bg.state.dir", dir.resolve("state").toString());
    }

    @AfterEach
    void forget() {
        Interrupts.reset();
    }

    private Path study(String mixes) throws IOException {
        Path file = dir.resolve("maria-study.yaml");
        Files.writeString(file, """
                name: maria-study
                title: A tiny study on a MariaDB server BG starts
                source: {paper: the tests, where: figure 0, finding: writes lower throughput}
                varies: [mix, T]
                stores:
                  - store: mariadb
                    server: mariadb
                    settings: {mariadb.timeout: 30s}
                mixes: %s
                scales:
                  tiny:
                    graph: {usercount: 100, friendcountperuser: 6, resourcecountperuser: 2}
                    threads: [1, 2]
                    duration: 1s
                  small: {graph: {usercount: 1000}, threads: [1, 2], duration: 5s}
                  paper: {graph: {usercount: 10000}, threads: [1, 2], duration: 60s}
                measures: [throughput]
                figures:
                  - {id: tp, title: Throughput, x: {key: threads}, y: {key: throughput}, series_by: [store, mix]}
                """.formatted(mixes));
        return file;
    }

    private static void requireMariadb() {
        ServerScripts.requireOrSkip(
                org.bgbench.study.ServerKind.MARIADB.missing(Map.of()).isEmpty(),
                "mariadbd is not installed (Debian package mariadb-server; scripts/test-deps.sh installs it)");
    }

    /** The pids BG recorded for the group's server. */
    private static List<Long> pids(Path out) throws IOException {
        Path f = out.resolve("data/mariadb/server.pids");
        assertThat(f).isRegularFile();
        List<Long> p = ServerScripts.pids(Files.readString(f));
        assertThat(p).isNotEmpty();
        return p;
    }

    private static void assertGone(List<Long> pids) {
        for (long p : pids) {
            assertThat(ProcessHandle.of(p).map(ProcessHandle::isAlive).orElse(false))
                    .as("server pid " + p + " still runs")
                    .isFalse();
        }
    }

    private static List<String> statuses(Path out) throws IOException {
        List<String> s = new ArrayList<>();
        for (JsonNode p : JSON.readTree(out.resolve("study.json").toFile()).path("points")) {
            s.add(p.path("key").asText() + " " + p.path("status").asText());
        }
        return s;
    }

    @Test
    void bgStartsTheServerMeasuresEveryPointAndStopsIt() throws Exception {
        requireMariadb();
        Path out = dir.resolve("out");
        StringWriter err = new StringWriter();
        int rc = Bg.run(
                new PrintWriter(new StringWriter(), true),
                new PrintWriter(err, true),
                "study",
                "run",
                study("[vp, high]").toString(),
                "--out",
                out.toString());
        assertThat(rc).as(err.toString()).isZero();
        assertThat(statuses(out))
                .containsExactly(
                        "mariadb/vp/T=1/r1 done",
                        "mariadb/vp/T=2/r1 done",
                        "mariadb/high/T=1/r1 done",
                        "mariadb/high/T=2/r1 done");
        assertThat(err.toString()).contains("bg: study: starting mariadb in " + out.resolve("data/mariadb/server"));
        assertThat(out.resolve("data/mariadb/server/data")).isDirectory();
        assertGone(pids(out));
    }

    @Test
    void aSigintStopsTheStudyAndItsServerAndAResumeCompletesIt() throws Exception {
        requireMariadb();
        Path file = study("[vp, high, low]");
        Path out = dir.resolve("out");
        Path log = dir.resolve("study.log");
        Process p = StudyProcess.start(file, out, dir.resolve("state"), log);
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
            while (p.isAlive()
                    && System.nanoTime() < deadline
                    && (!Files.exists(out.resolve("study.json"))
                            || statuses(out).stream().noneMatch(s -> s.endsWith(" done")))) {
                Thread.sleep(100);
            }
            assertThat(p.isAlive()).as(Files.readString(log)).isTrue();
            assertThat(StudyProcess.interrupt(p)).isTrue();
            assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        } finally {
            p.destroyForcibly().waitFor();
        }
        assertThat(p.exitValue()).as(Files.readString(log)).isEqualTo(130);
        assertGone(pids(out));
        assertThat(statuses(out)).anyMatch(s -> s.endsWith(" done"));

        StringWriter err = new StringWriter();
        int rc = Bg.run(
                new PrintWriter(new StringWriter(), true),
                new PrintWriter(err, true),
                "study",
                "run",
                file.toString(),
                "--resume",
                out.toString());
        assertThat(rc).as(err.toString()).isZero();
        assertThat(statuses(out)).hasSize(6).allMatch(s -> s.endsWith(" done"));
        assertGone(pids(out));
    }

    @Test
    void aServerThatDiesFailsTheGroupsOtherPoints() throws Exception {
        requireMariadb();
        Path file = study("[vp, high, low]");
        Path out = dir.resolve("out");
        StringWriter err = new StringWriter();
        int[] rc = {-1};
        Thread run = new Thread(() -> rc[0] = Bg.run(
                new PrintWriter(new StringWriter(), true),
                new PrintWriter(err, true),
                "study",
                "run",
                file.toString(),
                "--out",
                out.toString()));
        run.start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
        while (run.isAlive()
                && System.nanoTime() < deadline
                && (!Files.exists(out.resolve("study.json"))
                        || statuses(out).stream().noneMatch(s -> s.endsWith(" done")))) {
            Thread.sleep(50);
        }
        List<Long> pids = pids(out);
        pids.forEach(p -> ProcessHandle.of(p).ifPresent(ProcessHandle::destroyForcibly));
        run.join(TimeUnit.SECONDS.toMillis(180));
        assertThat(run.isAlive()).isFalse();
        assertThat(rc[0]).as(err.toString()).isEqualTo(Bg.FAILED);
        assertThat(err.toString()).contains("failed (the server mariadb no longer runs (its log: ");
        assertThat(statuses(out)).anyMatch(s -> s.endsWith(" failed"));
        assertGone(pids);
    }

    @Test
    void theUsersKeysMeanBgStartsNoServer() throws Exception {
        Path out = dir.resolve("out");
        StringWriter err = new StringWriter();
        int rc = Bg.run(
                new PrintWriter(new StringWriter(), true),
                new PrintWriter(err, true),
                "study",
                "run",
                study("[vp]").toString(),
                "--store",
                "mariadb",
                "-p",
                "mariadb.url=jdbc:mariadb://127.0.0.1:1/bg",
                "--out",
                out.toString());
        assertThat(rc).as(err.toString()).isEqualTo(Bg.FAILED);
        assertThat(err.toString()).contains("bg: study: mariadb: your -p keys are given, so BG does not start mariadb");
        assertThat(out.resolve("data/mariadb/server.pids")).doesNotExist();
        assertThat(statuses(out)).allMatch(s -> s.endsWith(" failed"));
    }

    @Test
    void listAndShowSayWhichServersBgStartsAndWhatTheyNeed() {
        requireMariadb();
        StringWriter show = new StringWriter();
        assertThat(Bg.run(
                        new PrintWriter(show, true),
                        new PrintWriter(new StringWriter(), true),
                        "study",
                        "show",
                        "dissertation-fig-3.3"))
                .isZero();
        assertThat(show.toString().lines())
                .contains(
                        "store:      sqlite [BG starts it]",
                        "store:      mariadb [BG starts mariadb via scripts/mariadb.sh; installed here; or your own"
                                + " with --store mariadb -p ...]")
                .anyMatch(l -> l.startsWith(
                        "store:      mongodb [BG starts ferretdb --backend sqlite via" + " scripts/ferretdb.sh; "));
        StringWriter list = new StringWriter();
        assertThat(Bg.run(new PrintWriter(list, true), new PrintWriter(new StringWriter(), true), "study", "list"))
                .isZero();
        assertThat(list.toString())
                .contains("hbase-manual (hbase) [BG starts hbase via scripts/hbase.sh; ")
                .contains(
                        "cassandra-3nodes-quorum (cassandra) [BG starts cassandra --nodes 3 via scripts/cassandra.sh; ")
                .contains("replica-2s (postgres) [BG starts postgres-replica --replicas 1 --delay 2s via"
                        + " scripts/postgres-replica.sh; ");
    }

    @Test
    void userKeysNeedStore() throws Exception {
        StringWriter err = new StringWriter();
        int rc = Bg.run(
                new PrintWriter(new StringWriter(), true),
                new PrintWriter(err, true),
                "study",
                "run",
                study("[vp]").toString(),
                "-p",
                "mariadb.url=x",
                "--out",
                dir.resolve("out").toString());
        assertThat(rc).isEqualTo(Bg.BAD_INPUT);
        assertThat(err.toString().strip())
                .isEqualTo("bg: error: -p: give --store too: -p keys are those of the stores --store names");
        assertThat(dir.resolve("out")).doesNotExist();
    }

    @Test
    void aMissingServerIsRefusedBeforeAnythingRuns() throws Exception {
        Path out = dir.resolve("out");
        List<String> cmd = List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Dbg.state.dir=" + dir.resolve("state"),
                "-cp",
                System.getProperty("java.class.path"),
                "org.bgbench.cli.Bg",
                "study",
                "run",
                study("[vp]").toString(),
                "--out",
                out.toString());
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        // MARIADB_BIN names where mariadbd is (as scripts/mariadb.sh reads it): an empty directory here.
        Files.createDirectories(dir.resolve("empty"));
        pb.environment().putAll(Map.of("MARIADB_BIN", dir.resolve("empty").toString()));
        Process p = pb.start();
        String output = new String(p.getInputStream().readAllBytes());
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(output).isEqualTo(Bg.BAD_INPUT);
        assertThat(output.strip().lines().toList())
                .containsExactly("bg: error: maria-study: store mariadb needs the server mariadb, which BG starts, but"
                        + " mariadbd (Debian's MariaDB server) is not installed; install it: sudo apt-get install"
                        + " --no-install-recommends mariadb-server mariadb-client; or run your own and give --store"
                        + " mariadb -p KEY=VALUE ...");
        assertThat(out).doesNotExist();
    }
}
