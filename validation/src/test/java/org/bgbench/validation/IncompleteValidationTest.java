package org.bgbench.validation;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.RandomAccessFile;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.bgbench.validation.bench.SyntheticRun;
import org.bgbench.validation.log.LogDirectory;
import org.bgbench.validation.log.LogFormat;
import org.bgbench.validation.log.LogManifest;
import org.bgbench.validation.log.LogWriter;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Validation never convicts on missing evidence: a log that is missing, cut, emptied or damaged, a manifest that is
 * missing or disagrees, a run that did not close its logs cleanly — each is reported (which file, where) and the
 * verdict is incomplete. Reads are checked only when every write is still there.
 */
class IncompleteValidationTest {
    @TempDir
    Path tmp;

    private Path dir;
    private ItemValues finalValues;
    private SyntheticRun.Summary run;

    /** A correct run (no injected error) of 8 files, validated from the items' final values as BG does. */
    @BeforeEach
    void correctRun() {
        dir = tmp.resolve("logs");
        SyntheticRun.Config c = new SyntheticRun.Config(
                120_000,
                new SyntheticRun.Load(32, 0.2, 2_000, 1_000),
                new SyntheticRun.Items(300, 1_000, 2.0),
                0,
                8,
                17);
        try (LogDirectory d = LogDirectory.create(dir)) {
            run = SyntheticRun.generate(d, c);
        }
        Map<String, Long> sums = Histories.deltaSums(Histories.read(dir));
        finalValues = (k, i) -> SyntheticRun.initial(k, i) + sums.getOrDefault(k + ":" + i, 0L);
    }

    private ValidationResult validate() {
        return Validator.builder(finalValues, ValueMode.FINAL)
                .threads(2)
                .build()
                .validate(dir);
    }

    private Path file(int n) {
        return dir.resolve(String.format("thread-%05d.bglog", n));
    }

    private static void assertNothingChecked(ValidationResult r) {
        assertThat(r.complete()).isFalse();
        assertThat(r.readsChecked()).isZero();
        assertThat(r.unpredictableReads()).isZero();
        assertThat(r.pct()).isZero();
        assertThat(r.samples()).isEmpty();
        assertThat(r.incompleteReason()).contains("no read can be checked");
    }

    @Test
    void intactLogsAreComplete() {
        ValidationResult r = validate();
        assertThat(r.complete()).isTrue();
        assertThat(r.incompleteReason()).isNull();
        assertThat(r.problems()).isEmpty();
        assertThat(r.readsChecked()).isEqualTo(run.reads());
        assertThat(r.readsUnchecked()).isZero();
        assertThat(r.unpredictableReads()).isZero();
    }

    @Test
    void aMissingLogWithWritesLeavesNothingToCheckWhereTheOldValidatorConvicted() throws Exception {
        long reads = LogManifest.read(dir).files().stream()
                .mapToLong(LogManifest.Entry::reads)
                .sum();
        Files.delete(file(3));
        // what the files alone would say: a correct store convicted of unpredictable reads
        List<Path> rest;
        try (LogDirectory d = LogDirectory.open(dir)) {
            rest = d.files();
        }
        ValidationResult naive =
                Validator.builder(finalValues, ValueMode.FINAL).build().validate(rest);
        assertThat(naive.unpredictableReads()).isGreaterThan(1_000);

        ValidationResult r = validate();
        assertNothingChecked(r);
        assertThat(r.readsUnchecked()).isEqualTo(reads);
        assertThat(r.problems()).singleElement().satisfies(p -> {
            assertThat(p.file()).isEqualTo("thread-00003.bglog");
            assertThat(p.problem()).startsWith("missing; the run logged");
        });
        assertThat(r.incompleteReason()).startsWith("thread-00003.bglog is missing, and it held writes");
        assertThat(r.summary()).contains("validation INCOMPLETE").contains("thread-00003.bglog");
    }

    @Test
    void aLogCutMidRecordOrToItsHeaderOrEmptiedLeavesNothingToCheck() throws Exception {
        long[] cuts = {Files.size(file(2)) - 17, LogFormat.HEADER_SIZE, 0};
        for (int i = 0; i < cuts.length; i++) {
            long to = cuts[i];
            if (i > 0) {
                deleteAll();
                correctRun();
            }
            try (FileChannel ch = FileChannel.open(file(2), StandardOpenOption.WRITE)) {
                ch.truncate(to);
            }
            ValidationResult r = validate();
            assertNothingChecked(r);
            assertThat(r.problems()).singleElement().satisfies(p -> {
                assertThat(p.file()).isEqualTo("thread-00002.bglog");
                assertThat(p.offset()).isEqualTo(to);
                assertThat(p.problem()).contains(to == 0 ? "the file is empty" : "the file ends at byte");
            });
            assertThat(r.incompleteReason()).contains("thread-00002.bglog could be read only up to byte");
        }
    }

    private void deleteAll() throws Exception {
        try (var s = Files.walk(dir)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    @Test
    void flippedBytesAreFoundByFileAndOffsetAndNothingIsConvicted() throws Exception {
        long at = 100_003;
        try (RandomAccessFile raf = new RandomAccessFile(file(5).toFile(), "rw")) {
            raf.seek(at);
            raf.write(new byte[] {(byte) 0xFF, (byte) 0xFF, 0x13});
        }
        ValidationResult r = validate();
        assertNothingChecked(r);
        assertThat(r.problems()).singleElement().satisfies(p -> {
            assertThat(p.file()).isEqualTo("thread-00005.bglog");
            assertThat(p.offset()).isBetween(65_536L, at);
            assertThat(p.problem()).contains("bytes 65,536 to 131,071 do not match the checksum the run recorded");
        });
        assertThat(r.toString()).doesNotContain("Exception");
    }

    @Test
    void whenOnlyReadsAreLostTheRestIsCheckedAndStillCalledIncomplete() throws Exception {
        Path d2 = tmp.resolve("reads-tail");
        try (LogDirectory d = LogDirectory.create(d2)) {
            LogWriter w = d.newWriter();
            LogWriter x = d.newWriter();
            for (int i = 0; i < 10; i++) {
                w.delta((byte) 4, LogWriter.FRIENDS, i, 10 * i, 10 * i + 5, 1);
            }
            for (int i = 0; i < 10_000; i++) {
                w.read((byte) 0, LogWriter.FRIENDS, i % 10, 1_000 + i, 1_001 + i, 1);
                x.read((byte) 0, LogWriter.FRIENDS, i % 10, 1_000 + i, 1_001 + i, i == 7 ? 5 : 1);
            }
        }
        try (FileChannel ch = FileChannel.open(d2.resolve("thread-00000.bglog"), StandardOpenOption.WRITE)) {
            ch.truncate(200_000);
        }
        ValidationResult r =
                Validator.builder((k, i) -> 1, ValueMode.FINAL).build().validate(d2);
        assertThat(r.complete()).isFalse();
        long kept = (3 * 65_536 - LogFormat.HEADER_SIZE) / LogFormat.RECORD_SIZE - 10;
        assertThat(r.readsChecked()).isEqualTo(10_000 + kept);
        assertThat(r.readsUnchecked()).isEqualTo(10_000 - kept);
        // what was checked is sound: every write is there, so the one wrong read is a real finding
        assertThat(r.unpredictableReads()).isEqualTo(1);
        assertThat(r.incompleteReason())
                .startsWith("thread-00000.bglog at byte 200,000: the file ends at byte 200,000")
                .contains("every write is in the logs")
                .contains("(1 of them are unpredictable)")
                .contains(String.format(Locale.ROOT, "but %,d could not be", 10_000 - kept));
    }

    @Test
    void aRunWithoutAManifestIsIncomplete() throws Exception {
        Files.delete(dir.resolve(LogManifest.FILE));
        ValidationResult r = validate();
        assertNothingChecked(r);
        assertThat(r.readsUnchecked()).isEqualTo(run.reads());
        assertThat(r.readRecords()).isEqualTo(run.reads());
        assertThat(r.problems()).singleElement().satisfies(p -> {
            assertThat(p.file()).isEqualTo(LogManifest.FILE);
            assertThat(p.problem()).startsWith("missing: the run did not close its logs");
        });
        assertThat(r.incompleteReason()).contains("or more");
    }

    @Test
    void aDamagedManifestOrOneThatDisagreesWithTheFilesIsIncomplete() throws Exception {
        Path m = dir.resolve(LogManifest.FILE);
        String text = Files.readString(m);
        Files.writeString(m, text.replace("block-bytes 65536", "block-bytes 65537"));
        ValidationResult r = validate();
        assertNothingChecked(r);
        assertThat(r.problems())
                .singleElement()
                .extracting(LogProblem::problem)
                .asString()
                .contains("does not match its own checksum");

        Files.writeString(m, text);
        Files.copy(file(1), dir.resolve("thread-00099.bglog"));
        Files.write(file(4), new byte[] {1, 2, 3}, StandardOpenOption.APPEND);
        ValidationResult x = validate();
        assertThat(x.complete()).isFalse();
        assertThat(x.readsChecked())
                .as("nothing is missing; the extras are ignored")
                .isEqualTo(run.reads());
        assertThat(x.unpredictableReads()).isZero();
        assertThat(x.problems())
                .extracting(LogProblem::toString)
                .containsExactly(
                        "thread-00004.bglog at byte " + String.format(Locale.ROOT, "%,d", Files.size(file(4)) - 3)
                                + ": 3 bytes beyond the " + String.format(Locale.ROOT, "%,d", Files.size(file(4)) - 3)
                                + " the run wrote (appended later); ignored",
                        "thread-00099.bglog: not in the manifest (not written by this run); ignored");
    }

    @Test
    void logsClosedWhileThreadsCouldStillWriteAreIncomplete() throws Exception {
        Path d2 = tmp.resolve("stuck");
        LogDirectory d = LogDirectory.create(d2);
        d.newWriter().read((byte) 0, LogWriter.FRIENDS, 1, 1, 2, 0);
        d.close("1 thread was still inside a store call when the logs were closed");
        ValidationResult r =
                Validator.builder((k, i) -> 0, ValueMode.FINAL).build().validate(d2);
        assertNothingChecked(r);
        assertThat(r.problems())
                .extracting(LogProblem::problem)
                .containsExactly("writes may be missing from every log: 1 thread was still inside a store call when "
                        + "the logs were closed");
    }
}
