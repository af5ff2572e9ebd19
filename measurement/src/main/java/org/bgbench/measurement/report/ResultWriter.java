package org.bgbench.measurement.report;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import org.bgbench.measurement.RunResult;

/**
 * Writes a result file atomically: the JSON goes to a temporary file in the same directory, is forced to disk, and is
 * renamed over the target. Readers see the old or the new file, never a torn one, so calling {@link #write} every
 * few seconds during a run keeps what was measured even if the process dies.
 *
 * <p>Beside the result it keeps a space reserve, {@code .X.json.reserve}, sized from the result itself (twice its
 * last size and {@link #MARGIN}: the final result is a little larger than the partial ones, and is written while the
 * previous one is still there). {@link #writeFinal} frees it when the disk is full, so the measured result is
 * written even when something else filled the disk during the run; {@link #release} deletes it.
 */
public final class ResultWriter {
    /** What the reserve holds beyond twice the result's size: the seconds and the verdict a final result adds. */
    public static final int MARGIN = 128 << 10;

    private static final byte[] ZEROS = new byte[64 << 10];
    private final Path file;
    private final Path reserve;
    private long reserved;

    public ResultWriter(Path file) {
        this.file = file.toAbsolutePath();
        this.reserve = this.file.resolveSibling("." + this.file.getFileName() + ".reserve");
    }

    public Path file() {
        return file;
    }

    /**
     * Serializes {@code result} and drops the bytes: a run's first serialization pays once for building Jackson's
     * serializers of the result's classes, loading classes and compiling them, which a run does in its warm-up.
     */
    public void rehearse(RunResult result) {
        reserveFor(ResultJson.toBytes(result).length);
    }

    /** Writes (or rewrites) the file, then grows the reserve to its size; safe to call from several threads. */
    public synchronized void write(RunResult result) throws IOException {
        byte[] json = ResultJson.toBytes(result);
        writeBytes(json);
        reserveFor(json.length);
    }

    /**
     * Writes the measured result; when the disk is full, frees the reserve and tries again, so the disk filling
     * during the run does not lose it. The reserve is made again afterwards (as far as there is room) for a later
     * rewrite, such as the result with its validation's verdict.
     */
    public synchronized void writeFinal(RunResult result) throws IOException {
        writeFinal(ResultJson.toBytes(result));
    }

    /**
     * The same for a file that is not a run's result (a sweep's points, a rating's report, a scale report): written
     * atomically, through the reserve when the disk is full, and the reserve grown to its size afterwards.
     */
    public synchronized void writeFinal(byte[] json) throws IOException {
        try {
            writeBytes(json);
        } catch (IOException e) {
            if (!release()) {
                throw e;
            }
            writeBytes(json);
        }
        reserveFor(json.length);
    }

    /**
     * Grows the reserve to twice {@code resultBytes} and {@link #MARGIN} as far as the disk has room; a reserve it
     * cannot complete keeps what it got.
     */
    public synchronized void reserveFor(int resultBytes) {
        long want = 2L * resultBytes + MARGIN;
        if (reserved >= want && Files.isRegularFile(reserve)) {
            return;
        }
        try {
            Files.createDirectories(file.getParent());
            try (FileChannel channel = FileChannel.open(reserve, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
                long size = channel.size();
                channel.position(size);
                // real bytes, not a sparse length: only written blocks are the file system's to give back
                while (size < want) {
                    ByteBuffer zeros = ByteBuffer.wrap(ZEROS, 0, (int) Math.min(ZEROS.length, want - size));
                    size += channel.write(zeros);
                }
                reserved = size;
            }
        } catch (IOException e) {
            try {
                reserved = Files.exists(reserve) ? Files.size(reserve) : 0;
            } catch (IOException ignored) {
                reserved = 0;
            }
        }
    }

    /** Deletes the reserve; whether there was one. */
    public synchronized boolean release() {
        reserved = 0;
        try {
            return Files.deleteIfExists(reserve);
        } catch (IOException e) {
            return false;
        }
    }

    /** The reserve beside the result ({@code .X.json.reserve}). */
    public Path reserveFile() {
        return reserve;
    }

    private void writeBytes(byte[] json) throws IOException {
        Path dir = file.getParent();
        Files.createDirectories(dir);
        Path tmp = Files.createTempFile(dir, "." + file.getFileName() + ".", ".tmp");
        try {
            try (FileChannel channel =
                    FileChannel.open(tmp, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
                ByteBuffer buffer = ByteBuffer.wrap(json);
                while (buffer.hasRemaining()) {
                    channel.write(buffer);
                }
                // Data on disk before the rename, else a crash could leave an empty file under the final name.
                channel.force(true);
            }
            try {
                Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    /** Reads the file back. */
    public RunResult read() throws IOException {
        return ResultJson.read(file);
    }
}
