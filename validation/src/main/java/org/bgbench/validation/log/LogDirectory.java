package org.bgbench.validation.log;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;

/**
 * A directory of validation logs: one file per emulator thread, {@code thread-00000.bglog}, {@code thread-00001.bglog},
 * and so on, and once they are closed their {@link LogManifest} ({@value LogManifest#FILE}). {@link #create} makes one
 * for a run, {@link #open} reads one after the run.
 *
 * <p>A directory made by {@link #create} runs one flusher thread that writes what each writer has logged at least
 * once per flush interval (default 1 s), so the files of a process killed with SIGKILL reach to within about that much
 * of its death. It may hold a space reserve: a file of zeros that is deleted as soon as a log write fails (a full
 * disk) and when the logs are closed, so that the run can still write its result, its manifest and its expected state.
 * The first write failure stops every writer; {@link #failure()} and the manifest say why.
 */
public final class LogDirectory implements AutoCloseable {
    public static final String SUFFIX = ".bglog";
    public static final Duration DEFAULT_FLUSH_INTERVAL = Duration.ofSeconds(1);
    /** The space reserve's name; it does not end in {@value #SUFFIX}, so no reader takes it for a log. */
    static final String RESERVE = ".space-reserve";
    /** {@link #create(Path, int, Duration, long)}: reserve as much space as {@link #autoReserve} says. */
    public static final long AUTO_RESERVE = -1;

    private final Path dir;
    private final boolean writable;
    private final int bufferBytes;
    private final List<LogWriter> writers = new ArrayList<>();
    private final Map<String, LogWriter> writersByName = new HashMap<>();
    private final LogHealth health;
    private final long flushNanos;
    private volatile Path reserve;
    private Thread flusher;
    private int nextId;
    private volatile boolean closed;
    private LogManifest manifest;
    private String manifestError;
    private volatile String runId;

    private LogDirectory(Path dir, boolean writable, int bufferBytes, long flushNanos) {
        this.dir = dir;
        this.writable = writable;
        this.bufferBytes = bufferBytes;
        this.flushNanos = flushNanos;
        this.health = new LogHealth(this::releaseReserve);
    }

    /**
     * Creates {@code dir} (and its parents) for the logs of a new run, flushed every second, without a space reserve.
     *
     * @throws IllegalStateException if {@code dir} already holds log files: mixing two runs would make validation
     *                               report nonsense
     */
    public static LogDirectory create(Path dir) {
        return create(dir, LogWriter.DEFAULT_BUFFER_BYTES);
    }

    /** As {@link #create(Path)}, with the buffer size of each writer. */
    public static LogDirectory create(Path dir, int writerBufferBytes) {
        return create(dir, writerBufferBytes, DEFAULT_FLUSH_INTERVAL, 0);
    }

    /**
     * As {@link #create(Path)}, with the buffer size of each writer, the flush interval and a space reserve of
     * {@code reserveBytes} ({@link #AUTO_RESERVE}: an eighth of the free space, at least 1 MiB (at most half the free
     * space), at most 16 MiB; 0: none).
     */
    public static LogDirectory create(Path dir, int writerBufferBytes, Duration flushInterval, long reserveBytes) {
        if (flushInterval.isNegative() || flushInterval.isZero()) {
            throw new IllegalArgumentException("flush interval must be positive, not " + flushInterval);
        }
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create log directory " + dir + ": " + e.getMessage(), e);
        }
        List<Path> existing = list(dir);
        if (!existing.isEmpty() || Files.exists(dir.resolve(LogManifest.FILE))) {
            throw new IllegalStateException("log directory " + dir + " already holds " + existing.size()
                    + " log file(s)"
                    + (existing.isEmpty()
                            ? " and a manifest"
                            : " (" + existing.get(0).getFileName() + (existing.size() > 1 ? ", …" : "") + ")")
                    + " from an earlier run; give an empty directory or "
                    + "delete them");
        }
        LogDirectory d = new LogDirectory(dir, true, writerBufferBytes, flushInterval.toNanos());
        d.reserve = reserveSpace(dir, reserveBytes == AUTO_RESERVE ? autoReserve(dir) : reserveBytes);
        d.flusher = Thread.ofPlatform().daemon().name("bg-log-flusher").start(d::flushLoop);
        return d;
    }

    /** Opens an existing directory to read its logs. */
    public static LogDirectory open(Path dir) {
        if (!Files.isDirectory(dir)) {
            throw new IllegalArgumentException("log directory " + dir + " does not exist");
        }
        return new LogDirectory(dir, false, LogWriter.DEFAULT_BUFFER_BYTES, DEFAULT_FLUSH_INTERVAL.toNanos());
    }

    /** A writer for one more thread, on its own file. Thread-safe. */
    public synchronized LogWriter newWriter() {
        if (!writable) {
            throw new IllegalStateException("log directory " + dir + " was opened for reading");
        }
        if (closed) {
            throw new IllegalStateException("log directory " + dir + " is closed");
        }
        int id = nextId++;
        LogWriter w =
                LogWriter.create(dir.resolve(String.format("thread-%05d%s", id, SUFFIX)), id, bufferBytes, health);
        writers.add(w);
        writersByName.put(w.file().getFileName().toString(), w);
        return w;
    }

    /** Writes what every writer has published, every flush interval, until the directory is closed. */
    private void flushLoop() {
        long next = System.nanoTime() + flushNanos;
        while (!closed) {
            long left = next - System.nanoTime();
            if (left > 0) {
                LockSupport.parkNanos(this, left);
                continue;
            }
            next += flushNanos;
            LogWriter[] ws;
            synchronized (this) {
                ws = writers.toArray(new LogWriter[0]);
            }
            for (LogWriter w : ws) {
                if (closed) {
                    return;
                }
                w.flushPublished();
            }
        }
    }

    public Path path() {
        return dir;
    }

    /** The log files in the directory, by name. */
    public List<Path> files() {
        return list(dir);
    }

    /** The first write failure of any writer (after which all stopped), or null. */
    public String failure() {
        return health.failure();
    }

    /** The manifest written by {@link #close}, or null (not closed yet, or it could not be written). */
    public synchronized LogManifest manifest() {
        return manifest;
    }

    /** Why the manifest could not be written, or null. */
    public synchronized String manifestError() {
        return manifestError;
    }

    /**
     * Records in the directory: for the files of writers this object created, what they were given (buffered records
     * included; exact once the writers are closed or their threads have stopped), for other files what the file holds.
     */
    public synchronized long totalRecords() {
        long total = 0;
        for (Path f : files()) {
            LogWriter w = writerOf(f);
            total += w != null ? w.records() : LogFormat.recordsInFile(size(f));
        }
        return total;
    }

    /** Bytes of the logs, counted like {@link #totalRecords()}: header plus records of each file. */
    public synchronized long totalBytes() {
        long total = 0;
        for (Path f : files()) {
            LogWriter w = writerOf(f);
            total += w != null ? LogFormat.HEADER_SIZE + w.records() * LogFormat.RECORD_SIZE : size(f);
        }
        return total;
    }

    private LogWriter writerOf(Path f) {
        return writersByName.get(f.getFileName().toString());
    }

    /** Names the run that writes these logs; the manifest records it, so its logs can be told from another run's. */
    public void runId(String id) {
        this.runId = id;
    }

    /** Closes the logs of a run whose threads have all stopped; see {@link #close(String)}. */
    @Override
    public void close() {
        close(null);
    }

    /**
     * Stops the flusher, closes (and so flushes) every writer, releases the space reserve and writes the manifest.
     * Never throws for I/O: a failure is kept in {@link #failure()} or {@link #manifestError()}.
     *
     * @param unloggedWrites null when every thread that logs has stopped; otherwise why writes may be missing from the
     *                       logs (e.g. "2 threads were still inside a store call"), which the manifest records, so
     *                       that validation does not trust the logs to hold every write
     */
    public void close(String unloggedWrites) {
        LogWriter[] ws;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            ws = writers.toArray(new LogWriter[0]);
        }
        if (flusher != null) {
            LockSupport.unpark(flusher);
            try {
                flusher.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        for (LogWriter w : ws) {
            w.close();
        }
        releaseReserve();
        if (!writable) {
            return;
        }
        List<LogManifest.Entry> entries = new ArrayList<>();
        String reason = unloggedWrites;
        for (LogWriter w : ws) {
            String status = w.status();
            entries.add(LogManifest.Entry.builder()
                    .name(w.file().getFileName().toString())
                    .writerId(w.writerId())
                    .records(w.records())
                    .reads(w.reads())
                    .writes(w.writes())
                    .lastWriteEnd(w.lastWriteEnd())
                    .bytes(w.fileBytes())
                    .status(status)
                    .checksums(w.blockChecksums())
                    .build());
            if (reason == null && !"ok".equals(status)) {
                reason = health.failure() != null
                        ? "logging stopped: " + health.failure()
                        : w.file().getFileName() + ": " + status;
            }
        }
        LogManifest m = new LogManifest(
                LogManifest.now(), runId, reason == null, reason, unloggedWrites, LogWriter.BLOCK_BYTES, entries);
        try {
            m.write(dir);
            synchronized (this) {
                manifest = m;
            }
        } catch (IOException | RuntimeException e) {
            synchronized (this) {
                manifestError = "cannot write " + dir.resolve(LogManifest.FILE) + ": " + e.getMessage();
            }
        }
    }

    /** Bytes {@link #AUTO_RESERVE} sets aside in {@code dir}'s file system. */
    static long autoReserve(Path dir) {
        try {
            long usable = Files.getFileStore(dir).getUsableSpace();
            return Math.min(16L << 20, Math.max(Math.min(1L << 20, usable / 2), usable / 8));
        } catch (IOException e) {
            return 0;
        }
    }

    private static Path reserveSpace(Path dir, long bytes) {
        if (bytes <= 0) {
            return null;
        }
        Path f = dir.resolve(RESERVE);
        try (FileChannel ch = FileChannel.open(
                f, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE)) {
            ByteBuffer zeros = ByteBuffer.allocate((int) Math.min(bytes, 64 << 10));
            for (long left = bytes; left > 0; ) {
                zeros.clear().limit((int) Math.min(zeros.capacity(), left));
                left -= ch.write(zeros);
            }
            return f;
        } catch (IOException e) {
            // Too little space even for the reserve: run without it (the logs will fail early and say so).
            try {
                Files.deleteIfExists(f);
            } catch (IOException ignored) {
                // nothing more to do
            }
            return null;
        }
    }

    /** Deletes the space reserve, once: on the first write failure and when the logs are closed. */
    private void releaseReserve() {
        Path r = reserve;
        reserve = null;
        if (r != null) {
            try {
                Files.deleteIfExists(r);
            } catch (IOException e) {
                // the reserve stays; nothing else to do
            }
        }
    }

    private static long size(Path f) {
        try {
            return Files.size(f);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read size of " + f + ": " + e.getMessage(), e);
        }
    }

    private static List<Path> list(Path dir) {
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.getFileName().toString().endsWith(SUFFIX) && Files.isRegularFile(p))
                    .sorted()
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list log directory " + dir + ": " + e.getMessage(), e);
        }
    }
}
