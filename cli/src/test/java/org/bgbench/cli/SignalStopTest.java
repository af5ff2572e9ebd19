package org.bgbench.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.bgbench.measurement.report.ResultJson;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Ctrl-C and SIGTERM on a real {@code bg run} process: it stops within seconds, exits 130 or 143, and leaves the
 * result, BG's expected state and the logs, so the next run starts from the right state and sees no unpredictable read.
 */
@Tag("server")
class SignalStopTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private String[] graph;

    @BeforeEach
    void load() {
        graph = new String[] {
            "-p",
            "usercount=500",
            "-p",
            "friendcountperuser=10",
            "-p",
            "resourcecountperuser=2",
            "-p",
            "confperc=0.7",
            "-p",
            "sqlite.file=" + dir.resolve("db.sqlite")
        };
        System.setProperty("bg.state.dir", dir.resolve("state").toString());
        assertThat(inProcess("load", "--store", "sqlite")).isZero();
    }

    private int inProcess(String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of(graph));
        return Bg.run(
                new PrintWriter(new StringWriter(), true),
                new PrintWriter(new StringWriter(), true),
                all.toArray(String[]::new));
    }

    /**
     * {@code bg run} in its own JVM, with this test's classpath and state directory. A process started in the
     * background of a non-interactive shell (a CI script's {@code &}) ignores SIGINT, and so does everything it
     * starts; the JVM then keeps ignoring it, as it should for a user's background job. So the child gets SIGINT's
     * default back through {@code env --default-signal} when this JVM ignores it, as Ctrl-C in a terminal would
     * find it.
     */
    private Process start(Path out) throws IOException {
        List<String> cmd = new ArrayList<>();
        if (ignoresSigint()) {
            cmd.addAll(List.of("env", "--default-signal=INT"));
        }
        cmd.addAll(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED",
                "-Dbg.state.dir=" + dir.resolve("state"),
                "-cp",
                System.getProperty("java.class.path"),
                "org.bgbench.cli.Bg",
                "run",
                "--store",
                "sqlite",
                "--workload",
                "high",
                "--threads",
                "4",
                "--duration",
                "60s",
                "--warmup",
                "0",
                "--out",
                out.toString()));
        cmd.addAll(List.of(graph));
        return new ProcessBuilder(cmd)
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("run.log").toFile())
                .start();
    }

    /** Whether this process ignores SIGINT (bit 2 of the SigIgn mask in /proc/self/status). */
    static boolean ignoresSigint() throws IOException {
        Path status = Path.of("/proc/self/status");
        if (!Files.exists(status)) {
            return false;
        }
        for (String line : Files.readAllLines(status)) {
            if (line.startsWith("SigIgn:")) {
                return (Long.parseUnsignedLong(line.substring(7).trim(), 16) & (1L << (2 - 1))) != 0;
            }
        }
        return false;
    }

    /** Waits until the run prints its first second of measurements. */
    private void awaitRunning(Process p) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline && p.isAlive()) {
            if (Files.exists(dir.resolve("run.log"))
                    && Files.readString(dir.resolve("run.log")).contains("act/s")) {
                Thread.sleep(2000); // a few seconds of writes
                return;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("the run did not start: " + Files.readString(dir.resolve("run.log")));
    }

    private static void signal(Process p, String sig) throws Exception {
        assertThat(new ProcessBuilder("kill", "-" + sig, Long.toString(p.pid()))
                        .start()
                        .waitFor())
                .isZero();
    }

    /** The JVM's thread dump through jcmd, or why there is none. */
    private static String threadDump(Process p) {
        try {
            Process j = new ProcessBuilder(
                            Path.of(System.getProperty("java.home"), "bin", "jcmd")
                                    .toString(),
                            Long.toString(p.pid()),
                            "Thread.print")
                    .redirectErrorStream(true)
                    .start();
            String out = new String(j.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            return j.waitFor(30, TimeUnit.SECONDS) ? out : out + "(jcmd did not finish)";
        } catch (IOException | InterruptedException e) {
            return "(no thread dump: " + e + ")";
        }
    }

    private void stopsCleanly(String sig, int exit) throws Exception {
        Path out = dir.resolve(sig + ".json");
        Process p = start(out);
        try {
            awaitRunning(p);
            long t0 = System.nanoTime();
            signal(p, sig);
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                // Say why: where its threads are, and what it printed.
                String dump = threadDump(p);
                throw new AssertionError("bg did not stop within 30 s of SIG" + sig + "; its threads:\n" + dump
                        + "\nits output:\n" + Files.readString(dir.resolve("run.log")));
            }
            String log = Files.readString(dir.resolve("run.log"));
            assertThat(p.exitValue()).as(log).isEqualTo(exit);
            assertThat(TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - t0)).isLessThan(30);
            assertThat(log).doesNotContain("Exception").contains("writing what was measured");
        } finally {
            p.destroyForcibly().waitFor();
        }
        JsonNode r = JSON.readTree(out.toFile());
        assertThat(r.at("/config/completed").asBoolean(true)).isFalse();
        assertThat(r.at("/config/abort_reason").asText()).containsAnyOf("interrupted", "SIGTERM");
        assertThat(r.at("/total/count").asLong()).isPositive();
        assertThat(r.at("/bottleneck_warnings").toString()).contains("validation was skipped");
        assertThat(r.at("/duration_s").asDouble()).isLessThan(50);
        // The logs and BG's expected state are beside the result, so bg validate can check the run.
        Path logs = dir.resolve(sig).resolve("logs");
        try (Stream<Path> files = Files.list(logs)) {
            assertThat(files.count()).isPositive();
        }
        assertThat(dir.resolve(sig).resolve("expected.state")).isRegularFile();
        assertThat(Bg.run(
                        new PrintWriter(new StringWriter(), true),
                        new PrintWriter(new StringWriter(), true),
                        "validate",
                        out.toString()))
                .isZero();
        assertThat(ResultJson.read(out).unpredictable().unpredictableReads()).isZero();
        // The state BG saved is the store's: the next run sees no unpredictable read and no error.
        Path again = dir.resolve(sig + "-again.json");
        assertThat(inProcess(
                        "run",
                        "--store",
                        "sqlite",
                        "--workload",
                        "high",
                        "--threads",
                        "4",
                        "--duration",
                        "2s",
                        "--quiet",
                        "--out",
                        again.toString()))
                .isZero();
        assertThat(ResultJson.read(again).unpredictable().unpredictableReads()).isZero();
        assertThat(ResultJson.read(again).total().errors()).isZero();
    }

    @Test
    void ctrlCStopsARunCleanlyWithExitCode130() throws Exception {
        stopsCleanly("INT", 130);
    }

    @Test
    void sigtermStopsARunCleanlyWithExitCode143() throws Exception {
        stopsCleanly("TERM", 143);
    }
}
