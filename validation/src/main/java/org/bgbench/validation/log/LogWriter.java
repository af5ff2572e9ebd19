package org.bgbench.validation.log;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.bgbench.model.log.ValidationLog;

/**
 * Appends read and write log records of one emulator thread to one binary file (see {@link LogFormat}).
 *
 * <p>Not thread-safe: one writer per thread. The hot path ({@link #read}, {@link #delta}, {@link #absolute}) takes no
 * lock and allocates nothing: it encodes the record into a direct buffer (256 KiB by default) that is written to the
 * file when it is full, on {@link #flush()} and on {@link #close()}. If the process dies, every record flushed so far
 * is readable; the readers ignore a partial last record and report it.
 *
 * <p>The item kinds it logs ({@link #FRIENDS}, {@link #PENDING}, {@link #COMMENTS}) are {@link ValidationLog}'s, the
 * interface through which the emulator, which does not depend on this module, writes to it.
 */
public final class LogWriter implements ValidationLog, AutoCloseable {
    public static final int DEFAULT_BUFFER_BYTES = 256 * 1024;

    private final Path file;
    private final FileChannel channel;
    private final ByteBuffer buffer;
    private long records;
    private long flushedRecords;
    private boolean closed;

    private LogWriter(Path file, FileChannel channel, ByteBuffer buffer) {
        this.file = file;
        this.channel = channel;
        this.buffer = buffer;
    }

    /**
     * Creates {@code file} (it must not exist), writes the header and returns a writer for it.
     *
     * @param writerId    stored in the header (the thread number)
     * @param bufferBytes buffer size; at least one record ({@value LogFormat#RECORD_SIZE} bytes)
     */
    public static LogWriter create(Path file, long writerId, int bufferBytes) {
        if (bufferBytes < LogFormat.RECORD_SIZE) {
            throw new IllegalArgumentException("buffer of " + bufferBytes + " bytes cannot hold one record of "
                    + LogFormat.RECORD_SIZE + " bytes");
        }
        FileChannel ch = null;
        try {
            ch = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
            byte[] header = new byte[LogFormat.HEADER_SIZE];
            LogFormat.encodeHeader(header, writerId, System.currentTimeMillis(), System.nanoTime());
            ByteBuffer hb = ByteBuffer.wrap(header);
            while (hb.hasRemaining()) {
                ch.write(hb);
            }
            ByteBuffer buf = ByteBuffer.allocateDirect(bufferBytes - bufferBytes % LogFormat.RECORD_SIZE)
                    .order(ByteOrder.LITTLE_ENDIAN);
            return new LogWriter(file, ch, buf);
        } catch (IOException e) {
            if (ch != null) {
                try {
                    ch.close();
                } catch (IOException suppressed) {
                    e.addSuppressed(suppressed);
                }
            }
            throw new UncheckedIOException("cannot create validation log " + file + ": " + e.getMessage(), e);
        }
    }

    public static LogWriter create(Path file) {
        return create(file, 0, DEFAULT_BUFFER_BYTES);
    }

    /** A read of {@code item} that returned {@code observed}. */
    @Override
    public void read(byte action, byte kind, long item, long startNanos, long endNanos, long observed) {
        put(LogFormat.TYPE_READ, kind, action, item, startNanos, endNanos, observed);
    }

    /** A write that changed {@code item} by {@code delta} (e.g. +1 friend). */
    @Override
    public void delta(byte action, byte kind, long item, long startNanos, long endNanos, long delta) {
        put(LogFormat.TYPE_DELTA, kind, action, item, startNanos, endNanos, delta);
    }

    /** A write that set {@code item} to {@code value}. */
    public void absolute(byte action, byte kind, long item, long startNanos, long endNanos, long value) {
        put(LogFormat.TYPE_ABSOLUTE, kind, action, item, startNanos, endNanos, value);
    }

    private void put(int type, byte kind, byte action, long item, long start, long end, long value) {
        if ((kind & ~LogFormat.MAX_KIND) != 0) {
            throw new IllegalArgumentException("kind " + kind + " is not in 0.." + LogFormat.MAX_KIND);
        }
        ByteBuffer b = buffer;
        if (b.remaining() < LogFormat.RECORD_SIZE) {
            flushFull();
        }
        int p = b.position();
        b.put(p, (byte) (type << 4 | kind));
        b.put(p + LogFormat.OFF_ACTION, action);
        b.putLong(p + LogFormat.OFF_ITEM, item);
        b.putLong(p + LogFormat.OFF_START, start);
        b.putLong(p + LogFormat.OFF_END, end);
        b.putLong(p + LogFormat.OFF_VALUE, value);
        b.position(p + LogFormat.RECORD_SIZE);
        records++;
    }

    private void flushFull() {
        if (closed) {
            throw new IllegalStateException("validation log " + file + " is closed");
        }
        flush();
    }

    /** Records written so far (buffered ones included). */
    public long records() {
        return records;
    }

    /** Records that reached the file. */
    public long flushedRecords() {
        return flushedRecords;
    }

    public Path file() {
        return file;
    }

    /** Writes the buffered records to the file (the operating system's cache; no fsync). */
    public void flush() {
        if (closed) {
            return;
        }
        ByteBuffer b = buffer;
        b.flip();
        try {
            while (b.hasRemaining()) {
                channel.write(b);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write validation log " + file + ": " + e.getMessage(), e);
        } finally {
            b.clear();
        }
        flushedRecords = records;
    }

    /** Flushes and closes the file. Idempotent. Writing after close throws {@link IllegalStateException}. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        try {
            flush();
        } finally {
            closed = true;
            // Any later record finds no room and calls flushFull(), which throws.
            buffer.position(buffer.limit());
            try {
                channel.close();
            } catch (IOException e) {
                throw new UncheckedIOException("cannot close validation log " + file + ": " + e.getMessage(), e);
            }
        }
    }

    public boolean isClosed() {
        return closed;
    }
}
