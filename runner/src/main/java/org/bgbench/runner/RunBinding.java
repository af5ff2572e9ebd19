package org.bgbench.runner;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.bgbench.measurement.RunEvidence;
import org.bgbench.measurement.RunResult;
import org.bgbench.model.state.GraphState;
import org.bgbench.validation.log.LogManifest;

/**
 * Whether the evidence beside a result is its run's own: the logs' manifest and BG's expected state name the run that
 * wrote them, and the result records that run's id and their checksums ({@link RunEvidence}). Another run's logs or
 * state, or files changed since, are named here, so that {@code bg validate} gives an incomplete verdict instead of
 * judging the store on them. A result of an older BG records nothing and binds nothing.
 */
public final class RunBinding {
    /**
     * What the check found.
     *
     * @param state   the expected state, when it could be read and belongs to the run; else null
     * @param file    the piece that does not belong (its name in the run's directory), or null
     * @param problem what is wrong with it, or null when everything belongs to the run
     */
    public record Checked(GraphState state, String file, String problem) {}

    private RunBinding() {}

    /** Checks {@code a}'s evidence against {@code result} (null: there is no result, only the files speak). */
    public static Checked check(RunArtifacts a, RunResult result) {
        RunEvidence recorded = result == null ? null : RunEvidence.of(result);
        String want = recorded == null ? null : recorded.runId();
        Path manifestFile = a.logs().resolve(LogManifest.FILE);
        String logsRun = null;
        if (Files.isRegularFile(manifestFile)) {
            LogManifest m = null;
            try {
                m = LogManifest.read(a.logs());
            } catch (IOException e) {
                // the validator names a manifest it cannot read
            }
            if (m != null) {
                logsRun = m.run();
                String problem = manifestProblem(manifestFile, m, recorded);
                if (problem != null) {
                    return new Checked(null, LogManifest.FILE, problem);
                }
            }
        }
        if (!a.hasExpectedState()) {
            return new Checked(null, null, null);
        }
        ExpectedStateFile.Loaded loaded;
        try {
            loaded = ExpectedStateFile.load(a.dir(), recorded);
        } catch (ExpectedStateFile.BadEvidence e) {
            return new Checked(null, e.file(), e.getMessage());
        }
        if (want == null && logsRun != null && loaded.runId() != null && !logsRun.equals(loaded.runId())) {
            return new Checked(
                    null,
                    ExpectedStateFile.STATE,
                    a.dir().resolve(ExpectedStateFile.STATE) + " was "
                            + "written by run " + loaded.runId() + ", the logs by run " + logsRun
                            + ": they are not from the "
                            + "same run");
        }
        return new Checked(loaded.state(), null, null);
    }

    private static String manifestProblem(Path file, LogManifest m, RunEvidence recorded) {
        if (recorded == null || recorded.runId() == null) {
            return null;
        }
        if (!recorded.runId().equals(m.run())) {
            return file
                    + (m.run() == null
                            ? " names no run (a BG older than run ids wrote it)"
                            : " was written by run " + m.run())
                    + ", this result is run " + recorded.runId() + ": the logs are not this run's";
        }
        if (recorded.manifestSha256() != null) {
            String now;
            try {
                now = ExpectedStateFile.sha256(file);
            } catch (IOException e) {
                return file + " cannot be read: " + e.getMessage();
            }
            if (!recorded.manifestSha256().equals(now)) {
                return file + " does not match the checksum this result recorded for it: it was changed after the run";
            }
        }
        return null;
    }

    /** The SHA-256 of the manifest the run's logs closed with, or null when there is none. */
    static String manifestSha256(RunArtifacts a) {
        try {
            Path f = a.logs().resolve(LogManifest.FILE);
            return Files.isRegularFile(f) ? ExpectedStateFile.sha256(f) : null;
        } catch (IOException e) {
            return null;
        }
    }
}
