package org.bgbench.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.bgbench.measurement.RunEvidence;
import org.bgbench.measurement.Unpredictable;
import org.bgbench.measurement.report.ResultChecksum;
import org.bgbench.measurement.report.ResultJson;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code bg validate} and {@code bg compare} on two real runs (memory store, in process) of the same graph: evidence of
 * the other run swapped into a run's folder is named, never judged, and leaves the run's complete verdict in place; a
 * figure changed by hand in a result is reported by both commands; a damaged expected state is named with the byte
 * where it stops being readable.
 */
@Tag("slow")
class ValidateEvidenceTest {
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
    private Path run;
    private static String idA;
    private static String idB;

    private int bg(String... args) {
        return Bg.run(new PrintWriter(out, true), new PrintWriter(err, true), args);
    }

    private static String[] with(String[] a, String... b) {
        String[] all = new String[a.length + b.length];
        System.arraycopy(b, 0, all, 0, b.length);
        System.arraycopy(a, 0, all, b.length, a.length);
        return all;
    }

    /** Two real runs of the same graph on two stores, each validated when it ends: a and b. */
    @BeforeAll
    static void runs() throws Exception {
        System.setProperty("bg.state.dir", runs.resolve("state").toString());
        for (String name : new String[] {"a", "b"}) {
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
                            "memory.name=cli-evidence-" + name,
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
                            runs.resolve(name + ".json").toString()));
            assertThat(rc).as(e.toString()).isZero();
        }
        idA = RunEvidence.of(ResultJson.read(runs.resolve("a.json"))).runId();
        idB = RunEvidence.of(ResultJson.read(runs.resolve("b.json"))).runId();
        assertThat(idA).matches("[0-9a-f]{16}").isNotEqualTo(idB);
    }

    /** A copy of run a for this test to tamper with. */
    @BeforeEach
    void copy() throws Exception {
        result = dir.resolve("a.json");
        run = dir.resolve("a");
        Files.copy(runs.resolve("a.json"), result);
        copyTree(runs.resolve("a"), run);
        Unpredictable u = ResultJson.read(result).unpredictable();
        assertThat(u.verdictComplete()).isTrue();
        assertThat(u.unpredictableReads()).isZero();
    }

    private static void copyTree(Path from, Path to) throws Exception {
        try (Stream<Path> s = Files.walk(from)) {
            for (Path p : s.toList()) {
                Files.copy(p, to.resolve(from.relativize(p).toString()), StandardCopyOption.REPLACE_EXISTING);
            }
        }
    }

    private static void delete(Path tree) throws Exception {
        try (Stream<Path> s = Files.walk(tree)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    /** bg validate gives an incomplete verdict naming {@code file}, exits 1 and keeps the complete verdict. */
    private String assertNamedNotJudged(String file) throws Exception {
        String before = Files.readString(result);
        assertThat(bg("validate", result.toString())).as(out + "\n" + err).isEqualTo(Bg.FAILED);
        String o = out.toString();
        assertThat(o)
                .contains("Validation INCOMPLETE")
                .contains(file)
                .doesNotContainPattern("Unpredictable reads: [1-9]")
                .contains("Not updated: " + result + " keeps the complete verdict it holds");
        assertThat(err.toString())
                .contains("bg: error: validation incomplete: ")
                .contains(file)
                .doesNotContain("Exception");
        assertThat(Files.readString(result)).as("the complete verdict stays").isEqualTo(before);
        return err.toString();
    }

    @Test
    void anotherRunsExpectedStateIsNamedNotJudged() throws Exception {
        Files.copy(
                runs.resolve("b/expected.state"), run.resolve("expected.state"), StandardCopyOption.REPLACE_EXISTING);
        assertThat(assertNamedNotJudged("expected.state"))
                .contains(run.resolve("expected.state") + " was written by " + "run " + idB + ", this result is run "
                        + idA);

        out.getBuffer().setLength(0);
        assertThat(bg("validate", result.toString(), "--overwrite")).isEqualTo(Bg.FAILED);
        Unpredictable u = ResultJson.read(result).unpredictable();
        assertThat(u.verdictComplete()).isFalse();
        assertThat(u.unpredictableReads()).isZero();
        assertThat(u.readsChecked()).isZero();
        assertThat(u.files()).anySatisfy(f -> assertThat(f.file()).isEqualTo("expected.state"));
    }

    @Test
    void anotherRunsLogsAreNamedNotJudged() throws Exception {
        delete(run.resolve("logs"));
        Files.createDirectories(run.resolve("logs"));
        copyTree(runs.resolve("b/logs"), run.resolve("logs"));
        assertThat(assertNamedNotJudged("manifest.txt"))
                .contains(run.resolve("logs/manifest.txt") + " was written " + "by run " + idB + ", this result is run "
                        + idA);
    }

    @Test
    void anotherRunsWholeFolderIsNamedNotJudged() throws Exception {
        delete(run);
        Files.createDirectories(run);
        copyTree(runs.resolve("b"), run);
        assertThat(assertNamedNotJudged("manifest.txt")).contains("was written by run " + idB);
    }

    @Test
    void withoutAResultTheLogsAndTheStateMustStillBeOneRun() throws Exception {
        Files.delete(result);
        Files.copy(
                runs.resolve("b/expected.state"), run.resolve("expected.state"), StandardCopyOption.REPLACE_EXISTING);
        assertThat(bg("validate", run.toString())).isEqualTo(Bg.FAILED);
        assertThat(err.toString()).contains("expected.state was written by run " + idB + ", the logs by run " + idA);
    }

    @Test
    void aFigureEditedByHandIsReportedByValidateAndCompare() throws Exception {
        String json = Files.readString(result);
        Matcher m = Pattern.compile("\"throughput\" : ([0-9.]+)").matcher(json);
        assertThat(m.find()).isTrue();
        Files.writeString(result, json.substring(0, m.start(1)) + "99999.5" + json.substring(m.end(1)));
        String edited = Files.readString(result);
        String line =
                result + ": its measured figures do not match the checksum it was written with (edited by " + "hand?)";

        assertThat(bg("validate", result.toString())).isEqualTo(Bg.FAILED);
        assertThat(err.toString()).contains("bg: error: " + line + "; the verdict above was not recorded in it");
        assertThat(Files.readString(result)).as("not given a fresh checksum").isEqualTo(edited);

        out.getBuffer().setLength(0);
        Files.copy(runs.resolve("b.json"), dir.resolve("b.json"));
        assertThat(bg("compare", dir.toString())).isZero();
        assertThat(out.toString())
                .contains("! " + result)
                .contains("(! " + line + ")")
                .doesNotContain("! " + dir.resolve("b.json"));

        err.getBuffer().setLength(0);
        bg("breakeven", result.toString(), dir.resolve("b.json").toString());
        assertThat(err.toString()).contains("bg: warning: " + line).doesNotContain("b.json: its");
    }

    @Test
    void anIntactRunValidatesAndComparesUnmarked() throws Exception {
        assertThat(bg("validate", result.toString())).as(err.toString()).isZero();
        assertThat(out.toString())
                .contains("Unpredictable reads: 0 of")
                .contains("Updated " + result)
                .doesNotContain("note:");
        out.getBuffer().setLength(0);
        assertThat(bg("compare", result.toString())).isZero();
        assertThat(out.toString()).doesNotContain("!");
        assertThat(bg("validate", result.toString()))
                .as("the rewritten result still matches")
                .isZero();
    }

    @Test
    void aResultOfAnOlderBgIsCheckedAsBeforeWithANote() throws Exception {
        ObjectMapper m = new ObjectMapper();
        var tree = (ObjectNode) m.readTree(result.toFile());
        tree.remove("checksum");
        ((ObjectNode) tree.get("config")).remove(List.of("run_id", "evidence"));
        Files.writeString(result, m.writerWithDefaultPrettyPrinter().writeValueAsString(tree));

        assertThat(bg("validate", result.toString())).as(err.toString()).isZero();
        assertThat(out.toString())
                .contains("note: " + result + " records no run id (a BG older than run ids wrote it)")
                .contains("note: " + result + " carries no checksum of its figures")
                .contains("Updated " + result);
        assertThat(ResultChecksum.check(result)).isEqualTo(ResultChecksum.Status.MATCHES);
        out.getBuffer().setLength(0);
        assertThat(bg("compare", result.toString())).isZero();
        assertThat(out.toString()).doesNotContain("!");
    }

    @ParameterizedTest
    @ValueSource(strings = {"cut", "header", "empty", "garbage", "appended"})
    void aDamagedExpectedStateIsNamedWithWhatIsWrong(String how) throws Exception {
        Path f = run.resolve("expected.state");
        long size = Files.size(f);
        assertThat(size).isGreaterThan(200);
        switch (how) {
            case "cut", "header", "empty" -> {
                try (FileChannel ch = FileChannel.open(f, StandardOpenOption.WRITE)) {
                    ch.truncate(how.equals("cut") ? size / 2 : how.equals("header") ? 10 : 0);
                }
            }
            case "garbage" -> Files.write(f, new byte[] {'h', 'e', 'l', 'l', 'o', ' ', 'w', 'o', 'r', 'l', 'd'});
            default -> Files.write(f, new byte[] {1, 2, 3}, StandardOpenOption.APPEND);
        }
        String e = assertNamedNotJudged("expected.state");
        String wrote = String.format(Locale.ROOT, "; the run wrote %,d bytes", size);
        switch (how) {
            case "cut" ->
                assertThat(e)
                        .containsPattern(
                                Pattern.quote(f + " ends at byte " + String.format(Locale.ROOT, "%,d", size / 2))
                                        + " inside (member \\d+'s record|the "
                                        + "record of share \\d+ of \\d+|the shares' header)" + Pattern.quote(wrote));
            case "header" -> assertThat(e).contains(f + " ends at byte 10 inside its header (the run's id)" + wrote);
            case "empty" -> assertThat(e).contains(f + " is empty (0 bytes)" + wrote);
            case "garbage" -> assertThat(e).contains(f + " is not a BG state file: it starts with bytes 68656c6c");
            default ->
                assertThat(e)
                        .contains(String.format(
                                Locale.ROOT, "%s has 3 bytes after the end of " + "the state, at byte %,d", f, size));
        }
        assertThat(e).doesNotContain(": null");
    }
}
