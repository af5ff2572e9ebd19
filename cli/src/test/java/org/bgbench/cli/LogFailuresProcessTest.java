package org.bgbench.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Real faults on a {@code bg run} in a child JVM: killed with SIGKILL (the logs must reach to within about a second of
 * the kill, and {@code bg validate} must call them incomplete, not unpredictable), and a full disk (the result must
 * still be written, validation incomplete with the reason, the run failing, no store error counted).
 */
@Tag("server")
class LogFailuresProcessTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private Process bgRun(Path out, Path log, String... args) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = new ArrayList<>(List.of(
                java,
                "-Xmx512m",
                "--enable-native-access=ALL-UNNAMED",
                "-Dbg.state.dir=" + dir.resolve("state"),
                "-cp",
                System.getProperty("java.class.path"),
                Bg.class.getName(),
                "run",
                "--store",
                "memory",
                "--workload",
                "high",
                "-p",
                "usercount=300",
                "-p",
                "friendcountperuser=10",
                "-p",
                "resourcecountperuser=2",
                "--warmup",
                "0s",
                "--quiet",
                "--out",
                out.toString()));
        cmd.addAll(List.of(args));
        return new ProcessBuilder(cmd)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
    }

    /** The wall-clock time (ms) of the last record that reached {@code f}, or -1 when it holds none. */
    private static double lastRecordMillis(Path f) throws Exception {
        byte[] b = Files.readAllBytes(f);
        if (b.length < 32 + 34) {
            return -1;
        }
        ByteBuffer bb = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
        long createdMs = bb.getLong(16);
        long createdNs = bb.getLong(24);
        int last = 32 + ((b.length - 32) / 34 - 1) * 34;
        long endNs = bb.getLong(last + 18);
        return createdMs + (endNs - createdNs) / 1e6;
    }

    private static List<Path> logs(Path logs) throws Exception {
        try (Stream<Path> s = Files.list(logs)) {
            return s.filter(p -> p.toString().endsWith(".bglog")).sorted().toList();
        }
    }

    @Test
    void aDiskFilledDuringTheRunStillGetsTheResultAndTheSummary() throws Exception {
        Path mnt = dir.resolve("filled-disk");
        SmallDisk.mount(mnt, "2m");
        try {
            Path out = mnt.resolve("d.json");
            Path reserve = mnt.resolve(".d.json.reserve");
            Process p =
                    bgRun(out, dir.resolve("d.log"), "--threads", "2", "--duration", "3s", "-p", "validation=false");
            // its first second is measured (the interval log opens on it): then another program fills the disk
            while (!Files.exists(mnt.resolve("d.hlog")) && p.isAlive()) {
                Thread.sleep(20);
            }
            assertThat(p.isAlive()).as(Files.readString(dir.resolve("d.log"))).isTrue();
            SmallDisk.fill(mnt.resolve("filler"));
            assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
            String console = Files.readString(dir.resolve("d.log"));
            assertThat(console)
                    .contains("BG run: ")
                    .contains("Result: " + out)
                    .doesNotContain("cannot write the result")
                    .doesNotContain("Exception");
            assertThat(p.exitValue()).as(console).isZero();
            JsonNode r = JSON.readTree(out.toFile());
            assertThat(r.get("partial").asBoolean()).isFalse();
            assertThat(r.get("total").get("count").asLong()).isPositive();
            assertThat(reserve).as("the reserve is given back").doesNotExist();
        } finally {
            SmallDisk.unmount(mnt);
        }
    }

    @Test
    void aDiskFullFromTheStartStillPrintsTheSummaryAndSaysTheResultIsNotWritten() throws Exception {
        Path mnt = dir.resolve("full-disk");
        SmallDisk.mount(mnt, "1m");
        try {
            SmallDisk.fill(mnt.resolve("filler"));
            Path out = mnt.resolve("n.json");
            Process p =
                    bgRun(out, dir.resolve("n.log"), "--threads", "2", "--duration", "2s", "-p", "validation=false");
            assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
            String console = Files.readString(dir.resolve("n.log"));
            assertThat(p.exitValue()).as(console).isEqualTo(Bg.FAILED);
            assertThat(console)
                    .contains("BG run: ")
                    .contains("Result: " + out + " (not written: the summary above " + "is what was measured)")
                    .contains("bg: error: cannot write the result to " + out + ": ")
                    .contains("No space left on device; the summary above is what was measured")
                    .doesNotContain("Exception");
        } finally {
            SmallDisk.unmount(mnt);
        }
    }

    @Test
    void aRunKilledWithSigkillLeavesLogsThatReachItsLastSecondAndValidateCallsThemIncomplete() throws Exception {
        Path out = dir.resolve("k.json");
        Path logs = dir.resolve("k/logs");
        // ~100 requests per second: a 256 KiB buffer would take minutes to fill, so only the flusher writes the files
        Process p =
                bgRun(out, dir.resolve("k.log"), "--threads", "2", "--duration", "120s", "-p", "interarrivaltime=20");
        try {
            long t0 = System.nanoTime();
            while (!Files.isDirectory(logs) || logs(logs).size() < 2) {
                assertThat(p.isAlive())
                        .as(
                                Files.exists(dir.resolve("k.log"))
                                        ? Files.readString(dir.resolve("k.log"))
                                        : "bg run ended")
                        .isTrue();
                assertThat(System.nanoTime() - t0)
                        .as("the run starts within 60 s")
                        .isLessThan(60_000_000_000L);
                Thread.sleep(100);
            }
            Thread.sleep(3_500);
            long killedAt = System.currentTimeMillis();
            p.destroyForcibly(); // SIGKILL
            assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
            assertThat(p.exitValue()).isEqualTo(128 + 9);
            double last = -1;
            for (Path f : logs(logs)) {
                last = Math.max(last, lastRecordMillis(f));
            }
            assertThat(last)
                    .as("records reached the logs without a full buffer")
                    .isPositive();
            // flushed every second: the last record is at most ~1 s (plus scheduling on a busy machine) old
            assertThat(killedAt - last)
                    .as("ms between the last logged record and the kill")
                    .isBetween(-50.0, 2_500.0);
        } finally {
            p.destroyForcibly();
        }
        assertThat(out).doesNotExist();
        assertThat(dir.resolve("k/logs/manifest.txt")).doesNotExist();

        StringWriter o = new StringWriter();
        StringWriter e = new StringWriter();
        int rc = Bg.run(new PrintWriter(o, true), new PrintWriter(e, true), "validate", out.toString());
        assertThat(rc).as(e.toString()).isEqualTo(Bg.FAILED);
        assertThat(o.toString())
                .contains("Validation INCOMPLETE: there is no manifest.txt: the run did not close its " + "logs")
                .contains("manifest.txt: missing")
                .contains("Unpredictable reads: none checked")
                .contains("No result to update");
        assertThat(e.toString()).contains("bg: error: validation incomplete").doesNotContain("Exception");
    }

    @Test
    void aFullDiskStopsLoggingTheResultIsStillWrittenAndNoStoreErrorIsCounted() throws Exception {
        Path mnt = dir.resolve("small-disk");
        boolean mounted = SmallDisk.mount(mnt, "3m");
        try {
            Path out = mnt.resolve("f.json");
            Process p = bgRun(out, dir.resolve("f.log"), "--threads", "4", "--duration", "3s");
            assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
            String console = Files.readString(dir.resolve("f.log"));
            assertThat(p.exitValue()).as(console).isEqualTo(Bg.FAILED);
            assertThat(console)
                    .contains("Validation INCOMPLETE")
                    .contains("No space left on device")
                    .contains("bg: error: validation incomplete");
            JsonNode r = JSON.readTree(out.toFile());
            assertThat(r.get("partial").asBoolean()).isFalse();
            JsonNode u = r.get("unpredictable");
            assertThat(u.get("complete").asBoolean()).isFalse();
            assertThat(u.get("meets_tau").asBoolean()).isFalse();
            assertThat(u.get("reads_checked").asLong()).isZero();
            assertThat(u.get("unpredictable_reads").asLong()).isZero();
            assertThat(u.get("reads_unchecked").asLong()).isPositive();
            assertThat(u.get("incomplete_reason").asText()).contains("No space left on device");
            assertThat(u.get("files").size()).isPositive();
            // the log failure is not the store's: no error counted, none sampled, the run completed
            assertThat(r.get("total").get("errors").asLong()).isZero();
            assertThat(r.get("total").get("count").asLong()).isPositive();
            assertThat(r.get("config").get("error_samples").size()).isZero();
            assertThat(r.get("config").get("completed").asBoolean()).isTrue();
            assertThat(mnt.resolve("f/logs/manifest.txt")).exists();
            assertThat(Files.readString(mnt.resolve("f/logs/manifest.txt")))
                    .contains("clean false")
                    .contains("No space left on device");
        } finally {
            if (mounted) {
                SmallDisk.unmount(mnt);
            }
        }
    }
}
