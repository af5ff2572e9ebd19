package org.bgbench.measurement.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.bgbench.measurement.RunResult;

/**
 * The files one command writes besides its runs' results (a sweep's JSON and CSV, a rating's reports, a scale or
 * elasticity report), each through a {@link ResultWriter} and its space reserve, so a disk that fills during the
 * command does not lose them. A file that still cannot be written is recorded, not thrown: the command prints what
 * it measured first and then {@link #errorLine}, and fails.
 */
public final class ReportFiles {
    private final Map<Path, ResultWriter> writers = new LinkedHashMap<>();
    private final List<String> failures = new ArrayList<>();
    private final Map<Path, String> failedFiles = new LinkedHashMap<>();

    /** Writes {@code text} to {@code file} (replacing it atomically); whether it was written. */
    public synchronized boolean write(Path file, String text) {
        return write(file, text.getBytes(StandardCharsets.UTF_8), "cannot write " + file);
    }

    /** Writes {@code bytes}; a file rewritten (a report after each point) counts as lost only if its last write is. */
    private boolean write(Path file, byte[] bytes, String what) {
        Path key = file.toAbsolutePath();
        ResultWriter w = writers.computeIfAbsent(key, ResultWriter::new);
        try {
            w.writeFinal(bytes);
            String earlier = failedFiles.remove(key);
            if (earlier != null) {
                failures.remove(earlier);
            }
            return true;
        } catch (IOException | RuntimeException e) {
            String why = what + ": " + e.getMessage();
            String earlier = failedFiles.put(key, why);
            if (earlier != null) {
                failures.remove(earlier);
            }
            failures.add(why);
            return false;
        }
    }

    /** Writes a run's result to {@code file}, as {@link ResultWriter#writeFinal} does; whether it was written. */
    public synchronized boolean write(Path file, RunResult result) {
        return write(file, ResultJson.toBytes(result), "cannot write the result to " + file);
    }

    /**
     * Sets space aside for {@code file} before it is first written ({@link ResultWriter#MARGIN}), so a disk that
     * fills before then does not lose it.
     */
    public synchronized void reserve(Path file) {
        writers.computeIfAbsent(file.toAbsolutePath(), ResultWriter::new).reserveFor(0);
    }

    /** Records a file written elsewhere that could not be (such as a run's result), by why. */
    public synchronized void failed(String why) {
        if (why != null) {
            failures.add(why);
        }
    }

    /** Why each file could not be written, in order. */
    public synchronized List<String> failures() {
        return List.copyOf(failures);
    }

    /**
     * The one error line after what was printed ({@code printed} names it, e.g. "the table above"), or null when
     * every file was written.
     */
    public synchronized String errorLine(String printed) {
        String why = why();
        return why == null ? null : "bg: error: " + why + "; " + printed + " is what was measured";
    }

    /** The first file not written and why, with how many more were not; null when every file was written. */
    public synchronized String why() {
        if (failures.isEmpty()) {
            return null;
        }
        return failures.get(0)
                + (failures.size() == 1
                        ? ""
                        : " (and " + (failures.size() - 1) + " more file" + (failures.size() == 2 ? "" : "s")
                                + " not written)");
    }

    /** Deletes the reserves beside the files: the command is done with them. */
    public synchronized void release() {
        writers.values().forEach(ResultWriter::release);
    }
}
