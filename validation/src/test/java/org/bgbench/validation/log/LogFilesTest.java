package org.bgbench.validation.log;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LogFilesTest {
    @TempDir
    Path tmp;

    private record Rec(int type, byte kind, byte action, long item, long start, long end, long value) {}

    private static List<Rec> readAll(Path f) {
        List<Rec> out = new ArrayList<>();
        LogReader.forEach(
                f, (type, kind, action, item, s, e, v) -> out.add(new Rec(type, kind, action, item, s, e, v)));
        return out;
    }

    @Test
    void roundTripAcrossBufferFlushes() {
        Path f = tmp.resolve("a.bglog");
        SplittableRandom rnd = new SplittableRandom(1);
        List<Rec> expected = new ArrayList<>();
        // a buffer of 3 records forces many flushes
        try (LogWriter w = LogWriter.create(f, 7, 3 * LogFormat.RECORD_SIZE + 5)) {
            for (int i = 0; i < 1000; i++) {
                int type = 1 + rnd.nextInt(3);
                byte kind = (byte) rnd.nextInt(16);
                byte action = (byte) rnd.nextInt(256);
                long item = rnd.nextLong();
                long s = rnd.nextLong();
                long e = rnd.nextLong();
                long v = rnd.nextLong();
                switch (type) {
                    case 1 -> w.read(action, kind, item, s, e, v);
                    case 2 -> w.delta(action, kind, item, s, e, v);
                    default -> w.absolute(action, kind, item, s, e, v);
                }
                expected.add(new Rec(type, kind, action, item, s, e, v));
            }
            assertThat(w.records()).isEqualTo(1000);
        }
        assertThat(f).hasSize(LogFormat.HEADER_SIZE + 1000L * LogFormat.RECORD_SIZE);
        assertThat(readAll(f)).isEqualTo(expected);
        try (LogReader r = LogReader.open(f)) {
            assertThat(r.writerId()).isEqualTo(7);
            assertThat(r.createdMillis()).isPositive();
            long[] n = {0};
            assertThat(r.forEachRaw((b, off) -> n[0]++)).isEqualTo(1000);
            assertThat(r.partialRecordBytes()).isZero();
            assertThat(r.invalidRecords()).isZero();
        }
    }

    @Test
    void droppedReadsDrainTheBufferAsOftenAsKeptOnesFromTheFirstRecordsOn() {
        // The warm-up's reads are dropped; the buffer must still drain on the measured period's schedule (after 32,
        // then 64, 128, … records), or the drain's branch is first taken after the JIT compiled it away.
        int first = LogWriter.FIRST_LIMIT_RECORDS;
        Path kept = tmp.resolve("kept.bglog");
        Path dropped = tmp.resolve("dropped.bglog");
        List<Rec> writes = new ArrayList<>();
        try (LogWriter k = LogWriter.create(kept, 0, LogWriter.DEFAULT_BUFFER_BYTES);
                LogWriter d = LogWriter.create(dropped, 1, LogWriter.DEFAULT_BUFFER_BYTES)) {
            d.keepReads(0);
            for (int i = 0; i < first; i++) {
                k.read((byte) 1, LogWriter.FRIENDS, i, i, i + 1, 5);
                d.read((byte) 1, LogWriter.FRIENDS, i, i, i + 1, 5);
            }
            assertThat(k.drains())
                    .as("a full first buffer is not drained before the next record")
                    .isZero();
            assertThat(d.drains()).isZero();
            for (int i = first; i < first + 2 * first + 1; i++) {
                k.read((byte) 1, LogWriter.FRIENDS, i, i, i + 1, 5);
                d.read((byte) 1, LogWriter.FRIENDS, i, i, i + 1, 5);
                if (i % 10 == 0) {
                    d.delta((byte) 3, LogWriter.PENDING, i, i, i + 1, 1);
                    k.delta((byte) 3, LogWriter.PENDING, i, i, i + 1, 1);
                    writes.add(new Rec(LogFormat.TYPE_DELTA, LogWriter.PENDING, (byte) 3, i, i, i + 1, 1));
                }
            }
            assertThat(d.drains())
                    .as("drained after 32 and 64 more, dropped reads counted")
                    .isEqualTo(2)
                    .isEqualTo(k.drains());
            assertThat(d.reads()).isZero();
            assertThat(k.reads()).isEqualTo(3L * first + 1);
        }
        assertThat(readAll(dropped))
                .as("the dropped writer's file: its writes, in order, no read")
                .isEqualTo(writes);
        assertThat(readAll(kept)).hasSize(3 * first + 1 + writes.size());
    }

    @Test
    void recordsFlushedBeforeACrashAreReadable() {
        Path f = tmp.resolve("crash.bglog");
        LogWriter w = LogWriter.create(f, 0, 10 * LogFormat.RECORD_SIZE);
        for (int i = 0; i < 25; i++) {
            w.delta((byte) 3, LogWriter.PENDING, i, i, i + 1, 1);
        }
        // never closed: 20 records were flushed when the buffer filled, 5 are lost with the "process"
        assertThat(readAll(f)).hasSize(20);
        w.flush();
        assertThat(readAll(f)).hasSize(25);
        w.close();
    }

    @Test
    void truncatedLastRecordIsIgnoredAndCounted() throws Exception {
        Path f = tmp.resolve("t.bglog");
        try (LogWriter w = LogWriter.create(f)) {
            for (int i = 0; i < 10; i++) {
                w.read((byte) 0, LogWriter.FRIENDS, i, i, i, i);
            }
        }
        try (FileChannel ch = FileChannel.open(f, StandardOpenOption.WRITE)) {
            ch.truncate(ch.size() - 10);
        }
        try (LogReader r = LogReader.open(f)) {
            int n = 0;
            while (r.next()) {
                assertThat(r.item()).isEqualTo(n);
                n++;
            }
            assertThat(n).isEqualTo(9);
            assertThat(r.partialRecordBytes()).isEqualTo(LogFormat.RECORD_SIZE - 10);
        }
    }

    @Test
    void zeroFilledTailEndsTheLog() throws Exception {
        Path f = tmp.resolve("z.bglog");
        try (LogWriter w = LogWriter.create(f)) {
            for (int i = 0; i < 4; i++) {
                w.delta((byte) 9, LogWriter.COMMENTS, i, i, i, 1);
            }
        }
        try (FileChannel ch = FileChannel.open(f, StandardOpenOption.WRITE, StandardOpenOption.APPEND)) {
            ch.write(ByteBuffer.allocate(3 * LogFormat.RECORD_SIZE + 5));
        }
        try (LogReader r = LogReader.open(f)) {
            assertThat(r.forEachRaw((b, o) -> {})).isEqualTo(4);
            assertThat(r.invalidRecords()).isEqualTo(3);
            assertThat(r.partialRecordBytes()).isEqualTo(5);
        }
    }

    @Test
    void headerCutShortReadsAsEmptyAndForeignFilesAreRefused() throws Exception {
        Path cut = tmp.resolve("cut.bglog");
        Files.write(cut, new byte[] {'B', 'G', 'V'});
        try (LogReader r = LogReader.open(cut)) {
            assertThat(r.next()).isFalse();
            assertThat(r.truncatedHeader()).isTrue();
        }
        Path foreign = tmp.resolve("foreign.bglog");
        Files.write(foreign, new byte[64]);
        assertThatThrownBy(() -> LogReader.open(foreign))
                .isInstanceOf(UncheckedIOException.class)
                .hasMessageContaining("not a BG validation log");
    }

    @Test
    void writerRejectsBadKindsAndDropsWhatComesAfterClose() {
        LogWriter w = LogWriter.create(tmp.resolve("k.bglog"), 0, 4 * LogFormat.RECORD_SIZE);
        assertThatThrownBy(() -> w.read((byte) 0, (byte) 16, 1, 1, 1, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> w.read((byte) 0, (byte) -1, 1, 1, 1, 1)).isInstanceOf(IllegalArgumentException.class);
        w.read((byte) 0, (byte) 15, 1, 1, 1, 1);
        w.close();
        w.close();
        assertThat(w.status()).isEqualTo("ok");
        // a member thread still inside a store call when the run ended logs later: dropped and counted, never thrown
        for (int i = 0; i < 10; i++) {
            w.delta((byte) 0, (byte) 0, 1, 1, 1, 1);
        }
        assertThat(readAll(tmp.resolve("k.bglog"))).hasSize(1);
        assertThat(w.lostRecords()).isEqualTo(10);
        assertThat(w.status()).startsWith("lost: 10 records");
    }

    @Test
    void directoryGivesOneFilePerThreadAndRefusesOldLogs() throws Exception {
        Path dir = tmp.resolve("run");
        Set<String> names = ConcurrentHashMap.newKeySet();
        try (LogDirectory d = LogDirectory.create(dir)) {
            List<Thread> ts = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                ts.add(Thread.ofPlatform().start(() -> {
                    LogWriter w = d.newWriter();
                    names.add(w.file().getFileName().toString());
                    for (int i = 0; i < 1000; i++) {
                        w.read((byte) 0, LogWriter.FRIENDS, i, i, i, i);
                    }
                }));
            }
            for (Thread t : ts) {
                t.join();
            }
            assertThat(d.totalRecords()).isEqualTo(8000);
            assertThat(d.totalBytes()).isEqualTo(8 * (LogFormat.HEADER_SIZE + 1000L * LogFormat.RECORD_SIZE));
        }
        assertThat(names).hasSize(8).contains("thread-00000.bglog", "thread-00007.bglog");
        try (LogDirectory d = LogDirectory.open(dir)) {
            assertThat(d.files()).hasSize(8);
            assertThat(d.totalRecords()).isEqualTo(8000);
            assertThatThrownBy(d::newWriter).isInstanceOf(IllegalStateException.class);
        }
        assertThatThrownBy(() -> LogDirectory.create(dir))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("already holds 8 log file(s)");
        Set<Long> items = new HashSet<>();
        LogReader.forEach(dir.resolve("thread-00003.bglog"), (ty, k, a, item, s, e, v) -> items.add(item));
        assertThat(items).hasSize(1000);
    }
}
