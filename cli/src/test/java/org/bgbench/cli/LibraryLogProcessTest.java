package org.bgbench.cli;

import static org.assertj.core.api.Assertions.assertThat;

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
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a user sees on stderr when a library logs, in a real bg process: PostgreSQL's backends killed (the server
 * terminates every connection and restarts) during a {@code bg run}, and the Cassandra driver failing to connect.
 * Each event is a line or two, without a stack trace or an exception class name.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Tag("server")
class LibraryLogProcessTest {
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
    private static final Pattern A_SECOND = Pattern.compile("(?m)^\\s+\\d+s\\s.*act/s");
    private static final Pattern STACK_FRAME = Pattern.compile("(?m)^\\s+at |^Caused by|\\.\\.\\. \\d+ more");
    private static final Pattern EXCEPTION_CLASS =
            Pattern.compile("\\b[a-z]+(\\.[a-z0-9]+)+\\.[A-Z]\\w*(Exception|Error)\\b");
    private static final Pattern ANY_EXCEPTION_NAME = Pattern.compile("\\b[A-Z]\\w*(Exception|Error)\\b");
    /** BG's per-second progress lines, its first line and its own error lines (not library logging). */
    private static final Pattern BG_OWN = Pattern.compile("^\\s+\\d+s\\s.*|^bg: (error:|running) .*|^\\s*$");

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
        System.setProperty("bg.state.dir", dir.resolve("state").toString());
        List<String> load = new ArrayList<>(List.of("load", "--store", "postgres", "-p", url, "--replace"));
        load.addAll(List.of(GRAPH));
        assertThat(Bg.run(
                        new PrintWriter(new StringWriter(), true),
                        new PrintWriter(err, true),
                        load.toArray(String[]::new)))
                .as(err.toString())
                .isZero();
    }

    @AfterAll
    void stop() throws Exception {
        if (pg != null) {
            pg.close();
        }
    }

    /** bg in a child JVM, as the launcher runs it (Bg.main), its stdout and stderr into {@code log}. */
    private static Process bg(Path log, String... args) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = new ArrayList<>(List.of(
                java,
                "-Xmx512m",
                "--enable-native-access=ALL-UNNAMED",
                "-Dbg.state.dir=" + dir.resolve("state"),
                "-cp",
                System.getProperty("java.class.path"),
                Bg.class.getName()));
        if (Runtime.version().feature() >= 23) {
            // As the bg launcher: the HBase client's sun.misc.Unsafe use is allowed quietly.
            cmd.add(cmd.size() - 1, "--sun-misc-unsafe-memory-access=allow");
        }
        cmd.addAll(List.of(args));
        return new ProcessBuilder(cmd)
                .redirectOutput(dir.resolve(log.getFileName() + ".out").toFile())
                .redirectError(log.toFile())
                .start();
    }

    private List<Long> clientBackends() throws Exception {
        List<Long> pids = new ArrayList<>();
        try (Connection c = pg.getPostgresDatabase().getConnection();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT pid FROM pg_stat_activity WHERE backend_type = 'client backend'"
                        + " AND pid <> pg_backend_pid()")) {
            while (rs.next()) {
                pids.add(rs.getLong(1));
            }
        }
        return pids;
    }

    private static void assertOneLinePerEvent(String stderr, int atMost) {
        assertThat(stderr).as("no stack trace").doesNotContainPattern(STACK_FRAME);
        assertThat(stderr).as("no exception class name").doesNotContainPattern(EXCEPTION_CLASS);
        List<String> library =
                stderr.lines().filter(l -> !BG_OWN.matcher(l).matches()).toList();
        assertThat(library).as(stderr).hasSizeBetween(1, atMost).allMatch(l -> l.startsWith("bg: "));
    }

    @Test
    void killedBackendsDuringARunAreAFewLinesWithoutStackTraces() throws Exception {
        Path log = dir.resolve("kill.err");
        List<String> args = new ArrayList<>(List.of(
                "run",
                "--store",
                "postgres",
                "-p",
                url,
                "--workload",
                "high",
                "--threads",
                "8",
                "--duration",
                "8s",
                "--warmup",
                "0s",
                "-p",
                "validation=false",
                "--out",
                dir.resolve("kill.json").toString()));
        args.addAll(List.of(GRAPH));
        Process p = bg(log, args.toArray(String[]::new));
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (!A_SECOND.matcher(Files.readString(log)).find()) {
                assertThat(p.isAlive()).as(Files.readString(log)).isTrue();
                assertThat(System.nanoTime())
                        .as("the run reports a measured second")
                        .isLessThan(deadline);
                Thread.sleep(50);
            }
            // SIGKILL on the client backends: PostgreSQL ends all its connections, recovers and restarts.
            List<Long> backends = clientBackends();
            assertThat(backends).as("bg's pooled connections").hasSizeGreaterThanOrEqualTo(4);
            List<String> kill = new ArrayList<>(List.of("kill", "-KILL"));
            backends.forEach(b -> kill.add(Long.toString(b)));
            // Backends ended by the server after the first was killed may be gone: kill's status is not checked.
            new ProcessBuilder(kill)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .start()
                    .waitFor();
            assertThat(p.waitFor(90, TimeUnit.SECONDS)).isTrue();
        } finally {
            p.destroyForcibly();
        }
        String stderr = Files.readString(log);
        assertThat(p.exitValue()).as(stderr).isIn(0, Bg.FAILED);
        assertThat(stderr).contains("bg: connection pool: ");
        assertOneLinePerEvent(stderr, 6);
    }

    @Test
    void theCassandraDriverFailingToConnectIsOneLine() throws Exception {
        Path log = dir.resolve("cassandra.err");
        // Port 1 on loopback: nothing listens, the driver's connection is refused at once.
        Process p = bg(
                log,
                "load",
                "--store",
                "cassandra",
                "-p",
                "cassandra.contact-points=127.0.0.1:1",
                "-p",
                "usercount=100",
                "-p",
                "friendcountperuser=4",
                "-p",
                "resourcecountperuser=2");
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        String stderr = Files.readString(log);
        assertThat(p.exitValue()).as(stderr).isEqualTo(Bg.FAILED);
        assertThat(stderr).contains("bg: Cassandra driver: [s0] Error connecting to Node(");
        assertOneLinePerEvent(stderr, 2);
        // BG's own line says why in words too ("connection refused", "the connection was closed").
        assertThat(stderr)
                .contains("bg: error: cannot connect to Cassandra at 127.0.0.1:1 (cassandra.contact-points): ")
                .as("no exception class name, not even a simple one")
                .doesNotContainPattern(ANY_EXCEPTION_NAME);
    }
}
