package org.bgbench.validation.log;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.bgbench.validation.ValidationResult;
import org.bgbench.validation.Validator;
import org.bgbench.validation.ValueMode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Feed records (version 2): groups round-trip, a group cut by a crash is dropped, version 1 files still read. */
class FeedLogTest {
    @TempDir
    Path tmp;

    private static List<String> decode(Path f) {
        List<String> out = new ArrayList<>();
        LogReader.forEach(f, new LogVisitor() {
            @Override
            public void record(int type, byte kind, byte action, long item, long s, long e, long value) {
                out.add("rec " + type + " " + item + " " + value);
            }

            @Override
            public void feedRead(byte action, int member, int k, long s, long e, long[] ids, int n) {
                out.add("vnf " + member + " k" + k + " " + Arrays.toString(Arrays.copyOf(ids, n)) + " " + s + " " + e);
            }

            @Override
            public void share(byte action, int account, long id, long rid, long s, long e, int[] rec) {
                out.add("sr " + account + " " + id + " " + rid + " " + Arrays.toString(rec));
            }

            @Override
            public void friendship(byte action, int a, int b, long s, long e, boolean began) {
                out.add("fr " + a + " " + b + " " + began);
            }
        });
        return out;
    }

    @Test
    void readsGivenWhileDroppedLeaveNoTraceAndWritesBetweenThemAreKept() {
        Path f = tmp.resolve("w.bglog");
        long[] ids = {9, 8, 7, 6, 5};
        // a buffer of 4 records: the dropped reads would have filled it several times over
        try (LogWriter w = LogWriter.create(f, 0, 4 * LogFormat.RECORD_SIZE)) {
            w.keepReads(0);
            for (int i = 0; i < 10; i++) {
                w.read((byte) 0, LogWriter.FRIENDS, 100 + i, 1, 2, i);
                w.feedRead((byte) 12, 4, 10, 3, 4, ids, 5); // a group of 3 records, fits the buffer
                if (i == 4) {
                    w.delta((byte) 4, LogWriter.FRIENDS, 7, 5, 6, 1);
                }
            }
            // a group larger than the buffer cannot be given back once written out: it is not written at all
            w.feedRead((byte) 12, 4, 40, 3, 4, new long[40], 40);
            assertThat(w.reads()).isZero();
            assertThat(w.records()).isEqualTo(1);
            w.keepReads(1);
            w.read((byte) 0, LogWriter.PENDING, 5, 7, 8, 3);
            w.feedRead((byte) 12, 4, 10, 9, 10, ids, 5);
            assertThat(w.reads()).isEqualTo(2);
            assertThat(w.writes()).isEqualTo(1);
        }
        assertThat(decode(f)).containsExactly("rec 2 7 1", "rec 1 5 3", "vnf 4 k10 " + Arrays.toString(ids) + " 9 10");
    }

    @Test
    void groupsRoundTripThroughTheFileEvenAcrossBufferDrains() {
        Path f = tmp.resolve("a.bglog");
        long[] ids = new long[40];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = 1000 - i;
        }
        int[] rec = new int[37];
        for (int i = 0; i < rec.length; i++) {
            rec[i] = 3 * i;
        }
        // a buffer of 3 records: every group is larger than it
        try (LogWriter w = LogWriter.create(f, 0, 3 * LogFormat.RECORD_SIZE)) {
            w.read((byte) 0, LogWriter.FRIENDS, 5, 1, 2, 7);
            w.feedRead((byte) 12, 4, 50, 3, 4, ids, 40);
            w.share((byte) 11, 7, 99, 123_456_789_012L, 5, 6, rec);
            w.share((byte) 11, 8, 100, 42, 5, 6, null);
            w.share((byte) 11, 8, 101, 43, 5, 6, new int[0]);
            w.friendship((byte) 4, 1, 2, 7, 8, true);
            w.friendship((byte) 6, 2, 1, 9, 10, false);
            w.feedRead((byte) 12, 4, 10, 11, 12, ids, 0);
            assertThat(w.reads()).isEqualTo(3);
            assertThat(w.writes()).isEqualTo(5);
        }
        List<String> got = decode(f);
        assertThat(got)
                .containsExactly(
                        "rec 1 5 7",
                        "vnf 4 k50 " + Arrays.toString(ids) + " 3 4",
                        "sr 7 99 123456789012 " + Arrays.toString(rec),
                        "sr 8 100 42 null",
                        "sr 8 101 43 []",
                        "fr 1 2 true",
                        "fr 2 1 false",
                        "vnf 4 k10 [] 11 12");
    }

    @Test
    void aGroupCutAtTheEndOfAFileIsDroppedNotMisread() throws IOException {
        Path dir = tmp.resolve("cut");
        Files.createDirectories(dir);
        Path f = dir.resolve("thread-00000.bglog");
        long[] ids = {9, 8, 7, 6, 5, 4, 3, 2, 1, 0}; // 3 continuations
        try (LogWriter w = LogWriter.create(f)) {
            w.feedRead((byte) 12, 1, 10, 1, 2, ids, 10);
            w.feedRead((byte) 12, 2, 10, 3, 4, ids, 10);
        }
        long full = Files.size(f);
        // the crash: the second group lost its last continuation and half of the one before
        try (FileChannel ch = FileChannel.open(f, StandardOpenOption.WRITE)) {
            ch.truncate(full - LogFormat.RECORD_SIZE - LogFormat.RECORD_SIZE / 2);
        }
        List<String> got = decode(f);
        assertThat(got).containsExactly("vnf 1 k10 " + Arrays.toString(ids) + " 1 2");
        try (LogReader r = LogReader.open(f)) {
            assertThat(r.forEachRaw((b, off) -> {})).isEqualTo(4);
            assertThat(r.cutGroupRecords()).isEqualTo(2);
            assertThat(r.partialRecordBytes()).isEqualTo(LogFormat.RECORD_SIZE / 2);
            assertThat(r.deliveredEnd()).isEqualTo(LogFormat.HEADER_SIZE + 4L * LogFormat.RECORD_SIZE);
        }
        // the cursor agrees
        try (LogReader r = LogReader.open(f)) {
            int n = 0;
            while (r.next()) {
                n++;
            }
            assertThat(n).isEqualTo(4);
            assertThat(r.cutGroupRecords()).isEqualTo(2);
        }
        // and validation of the files as they are warns and checks only the whole read
        ValidationResult v =
                Validator.builder((k, i) -> 0, ValueMode.INITIAL).build().validate(List.of(f));
        assertThat(v.feedReads()).isEqualTo(1);
        assertThat(v.partialRecords()).isEqualTo(1);
        assertThat(v.warnings()).anySatisfy(w -> assertThat(w).contains("incomplete last feed record ignored"));
    }

    @Test
    void aContinuationWithoutItsHeadIsInvalid() throws IOException {
        Path f = tmp.resolve("stray.bglog");
        try (LogWriter w = LogWriter.create(f)) {
            w.read((byte) 0, LogWriter.FRIENDS, 5, 1, 2, 7);
            w.feedRead((byte) 12, 1, 10, 1, 2, new long[] {3, 2, 1, 0, 9}, 5); // head + 2 continuations
        }
        // overwrite the head with a copy of its first continuation: a stray continuation
        byte[] all = Files.readAllBytes(f);
        int head = LogFormat.HEADER_SIZE + LogFormat.RECORD_SIZE;
        System.arraycopy(all, head + LogFormat.RECORD_SIZE, all, head, LogFormat.RECORD_SIZE);
        Files.write(f, all);
        try (LogReader r = LogReader.open(f)) {
            assertThat(r.forEachRaw((b, off) -> {})).isEqualTo(1);
            assertThat(r.invalidRecords()).isEqualTo(3);
        }
    }

    @Test
    void versionOneFilesAreStillRead() throws IOException {
        Path f = tmp.resolve("v1.bglog");
        try (LogWriter w = LogWriter.create(f)) {
            w.read((byte) 0, LogWriter.FRIENDS, 5, 1, 2, 7);
            w.delta((byte) 4, LogWriter.FRIENDS, 5, 3, 4, 1);
        }
        byte[] all = Files.readAllBytes(f);
        ByteBuffer.wrap(all).order(ByteOrder.LITTLE_ENDIAN).putShort(4, LogFormat.VERSION_1);
        Files.write(f, all);
        assertThat(decode(f)).containsExactly("rec 1 5 7", "rec 2 5 1");
        try (LogReader r = LogReader.open(f)) {
            assertThat(r.version()).isEqualTo(1);
        }
    }

    @Test
    void manifestCountsFeedRecordsAndTheEndOfTheLastWrite() {
        Path dir = tmp.resolve("m");
        LogManifest m;
        try (LogDirectory d = LogDirectory.create(dir)) {
            LogWriter w = d.newWriter();
            w.feedRead((byte) 12, 1, 10, 1, 2, new long[] {1}, 1);
            w.share((byte) 11, 0, 1, 5, 0, 1, new int[] {1, 2, 3});
            w.feedRead((byte) 12, 1, 10, 3, 4, new long[] {1}, 1);
            d.close();
            m = d.manifest();
        }
        LogManifest.Entry e = m.files().get(0);
        assertThat(e.reads()).isEqualTo(2);
        assertThat(e.writes()).isEqualTo(1);
        assertThat(e.records()).isEqualTo(2 + 2 + 2); // 1 + 1, 1 + 1 (resource and 3 recipients), 1 + 1
        assertThat(e.lastWriteEnd()).isEqualTo(LogFormat.HEADER_SIZE + 4L * LogFormat.RECORD_SIZE);
        ValidationResult v =
                Validator.builder((k, i) -> 0, ValueMode.INITIAL).build().validate(dir);
        assertThat(v.complete()).isTrue();
        assertThat(v.readRecords()).isEqualTo(2);
    }
}
