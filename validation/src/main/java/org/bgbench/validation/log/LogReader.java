package org.bgbench.validation.log;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Streams the records of one log file without allocating per record. Use it as a cursor ({@link #next()} then the
 * accessors), with a {@link LogVisitor}, or with a {@link RawVisitor} that sees the encoded bytes.
 *
 * <p>Damage a crash can leave is tolerated and counted, never thrown: a header cut short (the file reads as empty), a
 * partial last record ({@link #partialRecordBytes()}), and an invalid tag (such as a zero-filled tail), after which the
 * rest of the file is skipped ({@link #invalidRecords()}). A file that is not a validation log (wrong magic, unknown
 * version) is refused with an {@link UncheckedIOException}.
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
    private final byte[] buf = new byte[BUFFER_RECORDS * LogFormat.RECORD_SIZE];
    private final ByteBuffer bb = ByteBuffer.wrap(buf);
    private long bufFileOffset;
    private int pos;
    private int lim;
    private boolean done;

    private final boolean truncatedHeader;
    private final long writerId;
    private final long createdMillis;
    private final long createdNanos;

    private long records;
    private int partialRecordBytes;
    private long invalidRecords;

    private int type;
    private byte kind;
    private byte action;
    private long item;
    private long start;
    private long end;
    private long value;

    private LogReader(Path file) throws IOException {
        this.file = file;
        this.channel = FileChannel.open(file, StandardOpenOption.READ);
        try {
            this.fileSize = channel.size();
            if (fileSize < LogFormat.HEADER_SIZE) {
                truncatedHeader = true;
                writerId = -1;
                createdMillis = 0;
                createdNanos = 0;
                partialRecordBytes = (int) fileSize;
                done = true;
                return;
            }
            truncatedHeader = false;
            bb.clear().limit(LogFormat.HEADER_SIZE);
            while (bb.hasRemaining()) {
                if (channel.read(bb) < 0) {
                    throw new IOException("file shrank while being read");
                }
            }
            if (LogFormat.headerMagic(buf) != LogFormat.MAGIC) {
                throw new IOException("not a BG validation log (bad magic)");
            }
            int version = LogFormat.headerVersion(buf);
            if (version != LogFormat.VERSION || LogFormat.headerRecordSize(buf) != LogFormat.RECORD_SIZE) {
                throw new IOException("unsupported validation log version " + version + " (this reader knows "
                        + LogFormat.VERSION + ")");
            }
            writerId = LogFormat.headerLong(buf, 8);
            createdMillis = LogFormat.headerLong(buf, 16);
            createdNanos = LogFormat.headerLong(buf, 24);
            bufFileOffset = LogFormat.HEADER_SIZE;
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
    }

    /** Opens {@code file} and reads its header. */
    public static LogReader open(Path file) {
        try {
            return new LogReader(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read validation log " + file + ": " + e.getMessage(), e);
        }
    }

    /** Visits every record of {@code file}; returns the number visited. */
    public static long forEach(Path file, LogVisitor visitor) {
        try (LogReader r = open(file)) {
            while (r.next()) {
                visitor.record(r.type, r.kind, r.action, r.item, r.start, r.end, r.value);
            }
            return r.records;
        }
    }

    /** Advances to the next record; false at the end of the readable log. */
    public boolean next() {
        if (lim - pos < LogFormat.RECORD_SIZE && !fill()) {
            return false;
        }
        byte[] b = buf;
        int p = pos;
        if (!LogFormat.validTag(b, p)) {
            invalidAt(p);
            return false;
        }
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

    /** Passes every remaining record, still encoded, to {@code visitor}; returns the number passed. */
    public long forEachRaw(RawVisitor visitor) {
        long before = records;
        while (lim - pos >= LogFormat.RECORD_SIZE || fill()) {
            byte[] b = buf;
            int p = pos;
            int l = lim - LogFormat.RECORD_SIZE;
            long n = 0;
            while (p <= l) {
                if (!LogFormat.validTag(b, p)) {
                    records += n;
                    invalidAt(p);
                    return records - before;
                }
                visitor.record(b, p);
                p += LogFormat.RECORD_SIZE;
                n++;
            }
            records += n;
            pos = p;
        }
        return records - before;
    }

    private void invalidAt(int p) {
        long remaining = fileSize - (bufFileOffset + p);
        invalidRecords = remaining / LogFormat.RECORD_SIZE;
        partialRecordBytes = (int) (remaining % LogFormat.RECORD_SIZE);
        done = true;
        pos = lim;
    }

    /** Makes at least one whole record available; false (and the warnings set) at the end. */
    private boolean fill() {
        if (done) {
            return false;
        }
        int rest = lim - pos;
        if (rest > 0) {
            System.arraycopy(buf, pos, buf, 0, rest);
        }
        bufFileOffset += pos;
        pos = 0;
        lim = rest;
        try {
            bb.clear().position(rest);
            while (bb.hasRemaining()) {
                int n = channel.read(bb);
                if (n < 0) {
                    break;
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read validation log " + file + ": " + e.getMessage(), e);
        }
        lim = bb.position();
        if (lim < LogFormat.RECORD_SIZE) {
            partialRecordBytes = lim;
            done = true;
            return false;
        }
        return true;
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

    /** Bytes of an incomplete last record that were ignored (0 if the file ends cleanly). */
    public int partialRecordBytes() {
        return partialRecordBytes;
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
