package org.bgbench.measurement.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The files one command writes besides its runs' results (a sweep's JSON and CSV, a rating's reports, a scale or
 * elasticity report), each through a {@link ResultWriter} and its space reserve, so a disk that fills during the
 * command does not lose them. A file that still cannot be written is recorded, not thrown: the command prints what
 * it measured first and then {@link #errorLine}, and fails.
 */
public final class ReportFiles {
    private final Map<Path, ResultWriter> writers = new LinkedHashMap<>();
    private final List<String> failures = new ArrayList<>();

    /** Writes {@code text} to {@code file} (replacing it atomically); whether it was written. */
    public synchronized boolean write(Path file, String text) {
        ResultWriter w = writers.computeIfAbsent(file.toAbsolutePath(), ResultWriter::new);
        try {
            w.writeFinal(text.getBytes(StandardCharsets.UTF_8));
            return true;
        } catch (IOException | RuntimeException e) {
            failed("cannot write " + file + ": " + e.getMessage());
            return false;
        }
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
        if (failures.isEmpty()) {
            return null;
        }
        String more = failures.size() == 1 ? "" : " (and " + (failures.size() - 1) + " more file"
                + (failures.size() == 2 ? "" : "s") + " not written)";
        return "bg: error: " + failures.get(0) + more + "; " + printed + " is what was measured";
    }

    /** Deletes the reserves beside the files: the command is done with them. */
    public synchronized void release() {
        writers.values().forEach(ResultWriter::release);
    }
}
