package org.bgbench.study;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The run's bookkeeping, with an executor that writes result files of known figures (the stores' side is tested with
 * real stores in cli): a store that cannot start fails its points with the reason, a failed point is measured again
 * by a resume, and a run of some stores keeps the others' points.
 */
class StudyRunTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private final Study study = StudyParser.parse(
            "t.yaml", StudyFiles.with("graph: {zipfianmean", "  - {store: memory, starts: true}\ngraph: {zipfianmean"));
    private final List<String> ran = new ArrayList<>();

    /** Writes a result whose throughput is 100 × T + repetition, unless the store is one that does not start. */
    private PointExecutor executor(String failingStore) {
        return (group, keys, times) -> {
            if (group.store().id().equals(failingStore)) {
                throw new IllegalStateException("the server did not start\nsecond line");
            }
            return new PointExecutor.Session() {
                @Override
                public PointExecutor.Outcome run(StudyPlan.Point p, Path result) throws Exception {
                    ran.add(p.key());
                    Files.createDirectories(result.getParent());
                    Files.writeString(
                            result,
                            "{\"throughput\": " + (100 * p.threads() + p.repetition())
                                    + ", \"total\": {\"p95_ms\": 2.5}}");
                    return PointExecutor.Outcome.done();
                }

                @Override
                public void close() {}
            };
        };
    }

    private StudyRun.Ending run(List<String> stores, String failing, boolean resume) throws Exception {
        StudyPlan plan = StudyPlan.of(study, Scale.TINY, stores);
        String[] started = {null};
        Map<String, PointRecord> done = resume ? StudyRun.resumable(plan, dir, started) : Map.of();
        return new StudyRun(
                        plan,
                        dir,
                        executor(failing),
                        StudyReportWriter.NONE,
                        "bg study run t.yaml",
                        new PrintWriter(new StringWriter()))
                .run(done, started[0]);
    }

    private JsonNode doc() throws Exception {
        return JSON.readTree(dir.resolve("study.json").toFile());
    }

    @Test
    void aStoreThatCannotStartFailsItsPointsAndAResumeMeasuresThem() throws Exception {
        assertThat(run(List.of(), "memory", false)).isEqualTo(StudyRun.Ending.FAILURES);
        JsonNode d = doc();
        assertThat(d.path("complete").asBoolean()).isFalse();
        assertThat(d.path("points")).hasSize(16);
        JsonNode failed = d.path("points").get(8);
        assertThat(failed.path("key").asText()).isEqualTo("memory/vp/T=1/r1");
        assertThat(failed.path("status").asText()).isEqualTo("failed");
        assertThat(failed.path("error").asText()).isEqualTo("the server did not start");
        assertThat(ran).hasSize(8);

        ran.clear();
        assertThat(run(List.of(), null, true)).isEqualTo(StudyRun.Ending.COMPLETE);
        assertThat(ran).hasSize(8).allMatch(k -> k.startsWith("memory/"));
        assertThat(doc().path("complete").asBoolean()).isTrue();
        JsonNode series = doc().path("figures").get(0).path("series");
        assertThat(series)
                .extracting(s -> s.path("name").asText())
                .containsExactly("sqlite vp", "sqlite high", "memory vp", "memory high");
        // T=2: runs 201 and 202, median 201.5
        JsonNode t2 = series.get(0).path("points").get(1);
        assertThat(t2.path("runs")).extracting(JsonNode::asDouble).containsExactly(201.0, 202.0);
        assertThat(t2.path("y").asDouble()).isEqualTo(201.5);
        assertThat(Files.readAllLines(dir.resolve("throughput.csv")))
                .contains("sqlite vp,2,201.5000,201.0000,202.0000");
    }

    @Test
    void aRunOfSomeStoresKeepsTheOthersPoints() throws Exception {
        run(List.of("sqlite"), null, false);
        // Every planned point is listed; the other store's are still to measure.
        assertThat(doc().path("points")).hasSize(16);
        assertThat(doc().path("points").findValuesAsText("status"))
                .containsOnly("done", "pending")
                .filteredOn("pending"::equals)
                .hasSize(8);
        assertThat(doc().path("complete").asBoolean()).isFalse();
        run(List.of("memory"), null, true);
        assertThat(doc().path("points")).hasSize(16);
        assertThat(doc().path("complete").asBoolean()).isTrue();
        assertThat(ran).hasSize(16).doesNotHaveDuplicates();
    }
}
