package org.bgbench.validation.log;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * A directory of validation logs: one file per emulator thread, {@code thread-00000.bglog}, {@code thread-00001.bglog},
 * and so on. {@link #create} makes one for a run, {@link #open} reads one after the run.
 */
public final class LogDirectory implements AutoCloseable {
    public static final String SUFFIX = ".bglog";

    private final Path dir;
    private final boolean writable;
    private final int bufferBytes;
    private final List<LogWriter> writers = new ArrayList<>();
    private final Map<String, LogWriter> writersByName = new HashMap<>();
    private int nextId;
    private boolean closed;

    private LogDirectory(Path dir, boolean writable, int bufferBytes) {
        this.dir = dir;
        this.writable = writable;
        this.bufferBytes = bufferBytes;
    }

    /**
     * Creates {@code dir} (and its parents) for the logs of a new run.
     *
     * @throws IllegalStateException if {@code dir} already holds log files: mixing two runs would make validation
     *                               report nonsense
     */
    public static LogDirectory create(Path dir) {
        return create(dir, LogWriter.DEFAULT_BUFFER_BYTES);
    }

    /** As {@link #create(Path)}, with the buffer size of each writer. */
    public static LogDirectory create(Path dir, int writerBufferBytes) {
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create log directory " + dir + ": " + e.getMessage(), e);
        }
        List<Path> existing = list(dir);
        if (!existing.isEmpty()) {
            throw new IllegalStateException("log directory " + dir + " already holds " + existing.size()
                    + " log file(s) (" + existing.get(0).getFileName() + (existing.size() > 1 ? ", …" : "")
                    + ") from an earlier run; give an empty directory or delete them");
        }
        return new LogDirectory(dir, true, writerBufferBytes);
    }

    /** Opens an existing directory to read its logs. */
    public static LogDirectory open(Path dir) {
        if (!Files.isDirectory(dir)) {
            throw new IllegalArgumentException("log directory " + dir + " does not exist");
        }
        return new LogDirectory(dir, false, LogWriter.DEFAULT_BUFFER_BYTES);
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
        LogWriter w = LogWriter.create(dir.resolve(String.format("thread-%05d%s", id, SUFFIX)), id, bufferBytes);
        writers.add(w);
        writersByName.put(w.file().getFileName().toString(), w);
        return w;
    }

    public Path path() {
        return dir;
    }

    /** The log files in the directory, by name. */
    public List<Path> files() {
        return list(dir);
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

    /** Closes (and so flushes) every writer this object created. Call it after the writing threads have stopped. */
    @Override
    public synchronized void close() {
        closed = true;
        RuntimeException first = null;
        for (LogWriter w : writers) {
            try {
                w.close();
            } catch (RuntimeException e) {
                if (first == null) {
                    first = e;
                } else {
                    first.addSuppressed(e);
                }
            }
        }
        if (first != null) {
            throw first;
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
