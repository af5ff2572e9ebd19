package org.bgbench.validation.log;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.concurrent.locks.ReentrantLock;
import java.util.zip.CRC32C;
import org.bgbench.model.log.ValidationLog;

/**
 * Appends read and write log records of one emulator thread to one binary file (see {@link LogFormat}).
 *
 * <p>One writer per thread. The hot path ({@link #read}, {@link #delta}, {@link #absolute}) takes no lock and allocates
 * nothing: it encodes the record into a direct buffer (256 KiB by default) and publishes the buffer's new end with a
 * release store (a plain store on x86). The owner writes the buffer out when it is full; in between, a
 * {@link LogDirectory}'s flusher thread writes what has been published ({@link #flushPublished()}, at least once a
 * second), so a process killed with SIGKILL leaves logs that reach to within about a second of its death. The owner
 * and the flusher meet only on a per-writer lock that the owner takes when its buffer is full (once per ~7,700
 * records) and the flusher takes with {@code tryLock}, never waiting for an owner.
 *
 * <p>An I/O failure (a full disk) never reaches the caller: the writer records it, stops writing (so do the other
 * writers of its directory) and counts the records it could not keep; {@link #status()} and the directory's manifest
 * say so, and validation then reports the run as incomplete instead of convicting a store on a partial history.
 * Records given after {@link #close()} (a member thread still inside a store call when the run ended) are dropped the
 * same way, never thrown.
 *
 * <p>Every byte written is also folded into a CRC32C per {@link #BLOCK_BYTES} of the file, which the manifest keeps so
 * that validation can tell a damaged file from a good one and say where.
 *
 * <p>The item kinds it logs ({@link #FRIENDS}, {@link #PENDING}, {@link #COMMENTS}) are {@link ValidationLog}'s, the
 * interface through which the emulator, which does not depend on this module, writes to it.
 */
public final class LogWriter implements ValidationLog, AutoCloseable {
    public static final int DEFAULT_BUFFER_BYTES = 256 * 1024;
    /**
     * Records before the first drain. The JIT compiles the members' code while the warm-up runs and leaves out, as
     * never taken, any branch the warm-up did not take; a buffer first drained in the measured period threw away the
     * compiled read and write paths there (an "unstable if" in {@link #begin}) and had them compiled again on the
     * cores the store shares (docs/benchmarks.md). Drained after 32, 64, 128, … records, the buffer takes
     * that branch within the warm-up's first seconds.
     */
    static final int FIRST_LIMIT_RECORDS = 32;
    /** Bytes of the file covered by one checksum (the last block of a file may be shorter). */
    public static final int BLOCK_BYTES = 64 * 1024;

    private static final VarHandle PUBLISHED;

    static {
        try {
            PUBLISHED = MethodHandles.lookup().findVarHandle(LogWriter.class, "published", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Path file;
    private final long writerId;
    private final FileChannel channel;
    /** The owner encodes records into it with absolute puts. */
    private final ByteBuffer buffer;
    /** Bytes of {@link #buffer} usable for records (a multiple of the record size). */
    private final int capacity;

    private final LogHealth health;

    // ---- the owner thread's, plain fields
    private int pos;
    /**
     * Bytes the buffer would hold since its last drain had the dropped reads been kept: the buffer is drained by
     * this, so it drains as often in the warm-up, whose reads are dropped, as in the measured period.
     */
    private int fill;
    /** {@link #fill} past which the buffer is drained: small at first, doubled by each drain up to the capacity. */
    private int limit;

    private long records;
    private long reads;
    private long writes;
    private long drains;
    /** Index (among the records given) of the last write, -1 if none. */
    private long lastWrite = -1;
    /** 1 while reads are kept, 0 while they are dropped ({@link #keepReads}). */
    private int readKept = 1;

    /** End of the encoded records in {@link #buffer}: set by the owner with release, read by flushers with acquire. */
    @SuppressWarnings("unused")
    private int published;

    // ---- guarded by lock
    private final ReentrantLock lock = new ReentrantLock();
    /** A view of {@link #buffer} for writing it out and checksumming, used under the lock only. */
    private final ByteBuffer io;
    /** Bytes of the buffer already handed to the file (or dropped). */
    private int flushedPos;
    /** Bytes in the file, header included: exactly what the operating system accepted. */
    private long fileBytes;

    private final CRC32C crc = new CRC32C();
    private int[] blockCrcs = new int[8];
    private int blocks;
    /** This writer's own I/O failure, or null. */
    private String error;

    private volatile boolean closed;

    private LogWriter(
            Path file, long writerId, FileChannel channel, ByteBuffer buffer, LogHealth health, byte[] header) {
        this.file = file;
        this.writerId = writerId;
        this.channel = channel;
        this.buffer = buffer;
        this.capacity = buffer.capacity() - buffer.capacity() % LogFormat.RECORD_SIZE;
        this.limit = Math.min(capacity, FIRST_LIMIT_RECORDS * LogFormat.RECORD_SIZE);
        this.io = buffer.duplicate();
        this.health = health;
        this.fileBytes = header.length;
        crc.update(header, 0, header.length);
    }

    /**
     * Creates {@code file} (it must not exist), writes the header and returns a writer for it.
     *
     * @param writerId    stored in the header (the thread number)
     * @param bufferBytes buffer size; at least one record ({@value LogFormat#RECORD_SIZE} bytes)
     */
    public static LogWriter create(Path file, long writerId, int bufferBytes) {
        return create(file, writerId, bufferBytes, LogHealth.standalone());
    }

    static LogWriter create(Path file, long writerId, int bufferBytes, LogHealth health) {
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
            return new LogWriter(file, writerId, ch, buf, health, header);
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

    /** Kind of feed reads in logs and reports (see {@link LogFormat#KIND_FEED}). */
    public static final byte FEED = LogFormat.KIND_FEED;

    /**
     * A read of {@code item} that returned {@code observed}. A dropped read ({@link #keepReads}) is encoded like a
     * kept one, then its slot is given back: the same instructions run either way.
     */
    @Override
    public void read(byte action, byte kind, long item, long startNanos, long endNanos, long observed) {
        checkKind(kind);
        begin(1);
        int p = pos;
        encode(LogFormat.TYPE_READ, kind, action, item, startNanos, endNanos, observed);
        int kept = readKept;
        pos = p + (pos - p) * kept;
        publish(kept);
        reads += kept;
    }

    @Override
    public void keepReads(int kept) {
        readKept = kept & 1;
    }

    /** A write that changed {@code item} by {@code delta} (e.g. +1 friend). */
    @Override
    public void delta(byte action, byte kind, long item, long startNanos, long endNanos, long delta) {
        put(LogFormat.TYPE_DELTA, kind, action, item, startNanos, endNanos, delta);
        lastWrite = records - 1;
        writes++;
    }

    /** A write that set {@code item} to {@code value}. */
    public void absolute(byte action, byte kind, long item, long startNanos, long endNanos, long value) {
        put(LogFormat.TYPE_ABSOLUTE, kind, action, item, startNanos, endNanos, value);
        lastWrite = records - 1;
        writes++;
    }

    /** A VNF without its k (a log written by other tools): logged with k unknown (0), judged leniently. */
    public void feedRead(byte action, int member, long startNanos, long endNanos, long[] shareIds, int n) {
        feedRead(action, member, 0, startNanos, endNanos, shareIds, n);
    }

    /**
     * A VNF of member {@code member} asking for {@code k} shares that returned the first {@code n} of
     * {@code shareIds} in the store's order: one head record and ⌈n/4⌉ continuations (dissertation 6.1.2).
     */
    @Override
    public void feedRead(byte action, int member, int k, long startNanos, long endNanos, long[] shareIds, int n) {
        // n > k is logged as it is: a store that returns more than k is what validation must see
        if (n < 0 || n > shareIds.length || k < 0) {
            throw new IllegalArgumentException(
                    "feed read of " + n + " shares (k " + k + ", array of " + shareIds.length + ")");
        }
        int c = LogFormat.feedContinuations(n);
        checkGroup(c);
        int kept = readKept;
        if ((c + 1) * LogFormat.RECORD_SIZE > capacity && kept == 0) {
            return; // a group larger than the buffer is written out as it goes and cannot be given back
        }
        begin(c + 1);
        int p0 = pos;
        encode(LogFormat.TYPE_FEED_READ, LogFormat.KIND_FEED, action, member, startNanos, endNanos, (long) k << 32 | n);
        for (int i = 0; i < c; i++) {
            int p = continuation(i);
            for (int j = 0; j < 4; j++) {
                int x = 4 * i + j;
                buffer.putLong(p + LogFormat.OFF_PAYLOAD + 8 * j, x < n ? shareIds[x] : 0);
            }
        }
        pos = p0 + (pos - p0) * kept;
        publish((c + 1) * kept);
        reads += kept;
    }

    /**
     * A Share Resource of {@code account} (index: member, or M + page): a head record (share id, account, recipient
     * count) and continuations carrying the resource and the recipients (dissertation 6.1.2's two SR records).
     */
    @Override
    public void share(
            byte action, int account, long shareId, long resource, long startNanos, long endNanos, int[] recipients) {
        int r = recipients == null ? -1 : recipients.length;
        int c = LogFormat.shareContinuations(r);
        checkGroup(c);
        begin(c + 1);
        encode(
                LogFormat.TYPE_SHARE,
                LogFormat.KIND_SHARE,
                action,
                shareId,
                startNanos,
                endNanos,
                (long) account << 32 | (r & 0xFFFFFFFFL));
        for (int i = 0; i < c; i++) {
            int p = continuation(i) + LogFormat.OFF_PAYLOAD;
            // stream byte s = 32·i + o: the resource at 0..7, recipient x at 8 + 4x
            for (int o = 0; o < LogFormat.CONTINUATION_BYTES; o += 4) {
                int s = LogFormat.CONTINUATION_BYTES * i + o;
                if (s == 0) {
                    buffer.putLong(p, resource);
                    o += 4;
                    continue;
                }
                int x = (s - 8) / 4;
                buffer.putInt(p + o, x < r ? recipients[x] : 0);
            }
        }
        publish(c + 1);
        lastWrite = records - 1;
        writes++;
    }

    /** Members {@code a} and {@code b} became friends ({@code began}, AFR) or stopped being friends (TF). */
    @Override
    public void friendship(byte action, int a, int b, long startNanos, long endNanos, boolean began) {
        put(LogFormat.TYPE_FRIENDSHIP, (byte) (began ? 1 : 0), action, a, startNanos, endNanos, b);
        lastWrite = records - 1;
        writes++;
    }

    private static void checkKind(byte kind) {
        if ((kind & ~LogFormat.MAX_KIND) != 0) {
            throw new IllegalArgumentException("kind " + kind + " is not in 0.." + LogFormat.MAX_KIND);
        }
    }

    private static void checkGroup(int continuations) {
        if (continuations + 1 > LogFormat.MAX_GROUP_RECORDS) {
            throw new IllegalArgumentException(
                    "a feed record of " + (continuations + 1) + " records exceeds " + LogFormat.MAX_GROUP_RECORDS);
        }
    }

    private void put(int type, byte kind, byte action, long item, long start, long end, long value) {
        checkKind(kind);
        begin(1);
        encode(type, kind, action, item, start, end, value);
        publish(1);
    }

    /**
     * Starts a group of {@code n} records: writes the buffer out first unless the whole group fits after what it
     * holds, so that the flusher, which writes only what was published, never writes part of a group (a group larger
     * than the buffer is the exception; a crash then may cut it, and readers drop a cut group).
     */
    private void begin(int n) {
        if (fill > limit - n * LogFormat.RECORD_SIZE && fill > 0) {
            pos = drain(pos);
        }
    }

    /** Encodes a head (or single) record at the next slot. */
    private void encode(int type, byte kind, byte action, long item, long start, long end, long value) {
        int p = slot();
        ByteBuffer b = buffer;
        b.put(p, (byte) (type << 4 | kind));
        b.put(p + LogFormat.OFF_ACTION, action);
        b.putLong(p + LogFormat.OFF_ITEM, item);
        b.putLong(p + LogFormat.OFF_START, start);
        b.putLong(p + LogFormat.OFF_END, end);
        b.putLong(p + LogFormat.OFF_VALUE, value);
        pos = p + LogFormat.RECORD_SIZE;
        fill += LogFormat.RECORD_SIZE;
    }

    /** Claims the next slot for continuation {@code i}, writes its tag and index; returns its position. */
    private int continuation(int i) {
        int p = slot();
        buffer.put(p, (byte) (LogFormat.TYPE_CONTINUATION << 4));
        buffer.put(p + LogFormat.OFF_ACTION, (byte) i);
        pos = p + LogFormat.RECORD_SIZE;
        fill += LogFormat.RECORD_SIZE;
        return p;
    }

    /** Position of the next record, after writing the buffer out if it is full (only inside an oversized group). */
    private int slot() {
        int p = pos;
        if (p > capacity - LogFormat.RECORD_SIZE) {
            p = drain(p);
        }
        return p;
    }

    /** Publishes a finished group of {@code n} records. */
    private void publish(int n) {
        PUBLISHED.setRelease(this, pos);
        records += n;
    }

    /** The owner's buffer is full: writes it out and starts it over; returns the new position (0). */
    private int drain(int end) {
        lock.lock();
        try {
            writeOut(end);
            flushedPos = 0;
            PUBLISHED.setRelease(this, 0);
            pos = 0;
            fill = 0;
            limit = (int) Math.min(capacity, 2L * limit);
            drains++;
            return 0;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Writes the buffer's bytes from {@link #flushedPos} to {@code end} to the file (under the lock), or drops them
     * when this writer is closed or logging has failed. Never throws.
     */
    private void writeOut(int end) {
        int from = flushedPos;
        if (end <= from) {
            return;
        }
        flushedPos = end;
        if (closed || error != null || health.failed()) {
            return;
        }
        ByteBuffer v = io;
        v.limit(end).position(from);
        long before = fileBytes;
        try {
            while (v.hasRemaining()) {
                fileBytes += channel.write(v);
            }
        } catch (IOException | RuntimeException e) {
            error = "cannot write " + file.getFileName() + " at byte " + fileBytes + ": "
                    + (e.getMessage() == null ? "input/output error" : e.getMessage());
            health.fail(error);
        }
        checksum(from, from + (int) (fileBytes - before), before);
    }

    /** Folds the buffer's bytes [from, to), which went to the file at {@code fileOffset}, into the block checksums. */
    private void checksum(int from, int to, long fileOffset) {
        long off = fileOffset;
        while (from < to) {
            long blockEnd = (off / BLOCK_BYTES + 1) * BLOCK_BYTES;
            int n = (int) Math.min(to - from, blockEnd - off);
            io.limit(from + n).position(from);
            crc.update(io);
            from += n;
            off += n;
            if (off == blockEnd) {
                if (blocks == blockCrcs.length) {
                    blockCrcs = Arrays.copyOf(blockCrcs, blocks * 2);
                }
                blockCrcs[blocks++] = (int) crc.getValue();
                crc.reset();
            }
        }
    }

    /**
     * Writes what the owner has published to the file, unless the owner is writing its buffer out right now (then
     * there is nothing to do). Safe from any thread; this is what a directory's flusher calls every second.
     */
    void flushPublished() {
        if (!lock.tryLock()) {
            return;
        }
        try {
            writeOut((int) PUBLISHED.getAcquire(this));
        } finally {
            lock.unlock();
        }
    }

    /** Writes the buffered records to the file (the operating system's cache; no fsync). Safe from any thread. */
    public void flush() {
        lock.lock();
        try {
            writeOut((int) PUBLISHED.getAcquire(this));
        } finally {
            lock.unlock();
        }
    }

    /** How many times the owner drained the buffer (tests). */
    long drains() {
        return drains;
    }

    /** Records given so far (read from another thread, exact once the owner has stopped). */
    public long records() {
        return records;
    }

    /** Reads among {@link #records()}. */
    public long reads() {
        return reads;
    }

    /** Writes (delta or absolute) among {@link #records()}. */
    public long writes() {
        return writes;
    }

    /** The byte offset at which the last write given ends in the file, or the header's end when none was given. */
    public long lastWriteEnd() {
        return LogFormat.HEADER_SIZE + (lastWrite + 1) * LogFormat.RECORD_SIZE;
    }

    /** Whole records in the file. */
    public long flushedRecords() {
        return LogFormat.recordsInFile(fileBytes());
    }

    /** Records given but not in the file: buffered, or lost to a failure or to {@link #close()}. */
    public long lostRecords() {
        return Math.max(0, records - flushedRecords());
    }

    /** Bytes in the file, header included. */
    public long fileBytes() {
        lock.lock();
        try {
            return fileBytes;
        } finally {
            lock.unlock();
        }
    }

    /** This writer's own I/O failure, or null. */
    public String error() {
        lock.lock();
        try {
            return error;
        } finally {
            lock.unlock();
        }
    }

    /**
     * {@code ok} when every record given is in the file, else why not: {@code failed: …} (this writer's I/O
     * failure), {@code stopped: …} (another writer of the directory failed), {@code lost: …} (given after close).
     */
    public String status() {
        lock.lock();
        try {
            long lost = lostRecords();
            if (error != null) {
                return "failed: " + error + "; " + lost + " records not written";
            }
            if (lost == 0) {
                return "ok";
            }
            if (health.failed()) {
                return "stopped: logging stopped after " + health.failure() + "; " + lost + " records not written";
            }
            return closed
                    ? "lost: " + lost + " records given after the log was closed"
                    : "open: " + lost + " records still buffered";
        } finally {
            lock.unlock();
        }
    }

    /** The CRC32C of each {@link #BLOCK_BYTES} of the file, the last (possibly shorter) block included. */
    public int[] blockChecksums() {
        lock.lock();
        try {
            int[] out = Arrays.copyOf(blockCrcs, blocks + (fileBytes % BLOCK_BYTES != 0 ? 1 : 0));
            if (out.length > blocks) {
                out[blocks] = (int) crc.getValue();
            }
            return out;
        } finally {
            lock.unlock();
        }
    }

    public Path file() {
        return file;
    }

    public long writerId() {
        return writerId;
    }

    /**
     * Writes what was published and closes the file. Idempotent, safe from any thread; never throws for I/O (a
     * failure is recorded as {@link #error()}). Records given later are dropped and counted in {@link #lostRecords()}.
     */
    @Override
    public void close() {
        lock.lock();
        try {
            if (closed) {
                return;
            }
            writeOut((int) PUBLISHED.getAcquire(this));
            closed = true;
            try {
                channel.close();
            } catch (IOException e) {
                if (error == null) {
                    error = "cannot close " + file.getFileName() + ": " + e.getMessage();
                    health.fail(error);
                }
            }
        } finally {
            lock.unlock();
        }
    }

    public boolean isClosed() {
        return closed;
    }

    /** Makes the next write fail as a full disk would (tests of the failure path). */
    void breakForTest() throws IOException {
        channel.close();
    }
}
