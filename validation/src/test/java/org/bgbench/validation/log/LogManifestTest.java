package org.bgbench.validation.log;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.RandomAccessFile;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The manifest a directory writes when its logs close, and the reader that verifies a file against it. */
class LogManifestTest {
    @TempDir
    Path tmp;

    /** Writer 0: 100 writes among 5,000 reads (several blocks); writer 1 nothing; writer 2 only writes. */
    private Path threeLogs(String name) {
        Path dir = tmp.resolve(name);
        try (LogDirectory d = LogDirectory.create(dir)) {
            LogWriter a = d.newWriter();
            d.newWriter();
            LogWriter c = d.newWriter();
            for (int i = 0; i < 5_100; i++) {
                if (i % 51 == 0) {
                    a.delta((byte) 4, LogWriter.FRIENDS, i, i, i + 1, 1);
                } else {
                    a.read((byte) 0, LogWriter.FRIENDS, i, i, i + 1, 7);
                }
            }
            for (int i = 0; i < 10; i++) {
                c.delta((byte) 9, LogWriter.COMMENTS, i, i, i + 2, -1);
            }
        }
        return dir;
    }

    private static int[] blockCrcs(Path f, int block) throws Exception {
        byte[] all = Files.readAllBytes(f);
        int[] out = new int[(all.length + block - 1) / block];
        for (int i = 0; i < out.length; i++) {
            CRC32C c = new CRC32C();
            c.update(all, i * block, Math.min(block, all.length - i * block));
            out[i] = (int) c.getValue();
        }
        return out;
    }

    @Test
    void theManifestNamesItsRunAndAVersionOneManifestIsStillRead() throws Exception {
        Path dir = tmp.resolve("run");
        try (LogDirectory d = LogDirectory.create(dir)) {
            d.newWriter().read((byte) 0, LogWriter.FRIENDS, 1, 1, 2, 7);
            d.runId("3f2a9c1d5e6b7a80");
        }
        assertThat(Files.readString(dir.resolve(LogManifest.FILE)))
                .startsWith("bg-validation-manifest 2\ncreated ")
                .contains("\nrun 3f2a9c1d5e6b7a80\n");
        assertThat(LogManifest.read(dir).run()).isEqualTo("3f2a9c1d5e6b7a80");

        // What a BG before run ids wrote: version 1, no run line.
        String v2 = Files.readString(dir.resolve(LogManifest.FILE));
        String body = v2.substring(0, v2.lastIndexOf("end "))
                .replace("manifest 2\n", "manifest 1\n")
                .replace("run 3f2a9c1d5e6b7a80\n", "");
        CRC32C crc = new CRC32C();
        crc.update(body.getBytes(StandardCharsets.UTF_8));
        Files.writeString(dir.resolve(LogManifest.FILE), body + String.format("end %08x%n", (int) crc.getValue()));
        LogManifest old = LogManifest.read(dir);
        assertThat(old.run()).isNull();
        assertThat(old.files()).hasSize(1);
    }

    @Test
    void theManifestDescribesWhatTheFilesHold() throws Exception {
        Path dir = threeLogs("m");
        LogManifest m = LogManifest.read(dir);
        assertThat(m).isNotNull();
        assertThat(m.clean()).isTrue();
        assertThat(m.reason()).isNull();
        assertThat(m.unloggedWrites()).isNull();
        assertThat(m.blockBytes()).isEqualTo(LogWriter.BLOCK_BYTES);
        assertThat(m.files())
                .extracting(LogManifest.Entry::name)
                .containsExactly("thread-00000.bglog", "thread-00001.bglog", "thread-00002.bglog");
        LogManifest.Entry a = m.files().get(0);
        assertThat(a.records()).isEqualTo(5_100);
        assertThat(a.writes()).isEqualTo(100);
        assertThat(a.reads()).isEqualTo(5_000);
        // the last write is record 5,049 (i = 5,049 is the 100th multiple of 51)
        assertThat(a.lastWriteEnd()).isEqualTo(LogFormat.HEADER_SIZE + 5_050L * LogFormat.RECORD_SIZE);
        assertThat(a.status()).isEqualTo("ok");
        for (LogManifest.Entry e : m.files()) {
            Path f = dir.resolve(e.name());
            assertThat(e.bytes()).isEqualTo(Files.size(f));
            assertThat(e.checksums()).containsExactly(blockCrcs(f, LogWriter.BLOCK_BYTES));
        }
        assertThat(a.checksums()).hasSize(3);
        assertThat(m.files().get(1).records()).isZero();
        assertThat(m.files().get(1).lastWriteEnd()).isEqualTo(LogFormat.HEADER_SIZE);
        assertThat(m.files().get(2).lastWriteEnd()).isEqualTo(LogFormat.HEADER_SIZE + 10L * LogFormat.RECORD_SIZE);
        // no leftovers: the space reserve and the temporary manifest are gone
        try (var s = Files.list(dir)) {
            assertThat(s.map(p -> p.getFileName().toString()))
                    .containsExactlyInAnyOrder(
                            "thread-00000.bglog", "thread-00001.bglog", "thread-00002.bglog", LogManifest.FILE);
        }
        assertThatThrownBy(() -> LogDirectory.create(dir)).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void aManifestCutShortOrChangedIsRecognised() throws Exception {
        Path dir = threeLogs("bad");
        Path mf = dir.resolve(LogManifest.FILE);
        byte[] good = Files.readAllBytes(mf);
        Files.write(mf, Arrays.copyOf(good, good.length / 2));
        assertThatThrownBy(() -> LogManifest.read(dir))
                .isInstanceOf(LogManifest.BadManifestException.class)
                .hasMessageContaining("cut short");
        String text = new String(good, StandardCharsets.UTF_8).replace("records 5100", "records 5101");
        Files.writeString(mf, text);
        assertThatThrownBy(() -> LogManifest.read(dir))
                .isInstanceOf(LogManifest.BadManifestException.class)
                .hasMessageContaining("does not match its own checksum");
        Files.delete(mf);
        assertThat(LogManifest.read(dir)).isNull();
    }

    @Test
    void closingWhileThreadsMayStillLogIsRecordedAsUnclean() throws Exception {
        Path dir = tmp.resolve("unclean");
        LogDirectory d = LogDirectory.create(dir);
        d.newWriter().delta((byte) 4, LogWriter.FRIENDS, 1, 1, 2, 1);
        d.close("2 threads were still inside a store call");
        LogManifest m = LogManifest.read(dir);
        assertThat(m.clean()).isFalse();
        assertThat(m.unloggedWrites()).isEqualTo("2 threads were still inside a store call");
        assertThat(m.reason()).isEqualTo(m.unloggedWrites());
        assertThat(d.manifest()).isNotNull();
    }

    @Test
    void theVerifyingReaderStopsAtTheFirstBlockThatDoesNotMatch() throws Exception {
        Path dir = threeLogs("flip");
        LogManifest.Entry e = LogManifest.read(dir).files().get(0);
        Path f = dir.resolve(e.name());
        // record 2,000 starts at byte 68,032, in block 1; break its tag
        long rec = LogFormat.HEADER_SIZE + 2_000L * LogFormat.RECORD_SIZE;
        try (RandomAccessFile raf = new RandomAccessFile(f.toFile(), "rw")) {
            raf.seek(rec);
            raf.write(0xF7);
        }
        try (LogReader r = LogReader.open(f, e, LogWriter.BLOCK_BYTES)) {
            long n = r.forEachRaw((b, o) -> {});
            // every record wholly inside block 0 was handed out, nothing after it
            assertThat(r.deliveredEnd())
                    .isLessThanOrEqualTo(LogWriter.BLOCK_BYTES)
                    .isGreaterThan(LogWriter.BLOCK_BYTES - LogFormat.RECORD_SIZE);
            assertThat(n).isEqualTo((LogWriter.BLOCK_BYTES - LogFormat.HEADER_SIZE) / LogFormat.RECORD_SIZE);
            assertThat(r.damageOffset()).isEqualTo(rec);
            assertThat(r.damage())
                    .contains("bytes 65,536 to 131,071 do not match the checksum")
                    .contains("starts at byte 68,032");
        }
        // a flipped bit inside a value: the block is known bad, the record is not
        Path dir2 = threeLogs("flip2");
        Path f2 = dir2.resolve(e.name());
        try (RandomAccessFile raf = new RandomAccessFile(f2.toFile(), "rw")) {
            raf.seek(rec + 30);
            raf.write(0x55);
        }
        try (LogReader r = LogReader.open(f2, LogManifest.read(dir2).files().get(0), LogWriter.BLOCK_BYTES)) {
            r.forEachRaw((b, o) -> {});
            assertThat(r.damageOffset()).isEqualTo(LogWriter.BLOCK_BYTES);
            assertThat(r.damage()).contains("bytes 65,536 to 131,071");
        }
        // without the manifest the same file reads to its end, as before
        try (LogReader r = LogReader.open(f2)) {
            assertThat(r.forEachRaw((b, o) -> {})).isEqualTo(5_100);
        }
    }

    @Test
    void theVerifyingReaderSaysWhereAFileWasCutOrEmptied() throws Exception {
        Path dir = threeLogs("cut");
        LogManifest m = LogManifest.read(dir);
        LogManifest.Entry e = m.files().get(0);
        Path f = dir.resolve(e.name());
        try (FileChannel ch = FileChannel.open(f, StandardOpenOption.WRITE)) {
            ch.truncate(100_000);
        }
        try (LogReader r = LogReader.open(f, e, LogWriter.BLOCK_BYTES)) {
            r.forEachRaw((b, o) -> {});
            assertThat(r.deliveredEnd()).isLessThanOrEqualTo(LogWriter.BLOCK_BYTES);
            assertThat(r.damageOffset()).isEqualTo(100_000);
            assertThat(r.damage()).isEqualTo("the file ends at byte 100,000; the run wrote 173,432 bytes");
        }
        try (FileChannel ch = FileChannel.open(f, StandardOpenOption.WRITE)) {
            ch.truncate(LogFormat.HEADER_SIZE);
        }
        try (LogReader r = LogReader.open(f, e, LogWriter.BLOCK_BYTES)) {
            assertThat(r.forEachRaw((b, o) -> {})).isZero();
            assertThat(r.damage()).contains("ends at byte 32");
        }
        Files.write(f, new byte[0]);
        try (LogReader r = LogReader.open(f, e, LogWriter.BLOCK_BYTES)) {
            assertThat(r.forEachRaw((b, o) -> {})).isZero();
            assertThat(r.damage()).startsWith("the file is empty");
            assertThat(r.damageOffset()).isZero();
        }
    }
}
