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
 */
public final class ResultWriter {
    private final Path file;

    public ResultWriter(Path file) {
        this.file = file.toAbsolutePath();
    }

    public Path file() {
        return file;
    }

    /**
     * Serializes {@code result} and drops the bytes: a run's first serialization pays once for building Jackson's
     * serializers of the result's classes, loading classes and compiling them, which a run does in its warm-up.
     */
    public void rehearse(RunResult result) {
        ResultJson.toBytes(result);
    }

    /** Writes (or rewrites) the file; safe to call from several threads. */
    public synchronized void write(RunResult result) throws IOException {
        byte[] json = ResultJson.toBytes(result);
        Path dir = file.getParent();
        Files.createDirectories(dir);
        Path tmp = Files.createTempFile(dir, "." + file.getFileName() + ".", ".tmp");
        try {
            try (FileChannel channel = FileChannel.open(tmp, StandardOpenOption.WRITE,
                    StandardOpenOption.TRUNCATE_EXISTING)) {
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
