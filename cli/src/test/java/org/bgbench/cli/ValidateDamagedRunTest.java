package org.bgbench.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.RandomAccessFile;
import java.io.StringWriter;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Comparator;
import java.util.Locale;
import java.util.stream.Stream;
import org.bgbench.measurement.RunResult;
import org.bgbench.measurement.Unpredictable;
import org.bgbench.measurement.report.ResultJson;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code bg validate} on a real run (memory store, in process) whose logs were then damaged: cut mid-record, cut to the
 * header, emptied, deleted, bytes flipped. A correct store must never be convicted on such evidence: the verdict is
 * incomplete, names the file, exits 1, and does not replace the run's complete verdict unless asked to.
 */
@Tag("slow")
class ValidateDamagedRunTest {
    private static final String[] GRAPH = {
        "-p", "usercount=300", "-p", "friendcountperuser=10", "-p", "resourcecountperuser=2"
    };

    @TempDir
    static Path runs;

    @TempDir
    Path dir;

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();
    private Path result;
    private Path logs;

    private int bg(String... args) {
        return Bg.run(new PrintWriter(out, true), new PrintWriter(err, true), args);
    }

    private static String[] with(String[] a, String... b) {
        String[] all = new String[a.length + b.length];
        System.arraycopy(b, 0, all, 0, b.length);
        System.arraycopy(a, 0, all, b.length, a.length);
        return all;
    }

    /** One real run, validated when it ends: its result holds a complete verdict. */
    @BeforeAll
    static void run() {
        System.setProperty("bg.state.dir", runs.resolve("state").toString());
        StringWriter e = new StringWriter();
        int rc = Bg.run(
                new PrintWriter(new StringWriter(), true),
                new PrintWriter(e, true),
                with(
                        GRAPH,
                        "run",
                        "--store",
                        "memory",
                        "-p",
                        "memory.name=cli-damaged",
                        "--workload",
                        "high",
                        "--threads",
                        "4",
                        "--duration",
                        "2s",
                        "--warmup",
                        "0s",
                        "--quiet",
                        "--out",
                        runs.resolve("r.json").toString()));
        assertThat(rc).as(e.toString()).isZero();
    }

    /** A copy of the run for this test to damage. */
    @BeforeEach
    void copy() throws Exception {
        result = dir.resolve("r.json");
        Files.copy(runs.resolve("r.json"), result);
        try (Stream<Path> s = Files.walk(runs.resolve("r"))) {
            for (Path p : s.toList()) {
                Files.copy(
                        p,
                        dir.resolve("r").resolve(runs.resolve("r").relativize(p).toString()));
            }
        }
        logs = dir.resolve("r/logs");
        Unpredictable u = ResultJson.read(result).unpredictable();
        assertThat(u.verdictComplete()).isTrue();
        assertThat(u.readsChecked()).isGreaterThan(10_000);
        assertThat(u.unpredictableReads()).isZero();
    }

    private Unpredictable verdict() throws Exception {
        return ResultJson.read(result).unpredictable();
    }

    /** What every damaged run must show: incomplete, the file named, nothing convicted, exit 1, the result kept. */
    private void assertIncomplete(String file) throws Exception {
        String before = Files.readString(result);
        assertThat(bg("validate", result.toString())).as(err.toString()).isEqualTo(Bg.FAILED);
        String o = out.toString();
        assertThat(o)
                .contains("Validation INCOMPLETE")
                .contains(file)
                .contains("NOT met (validation incomplete)")
                .doesNotContainPattern("Unpredictable reads: [1-9]")
                .contains("Not updated: " + result + " keeps the complete verdict it holds");
        assertThat(err.toString())
                .contains("bg: error: validation incomplete: ")
                .doesNotContain("Exception");
        assertThat(Files.readString(result)).as("the good verdict stays").isEqualTo(before);

        out.getBuffer().setLength(0);
        assertThat(bg("validate", result.toString(), "--overwrite")).isEqualTo(Bg.FAILED);
        assertThat(out.toString()).contains("Replacing the complete verdict").contains("Updated " + result);
        Unpredictable u = verdict();
        assertThat(u.verdictComplete()).isFalse();
        assertThat(u.meetsTau()).isFalse();
        assertThat(u.unpredictableReads()).isZero();
        assertThat(u.readsUnchecked()).isPositive();
        assertThat(u.incompleteReason()).contains(file);
        assertThat(u.files()).anySatisfy(f -> assertThat(f.file()).isEqualTo(file));
        assertThat(ResultJson.read(result).bottleneckWarnings()).anyMatch(w -> w.startsWith("validation incomplete: "));
    }

    @ParameterizedTest
    @ValueSource(strings = {"mid-record", "header", "empty"})
    void aLogCutShortOrEmptied(String how) throws Exception {
        Path f = logs.resolve("thread-00001.bglog");
        long size = Files.size(f);
        long to = switch (how) {
            case "mid-record" -> size / 2 - 17;
            case "header" -> 32;
            default -> 0;
        };
        try (FileChannel ch = FileChannel.open(f, StandardOpenOption.WRITE)) {
            ch.truncate(to);
        }
        assertIncomplete("thread-00001.bglog");
        assertThat(verdict().readsChecked())
                .as("its writes are lost, so no read can be checked")
                .isZero();
        assertThat(verdict().files())
                .singleElement()
                .satisfies(p -> assertThat(p.offset()).isEqualTo(to));
    }

    @Test
    void aLogDeleted() throws Exception {
        Files.delete(logs.resolve("thread-00002.bglog"));
        assertIncomplete("thread-00002.bglog");
        assertThat(verdict().readsChecked()).isZero();
        assertThat(verdict().files())
                .singleElement()
                .extracting(Unpredictable.FileProblem::problem)
                .asString()
                .startsWith("missing; the run logged");
    }

    @Test
    void flippedBytesAreNamedByFileAndOffsetWithoutAnExceptionClass() throws Exception {
        Path f = logs.resolve("thread-00003.bglog");
        long at = Files.size(f) / 3;
        try (RandomAccessFile raf = new RandomAccessFile(f.toFile(), "rw")) {
            raf.seek(at);
            raf.write(new byte[] {(byte) 0xFF, 0x00, (byte) 0xA5, 0x5A, (byte) 0xFF, (byte) 0xFF});
        }
        assertIncomplete("thread-00003.bglog");
        Unpredictable.FileProblem p = verdict().files().get(0);
        long blockStart = at / 65_536 * 65_536;
        assertThat(p.offset()).isBetween(blockStart - 33, at);
        assertThat(p.problem())
                .contains(String.format(Locale.ROOT, "bytes %,d to", blockStart))
                .contains("do not match the checksum the run recorded");
        assertThat(out.toString() + err).doesNotContain("Exception").doesNotContain("\tat ");
    }

    @Test
    void theManifestDeleted() throws Exception {
        Files.delete(logs.resolve("manifest.txt"));
        assertIncomplete("manifest.txt");
    }

    @Test
    void intactLogsValidateCompletelyAndExitZero() throws Exception {
        assertThat(bg("validate", dir.resolve("r").toString()))
                .as(err.toString())
                .isZero();
        assertThat(out.toString()).contains("Unpredictable reads: 0 of").contains("Updated " + result);
        assertThat(verdict().verdictComplete()).isTrue();
        assertThat(verdict().files()).isEmpty();
    }

    @Test
    void aCorruptResultIsNamedWithLineAndColumnByValidateAndCompare() throws Exception {
        String json = Files.readString(result);
        // cut inside the third line
        int third = json.indexOf('\n', json.indexOf('\n') + 1) + 5;
        Files.writeString(result, json.substring(0, third));
        assertThat(bg("validate", result.toString())).isEqualTo(Bg.FAILED);
        assertThat(err.toString())
                .contains("the verdict above was not recorded: " + result + " is not valid JSON at " + "line 3, column")
                .doesNotContain("Exception")
                .doesNotContain("Source:");
        out.getBuffer().setLength(0);
        assertThat(bg("compare", dir.toString())).isZero();
        assertThat(out.toString()).contains("(" + result + " is not valid JSON at line 3, column");
        Files.writeString(result, "");
        out.getBuffer().setLength(0);
        assertThat(bg("compare", result.toString())).isZero();
        assertThat(out.toString()).contains("(" + result + " is empty: not a BG result)");
    }

    @Test
    void aRunWithoutLogsSaysWhy() throws Exception {
        Path off = dir.resolve("off.json");
        assertThat(bg(with(
                        GRAPH,
                        "run",
                        "--store",
                        "memory",
                        "-p",
                        "memory.name=cli-nologs",
                        "-p",
                        "validation=false",
                        "--operations",
                        "500",
                        "--quiet",
                        "--out",
                        off.toString())))
                .isZero();
        assertThat(bg("validate", off.toString())).isEqualTo(Bg.BAD_INPUT);
        assertThat(err.toString())
                .contains("there are no validation logs to check")
                .contains("made with validation=false");
        err.getBuffer().setLength(0);
        try (Stream<Path> s = Files.walk(logs)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
        assertThat(bg("validate", result.toString())).isEqualTo(Bg.BAD_INPUT);
        assertThat(err.toString()).contains(logs + " does not exist").contains("keeplogs=false");
        RunResult r = ResultJson.read(result);
        assertThat(r.unpredictable().verdictComplete()).isTrue();
    }
}
