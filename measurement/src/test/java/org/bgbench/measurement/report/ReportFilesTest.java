package org.bgbench.measurement.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The report files of a command: written atomically through reserves, and what could not be written named once. */
class ReportFilesTest {
    @TempDir
    Path dir;

    @Test
    void writesThroughAReserveAndGivesItBack() throws Exception {
        ReportFiles files = new ReportFiles();
        Path json = dir.resolve("sweep.json");
        files.reserve(json);
        assertThat(dir.resolve(".sweep.json.reserve")).hasSize(ResultWriter.MARGIN);
        assertThat(files.write(json, "{\"format\": \"bg-sweep/1\"}")).isTrue();
        assertThat(json).hasContent("{\"format\": \"bg-sweep/1\"}");
        assertThat(files.errorLine("the table above")).isNull();
        files.release();
        try (var left = Files.list(dir)) {
            assertThat(left).containsExactly(json);
        }
    }

    @Test
    void namesTheFirstFileNotWrittenAndHowManyMore() throws Exception {
        Path notADir = Files.writeString(dir.resolve("plain"), "x");
        ReportFiles files = new ReportFiles();
        files.failed("cannot write the result to T1.json: No space left on device");
        assertThat(files.write(notADir.resolve("sweep.json"), "{}")).isFalse();
        assertThat(files.errorLine("the table above"))
                .startsWith(
                        "bg: error: cannot write the result to T1.json: "
                                + "No space left on device (and 1 more file not written); the table above is what was measured");
    }

    @Test
    void aRewrittenFileIsLostOnlyIfItsLastWriteIs() throws Exception {
        Path sub = dir.resolve("sub");
        Files.writeString(sub, "in the way");
        ReportFiles files = new ReportFiles();
        Path report = sub.resolve("report.json");
        assertThat(files.write(report, "{\"point\": 1}")).isFalse();
        assertThat(files.why()).startsWith("cannot write " + report + ": ");
        Files.delete(sub);
        assertThat(files.write(report, "{\"point\": 2}")).isTrue();
        assertThat(files.why()).isNull();
        files.release();
    }
}
