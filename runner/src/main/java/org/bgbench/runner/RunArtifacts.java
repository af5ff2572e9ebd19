package org.bgbench.runner;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.bgbench.measurement.RunEvidence;
import org.bgbench.measurement.RunResult;
import org.bgbench.measurement.report.ResultJson;
import org.bgbench.model.InvalidParameterException;
import org.bgbench.model.state.GraphState;
import org.bgbench.validation.log.LogDirectory;
import org.bgbench.validation.log.LogWriter;

/**
 * What a run leaves beside its result {@code X.json}: its per-second latency histograms {@code X.hlog}
 * ({@link #hlogFor}), and in the directory {@code X/} the validation logs ({@code logs/}), the graph
 * ({@code graph.json}) and BG's expected state at the end of the run ({@code expected.state}), which is everything
 * {@code bg validate} needs to check the run again later.
 */
public record RunArtifacts(Path result, Path dir) {
    public static RunArtifacts forResult(Path result) {
        String name = result.getFileName().toString();
        String stem = name.endsWith(".json") ? name.substring(0, name.length() - 5) : name + ".run";
        Path parent = result.toAbsolutePath().getParent();
        return new RunArtifacts(result, parent.resolve(stem));
    }

    /**
     * The HdrHistogram interval log beside a result: {@code X.hlog} for {@code X.json} (for a name without
     * {@code .json}, the name with {@code .hlog} appended).
     */
    public static Path hlogFor(Path result) {
        String name = result.getFileName().toString();
        String stem = name.endsWith(".json") ? name.substring(0, name.length() - 5) : name;
        return result.toAbsolutePath().resolveSibling(stem + ".hlog");
    }

    /** This run's HdrHistogram interval log ({@link #hlogFor}). */
    public Path hlog() {
        return hlogFor(result);
    }

    /**
     * Moves an earlier run's result {@code X.json}, its interval log {@code X.hlog} and its directory {@code X/} aside
     * to {@code X.N.json}, {@code X.N.hlog} and {@code X.N/} (the first N free), so running the same command again
     * neither fails nor loses what was measured. Returns the earlier result's new name (the name it would have when
     * only its log or directory was there), or null when there was none. Only what {@link OutputGuard#runResult}
     * recognises as an earlier run's is moved; anything else at those paths is refused.
     */
    public static Path keepEarlier(Path result) {
        OutputGuard.runResult("--out", result);
        RunArtifacts a = forResult(result);
        Path hlog = hlogFor(result);
        if (!Files.exists(result) && !Files.exists(a.dir()) && !Files.exists(hlog)) {
            return null;
        }
        String name = result.getFileName().toString();
        String stem = name.endsWith(".json") ? name.substring(0, name.length() - 5) : name;
        String ext = name.endsWith(".json") ? ".json" : "";
        Path parent = a.dir().getParent();
        for (int n = 1; ; n++) {
            Path file = parent.resolve(stem + "." + n + ext);
            Path dir = parent.resolve(stem + "." + n + (ext.isEmpty() ? ".run" : ""));
            Path log = hlogFor(file);
            if (Files.exists(file) || Files.exists(dir) || Files.exists(log)) {
                continue;
            }
            try {
                if (Files.exists(a.dir())) {
                    Files.move(a.dir(), dir);
                }
                if (Files.exists(hlog)) {
                    Files.move(hlog, log);
                }
                if (Files.exists(result)) {
                    Files.move(result, file);
                }
            } catch (IOException e) {
                throw new UncheckedIOException(
                        "cannot move the earlier run at " + result + " aside: " + e.getMessage(), e);
            }
            return file;
        }
    }

    /**
     * A result file or its artifact directory, as a user names it to {@code bg validate}; also the result of a run
     * that was killed before it wrote one, when its directory is there.
     *
     * @throws InvalidParameterException when there are no logs to validate, saying why (validation was off, the logs
     *                                   were deleted, the directory is gone)
     */
    public static RunArtifacts find(Path path) {
        Path p = path.toAbsolutePath();
        RunArtifacts a;
        if (Files.isDirectory(p)) {
            a = new RunArtifacts(p.resolveSibling(p.getFileName() + ".json"), p);
        } else if (Files.isRegularFile(p) || Files.isDirectory(forResult(p).dir())) {
            a = forResult(p);
        } else {
            throw new InvalidParameterException("RUN", "no such result file or run directory: " + path);
        }
        if (!Files.isDirectory(a.logs())) {
            throw new InvalidParameterException(
                    "RUN",
                    "there are no validation logs to check: " + (Files.isDirectory(a.dir) ? a.logs() : a.dir)
                            + " does not exist. " + whyNoLogs(a));
        }
        return a;
    }

    /** Why a run has no logs, as far as its result tells. */
    private static String whyNoLogs(RunArtifacts a) {
        if (!Files.isRegularFile(a.result)) {
            return "Its result " + a.result + " is not there either: the run was moved or deleted.";
        }
        RunResult r;
        try {
            r = ResultJson.read(a.result);
        } catch (IOException e) {
            return "Its result cannot tell why: " + e.getMessage();
        }
        if (r.unpredictable() != null && !r.unpredictable().verdictComplete()) {
            return "The run could not validate its reads: " + r.unpredictable().incompleteReason() + ".";
        }
        if (r.unpredictable() == null) {
            return "The run was made with validation=false (or enablelogging=false), so it logged nothing to check.";
        }
        return "The run was validated when it ended (its result holds the verdict); its logs were deleted since "
                + "(-p keeplogs=false deletes them after a complete validation) or moved.";
    }

    /** Whether BG's expected state at the end of the run was saved (a run killed before its end has none). */
    public boolean hasExpectedState() {
        return Files.isRegularFile(dir.resolve(ExpectedStateFile.STATE))
                && Files.isRegularFile(dir.resolve(ExpectedStateFile.GRAPH));
    }

    public Path logs() {
        return dir.resolve("logs");
    }

    /**
     * Logs for {@code threads} writers, whose buffers share about 64 MiB (thousands of virtual threads), flushed every
     * second, with a space reserve that a full disk releases so the result can still be written.
     */
    public LogDirectory createLogs(int threads) {
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + dir + ": " + e.getMessage(), e);
        }
        return LogDirectory.create(
                logs(), logBufferBytes(threads), LogDirectory.DEFAULT_FLUSH_INTERVAL, LogDirectory.AUTO_RESERVE);
    }

    /** Each thread's validation log buffer in a run of {@code threads}: 64 MiB shared, from 8 KiB to 256 KiB each. */
    static int logBufferBytes(int threads) {
        return (int) Math.max(8 << 10, Math.min(LogWriter.DEFAULT_BUFFER_BYTES, (64L << 20) / Math.max(1, threads)));
    }

    /**
     * Saves BG's expected state at the end of the run {@code evidence} names, beside its logs ({@link ExpectedStateFile}) and returns
     * {@code evidence} with the files' checksums, for the result to record.
     */
    public RunEvidence saveExpectedState(GraphState state, RunEvidence evidence) {
        try {
            ExpectedStateFile.Saved saved = ExpectedStateFile.save(dir, state, evidence.runId());
            return evidence.withExpectedState(saved.stateSha256(), saved.stateBytes(), saved.graphSha256());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot save the expected state in " + dir + ": " + e.getMessage(), e);
        }
    }

    /** {@code evidence} with the checksum of the manifest the logs closed with (unchanged when there is none). */
    public RunEvidence withManifest(RunEvidence evidence) {
        String sha = RunBinding.manifestSha256(this);
        return sha == null ? evidence : evidence.withManifest(sha);
    }
}
