package org.bgbench.validation.log;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Locale;

/**
 * Streams the records of one log file without allocating per record. Use it as a cursor ({@link #next()} then the
 * accessors), with a {@link LogVisitor}, or with a {@link RawVisitor} that sees the encoded bytes.
 *
 * <p>Opened with the file's {@link LogManifest.Entry} ({@link #open(Path, LogManifest.Entry, int)}), the reader
 * <em>verifies</em>: it reads no further than the length the run recorded and hands out a record only once every block
 * it touches matched the run's checksum. It stops at the first block that does not ({@link #damage()}: where and why),
 * and at the end of a file that is shorter than recorded (the last, incomplete block cannot be verified, so its records
 * are not handed out). What was handed out ends at {@link #deliveredEnd()}.
 *
 * <p>Opened without one ({@link #open(Path)}), damage a crash can leave is tolerated and counted, never thrown: a header
 * cut short (the file reads as empty), a partial last record ({@link #partialRecordBytes()}), and an invalid tag (such
 * as a zero-filled tail), after which the rest of the file is skipped ({@link #invalidRecords()}). A file that is not
 * a validation log (wrong magic, unknown version) is refused with an {@link UncheckedIOException}; when verifying, that
 * is reported as damage at byte 0 instead.
 */
public final class LogReader implements AutoCloseable {
    /** Sees one encoded record; decode it with {@link LogFormat}'s accessors. Valid only during the call. */
    @FunctionalInterface
    public interface RawVisitor {
        void record(byte[] buffer, int offset);
    }

    private static final int BUFFER_RECORDS = 8192;

    private final Path file;
    private final FileChannel channel;
    private final long fileSize;
    private final byte[] buf;
    private final ByteBuffer bb;
    /** File offset of buf[0]. */
    private long bufFileOffset;

    private int pos;
    /** Bytes read into buf. */
    private int lim;
    /** Bytes of buf that may be handed out (verified, when verifying). */
    private int dlim;

    private boolean done;
    private boolean finished;

    private final boolean truncatedHeader;
    private final long writerId;
    private final long createdMillis;
    private final long createdNanos;
    /** The file's format version (1 or 2). */
    private final int version;

    private final long expectedBytes;
    /** The checks of a verifying reader; null when not verifying. */
    private final BlockChecks checks;

    private long records;
    private int partialRecordBytes;
    private long invalidRecords;
    private int cutGroupRecords;
    /** Continuations of the current group that {@link #next()} has still to return. */
    private int groupLeft;

    private int type;
    private byte kind;
    private byte action;
    private long item;
    private long start;
    private long end;
    private long value;

    private LogReader(Path file, LogManifest.Entry expected, int blockBytes) throws IOException {
        this.file = file;
        this.channel = FileChannel.open(file, StandardOpenOption.READ);
        try {
            this.fileSize = channel.size();
            this.expectedBytes = expected == null ? fileSize : expected.bytes();
            this.checks = expected == null ? null : new BlockChecks(expected.checksums(), blockBytes, expectedBytes);
            int capacity = BUFFER_RECORDS * LogFormat.RECORD_SIZE;
            if (checks != null) {
                // whole blocks must fit beside a carried-over partial record
                capacity = Math.max(capacity, 2 * blockBytes + LogFormat.RECORD_SIZE);
            }
            this.buf = new byte[capacity];
            this.bb = ByteBuffer.wrap(buf);
            long readable = Math.min(fileSize, expectedBytes);
            if (readable < LogFormat.HEADER_SIZE) {
                truncatedHeader = true;
                writerId = -1;
                createdMillis = 0;
                createdNanos = 0;
                version = LogFormat.VERSION;
                partialRecordBytes = (int) readable;
                done = true;
                if (checks != null) {
                    checks.damageAt(
                            fileSize,
                            fileSize == 0
                                    ? "the file is empty; the run wrote " + bytes(expectedBytes)
                                    : "the file ends inside its header, at byte " + fileSize + "; the run wrote "
                                            + bytes(expectedBytes));
                }
                return;
            }
            truncatedHeader = false;
            bb.clear().limit(LogFormat.HEADER_SIZE);
            while (bb.hasRemaining()) {
                if (channel.read(bb) < 0) {
                    throw new IOException("file shrank while being read");
                }
            }
            String bad = null;
            int v = LogFormat.headerVersion(buf);
            if (LogFormat.headerMagic(buf) != LogFormat.MAGIC) {
                bad = "not a BG validation log (bad magic)";
            } else if ((v != LogFormat.VERSION && v != LogFormat.VERSION_1)
                    || LogFormat.headerRecordSize(buf) != LogFormat.RECORD_SIZE) {
                bad = "unsupported validation log version " + v + " (this reader knows " + LogFormat.VERSION_1 + " and "
                        + LogFormat.VERSION + ")";
            }
            version = bad == null ? v : LogFormat.VERSION;
            writerId = LogFormat.headerLong(buf, 8);
            createdMillis = LogFormat.headerLong(buf, 16);
            createdNanos = LogFormat.headerLong(buf, 24);
            if (checks != null) {
                // the header is the start of block 0: check it with the block, but refuse nonsense at once
                lim = LogFormat.HEADER_SIZE;
                checks.verify(buf, 0, LogFormat.HEADER_SIZE, bufFileOffset, lim);
                if (bad != null && damage() == null) {
                    checks.damageAt(0, "the header is damaged: " + bad);
                }
                if (damage() != null) {
                    done = true;
                }
                // records start after the header, which stays in buf until its block is verified
                pos = LogFormat.HEADER_SIZE;
                dlim = (int) Math.min(lim, checks.verifiedEnd());
            } else {
                if (bad != null) {
                    throw new IOException(bad);
                }
                bufFileOffset = LogFormat.HEADER_SIZE;
            }
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
    }

    /** Opens {@code file} and reads its header. */
    public static LogReader open(Path file) {
        try {
            return new LogReader(file, null, LogWriter.BLOCK_BYTES);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read validation log " + file + ": " + e.getMessage(), e);
        }
    }

    /**
     * Opens {@code file} to read what its manifest entry vouches for: no further than {@code expected.bytes()}, each
     * block checked against its checksum ({@code blockBytes} per block) before its records are handed out.
     */
    public static LogReader open(Path file, LogManifest.Entry expected, int blockBytes) {
        try {
            return new LogReader(file, expected, blockBytes);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read validation log " + file + ": " + e.getMessage(), e);
        }
    }

    /**
     * Visits every record of {@code file}, feed records decoded into the visitor's feed methods (allocating their
     * arrays: not for hot paths); returns the number of physical records visited.
     */
    public static long forEach(Path file, LogVisitor visitor) {
        try (LogReader r = open(file)) {
            return r.forEachRaw(RecordDecoder.decoding(visitor));
        }
    }

    /**
     * Advances to the next record; false at the end of the readable log. A group (a feed record's head and its
     * continuations) is entered only when all of it can be read: a group cut at the end is not handed out.
     */
    public boolean next() {
        if (dlim - pos < LogFormat.RECORD_SIZE && !fill(LogFormat.RECORD_SIZE)) {
            return false;
        }
        if (groupLeft == 0) {
            int g = groupAt(pos);
            if (g < 0) {
                return false;
            }
            groupLeft = g - 1;
        } else {
            groupLeft--;
        }
        byte[] b = buf;
        int p = pos;
        type = LogFormat.type(b, p);
        kind = LogFormat.kind(b, p);
        action = LogFormat.action(b, p);
        item = LogFormat.item(b, p);
        start = LogFormat.start(b, p);
        end = LogFormat.end(b, p);
        value = LogFormat.value(b, p);
        pos = p + LogFormat.RECORD_SIZE;
        records++;
        return true;
    }

    /**
     * Makes the group whose head is at {@code p} (== pos) available in the buffer; returns its records, or -1 at the
     * end of the log (an invalid record, or a group cut short).
     */
    private int groupAt(int p) {
        if (!LogFormat.validTag(buf, p, version)) {
            invalidAt(p);
            return -1;
        }
        int g = version == LogFormat.VERSION_1 ? 1 : LogFormat.groupRecords(buf, p);
        if (g < 0) {
            invalidAt(p); // a continuation without its head, or a head announcing an impossible group
            return -1;
        }
        if (g > 1) {
            int need = g * LogFormat.RECORD_SIZE;
            if (dlim - pos < need && !fill(need)) {
                cutGroup();
                return -1;
            }
            p = pos;
            if (!continuationsOk(p, g)) {
                invalidAt(p);
                return -1;
            }
        }
        return g;
    }

    private boolean continuationsOk(int head, int g) {
        for (int i = 1; i < g; i++) {
            int q = head + i * LogFormat.RECORD_SIZE;
            if (LogFormat.type(buf, q) != LogFormat.TYPE_CONTINUATION
                    || LogFormat.kind(buf, q) != 0
                    || (LogFormat.action(buf, q) & 0xFF) != ((i - 1) & 0xFF)) {
                return false;
            }
        }
        return true;
    }

    /**
     * Passes every remaining record, still encoded, to {@code visitor}; returns the number passed. A group's records
     * are passed one after another, and only once all of them are in the buffer, contiguous: at its head, the
     * visitor may read the whole group from {@code buffer} (see {@link LogFormat#groupRecords}).
     */
    public long forEachRaw(RawVisitor visitor) {
        long before = records;
        if (groupLeft > 0) {
            throw new IllegalStateException("inside a group: finish it with next()");
        }
        while (dlim - pos >= LogFormat.RECORD_SIZE || fill(LogFormat.RECORD_SIZE)) {
            byte[] b = buf;
            int p = pos;
            int l = dlim;
            long n = 0;
            int wanted = 0;
            while (p + LogFormat.RECORD_SIZE <= l) {
                if (!LogFormat.validTag(b, p, version)) {
                    records += n;
                    pos = p;
                    invalidAt(p);
                    return records - before;
                }
                int g = version == LogFormat.VERSION_1 ? 1 : LogFormat.groupRecords(b, p);
                if (g < 0 || (g > 1 && p + g * LogFormat.RECORD_SIZE <= l && !continuationsOk(p, g))) {
                    records += n;
                    pos = p;
                    invalidAt(p);
                    return records - before;
                }
                if (p + g * LogFormat.RECORD_SIZE > l) {
                    wanted = g * LogFormat.RECORD_SIZE;
                    break;
                }
                for (int i = 0; i < g; i++) {
                    visitor.record(b, p);
                    p += LogFormat.RECORD_SIZE;
                }
                n += g;
            }
            records += n;
            pos = p;
            if (wanted > 0 && !fill(wanted)) {
                cutGroup();
                return records - before;
            }
        }
        return records - before;
    }

    /** The log ends inside a group (a crash, a cut file, a verified end): the group is dropped, not misread. */
    private void cutGroup() {
        long readable = Math.min(fileSize, expectedBytes);
        int avail = Math.max(0, dlim - pos);
        cutGroupRecords = avail / LogFormat.RECORD_SIZE;
        if (damage() == null) {
            long tail = readable - (bufFileOffset + pos);
            partialRecordBytes = (int) Math.max(0, tail - (long) cutGroupRecords * LogFormat.RECORD_SIZE);
            partialRecordBytes = Math.min(partialRecordBytes, LogFormat.RECORD_SIZE - 1);
        }
        done = true;
        finished = true;
        pos = dlim = lim;
    }

    private void invalidAt(int p) {
        long remaining = Math.min(fileSize, expectedBytes) - (bufFileOffset + p);
        invalidRecords = remaining / LogFormat.RECORD_SIZE;
        partialRecordBytes = (int) (remaining % LogFormat.RECORD_SIZE);
        if (checks != null && damage() == null) {
            // verified bytes that do not parse: the writer itself wrote them so (no BG writer does)
            checks.damageAt(bufFileOffset + p, "an invalid record in a block that matches its checksum");
        }
        done = true;
        finished = true;
        pos = dlim = lim;
    }

    /** Makes at least {@code need} bytes of whole records available; false (and the warnings set) at the end. */
    private boolean fill(int need) {
        while (dlim - pos < need) {
            if (done || !readMore()) {
                finish();
                return false;
            }
        }
        return true;
    }

    /** Reads more of the file into the buffer; false when nothing more can be read. */
    private boolean readMore() {
        int rest = lim - pos;
        if (rest > 0) {
            System.arraycopy(buf, pos, buf, 0, rest);
        }
        bufFileOffset += pos;
        dlim -= pos;
        pos = 0;
        lim = rest;
        long readable = Math.min(fileSize, expectedBytes);
        int want = (int) Math.min(buf.length - lim, readable - (bufFileOffset + lim));
        if (want <= 0) {
            return false;
        }
        try {
            bb.clear().position(lim).limit(lim + want);
            while (bb.hasRemaining()) {
                if (channel.read(bb) < 0) {
                    break;
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read validation log " + file + ": " + e.getMessage(), e);
        }
        int got = bb.position() - lim;
        if (got <= 0) {
            return false;
        }
        int from = lim;
        lim += got;
        if (checks != null) {
            checks.verify(buf, from, lim, bufFileOffset, lim);
            dlim = (int) Math.min(lim, checks.verifiedEnd() - bufFileOffset);
            if (damage() != null) {
                done = true;
            }
        } else {
            dlim = lim;
        }
        return true;
    }

    /** At the end of what can be read: notes a partial record, and a file shorter than the run wrote. */
    private void finish() {
        if (finished) {
            return;
        }
        finished = true;
        done = true;
        long readable = Math.min(fileSize, expectedBytes);
        if (checks != null && fileSize < expectedBytes && damage() == null) {
            checks.damageAt(
                    fileSize,
                    String.format(
                            Locale.ROOT,
                            "the file ends at byte %,d; the run wrote %s",
                            fileSize,
                            bytes(expectedBytes)));
        }
        long tail = readable - (bufFileOffset + pos);
        if (damage() == null) {
            partialRecordBytes = (int) Math.max(0, Math.min(tail, LogFormat.RECORD_SIZE - 1));
        }
    }

    private static String bytes(long n) {
        return String.format(Locale.ROOT, "%,d bytes", n);
    }

    public Path file() {
        return file;
    }

    /** Record type of the current record: {@link LogFormat#TYPE_READ}, {@code TYPE_DELTA} or {@code TYPE_ABSOLUTE}. */
    public int type() {
        return type;
    }

    public boolean isRead() {
        return type == LogFormat.TYPE_READ;
    }

    public byte kind() {
        return kind;
    }

    public byte action() {
        return action;
    }

    public long item() {
        return item;
    }

    public long start() {
        return start;
    }

    public long end() {
        return end;
    }

    /** Observed value (read), change (delta write) or new value (absolute write). */
    public long value() {
        return value;
    }

    /** Records returned so far. */
    public long records() {
        return records;
    }

    /** The file offset just after the last record returned. */
    public long deliveredEnd() {
        return LogFormat.HEADER_SIZE + records * LogFormat.RECORD_SIZE;
    }

    /**
     * When verifying: why the reader stopped short of the length the run recorded (a checksum that does not match, a
     * file cut short or emptied, a damaged header), or null. Valid once the reader has returned false.
     */
    public String damage() {
        return checks == null ? null : checks.damage();
    }

    /** The byte offset {@link #damage()} refers to, -1 when none. */
    public long damageOffset() {
        return checks == null ? -1 : checks.damageOffset();
    }

    /** Bytes of an incomplete last record that were ignored (0 if the file ends cleanly). */
    public int partialRecordBytes() {
        return partialRecordBytes;
    }

    /**
     * Records of a group (a feed record and its continuations) that the log ends inside, dropped: a writer that
     * crashed while writing it out, or a file cut there. 0 when the log ends between groups.
     */
    public int cutGroupRecords() {
        return cutGroupRecords;
    }

    /** The file's format version. */
    public int version() {
        return version;
    }

    /** Whole records skipped because an invalid tag (corruption, zero-filled tail) was met before them. */
    public long invalidRecords() {
        return invalidRecords;
    }

    /** The file is shorter than a header (a crash right after it was created). It reads as empty. */
    public boolean truncatedHeader() {
        return truncatedHeader;
    }

    public long writerId() {
        return writerId;
    }

    public long createdMillis() {
        return createdMillis;
    }

    public long createdNanos() {
        return createdNanos;
    }

    /** Size of the file when it was opened. */
    public long fileSize() {
        return fileSize;
    }

    @Override
    public void close() {
        try {
            channel.close();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot close validation log " + file + ": " + e.getMessage(), e);
        }
    }
}
