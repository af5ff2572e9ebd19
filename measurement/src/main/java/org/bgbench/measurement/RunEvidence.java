package org.bgbench.measurement;

import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What binds a result to the evidence its run left beside it: the run's id (also written into the logs' manifest and
 * into BG's expected state) and the SHA-256 of the manifest, the expected state and the graph description, kept in the
 * result's {@code config} ({@value #RUN_ID}, {@value #EVIDENCE}). {@code bg validate} checks the files against it, so
 * another run's logs or state in the result's folder are named as such instead of being judged. Null fields: not
 * recorded (a result of an older BG, or a run that ended before that file was written).
 *
 * @param runId               the run's id
 * @param manifestSha256      of {@code logs/manifest.txt}
 * @param expectedStateSha256 of {@code expected.state}
 * @param expectedStateBytes  the length of {@code expected.state}, or -1
 * @param graphSha256         of {@code graph.json}
 */
public record RunEvidence(
        String runId, String manifestSha256, String expectedStateSha256, long expectedStateBytes, String graphSha256) {
    public static final String RUN_ID = "run_id";
    public static final String EVIDENCE = "evidence";
    private static final SecureRandom RANDOM = new SecureRandom();

    /** A fresh run id: 16 hex digits, random. */
    public static String newRunId() {
        byte[] b = new byte[8];
        RANDOM.nextBytes(b);
        return HexFormat.of().formatHex(b);
    }

    /** What {@code result} records; all fields null when it records nothing (a result of an older BG). */
    public static RunEvidence of(RunResult result) {
        Map<String, Object> c = result.config();
        String id = c.get(RUN_ID) instanceof String s ? s : null;
        if (!(c.get(EVIDENCE) instanceof Map<?, ?> e)) {
            return new RunEvidence(id, null, null, -1, null);
        }
        return new RunEvidence(
                id,
                text(e.get("manifest_sha256")),
                text(e.get("expected_state_sha256")),
                e.get("expected_state_bytes") instanceof Number n ? n.longValue() : -1,
                text(e.get("graph_sha256")));
    }

    private static String text(Object o) {
        return o instanceof String s ? s : null;
    }

    /** This evidence in {@code result}'s config. */
    public RunResult into(RunResult result) {
        Map<String, Object> config = new LinkedHashMap<>(result.config());
        config.put(RUN_ID, runId);
        Map<String, Object> e = new LinkedHashMap<>();
        e.put("manifest_sha256", manifestSha256);
        e.put("expected_state_sha256", expectedStateSha256);
        e.put("expected_state_bytes", expectedStateBytes < 0 ? null : expectedStateBytes);
        e.put("graph_sha256", graphSha256);
        config.put(EVIDENCE, e);
        return result.withContext(new RunContext(result.workload(), result.store(), result.graph(), config));
    }

    public RunEvidence withManifest(String sha256) {
        return new RunEvidence(runId, sha256, expectedStateSha256, expectedStateBytes, graphSha256);
    }

    public RunEvidence withExpectedState(String sha256, long bytes, String graph) {
        return new RunEvidence(runId, manifestSha256, sha256, bytes, graph);
    }
}
