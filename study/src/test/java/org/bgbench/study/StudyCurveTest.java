package org.bgbench.study;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.bgbench.study.report.StudyReport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A curve figure's series are each point's curve read from its result (the medians of the repetitions' elements),
 * kept with the point so a resume redraws them without the result files, and drawn by the report with study.json's
 * numbers; a scale's setting keys reach the group and are listed as deviations.
 */
class StudyCurveTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern OURS = Pattern.compile(
            "<circle class=\"ours\"[^>]*data-series=\"([^\"]*)\" data-x=\"([^\"]*)\" data-y=\"([^\"]*)\"");

    @TempDir
    Path dir;

    private final Study study = StudyParser.parse("t.yaml", StudyFiles.curve("x", "x"));

    /** Buckets of 100 ms (101 for r2): the first has no reads, then p at most = T/10 + repetition/100 + i/10. */
    private static PointExecutor executor() {
        return (group, keys, times) -> new PointExecutor.Session() {
            @Override
            public PointExecutor.Outcome run(StudyPlan.Point p, Path result) throws Exception {
                StringBuilder b = new StringBuilder("[{\"from_ms\": 0, \"to_ms\": 100, \"p_at_most\": null}");
                for (int i = 1; i <= 3; i++) {
                    double to = (i + 1) * (p.repetition() == 1 ? 100 : 101);
                    double y = p.threads() / 10.0 + p.repetition() / 100.0 + i / 10.0;
                    b.append(", {\"to_ms\": ")
                            .append(to)
                            .append(", \"p_at_most\": ")
                            .append(y)
                            .append('}');
                }
                Files.createDirectories(result.getParent());
                Files.writeString(
                        result, "{\"throughput\": 10, \"unpredictable\": {\"freshness\": {\"buckets\": " + b + "]}}}");
                return PointExecutor.Outcome.done();
            }

            @Override
            public void close() {}
        };
    }

    private void run(boolean resume) throws Exception {
        StudyPlan plan = StudyPlan.of(study, Scale.TINY, List.of());
        String[] started = {null};
        Map<String, PointRecord> done = resume ? StudyRun.resumable(plan, dir, started) : Map.of();
        new StudyRun(
                        plan,
                        dir,
                        executor(),
                        StudyReport::write,
                        "bg study run t.yaml",
                        new PrintWriter(new StringWriter()))
                .run(done, started[0]);
    }

    private JsonNode fresh() throws Exception {
        return JSON.readTree(dir.resolve("study.json").toFile()).path("figures").get(1);
    }

    @Test
    void eachSeriesIsOnePointsCurveAndTheReportDrawsStudyJsonsNumbers() throws Exception {
        run(false);
        JsonNode f = fresh();
        assertThat(f.path("curve").asText()).isEqualTo("/unpredictable/freshness/buckets");
        assertThat(f.path("series"))
                .extracting(s -> s.path("name").asText())
                .containsExactly("sqlite vp", "sqlite high");
        JsonNode pts = f.path("series").get(0).path("points");
        // the bucket without reads is left out; x and y are the medians of r1 and r2 (T=2: y = 0.2 + r/100 + i/10)
        assertThat(pts).hasSize(3);
        assertThat(pts.get(0).path("x").asDouble()).isEqualTo(201.0);
        assertThat(pts.get(0).path("y").asDouble()).isCloseTo(0.315, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(pts.get(0).path("runs")).extracting(JsonNode::asDouble).hasSize(2);
        assertThat(pts.get(0).path("results"))
                .extracting(JsonNode::asText)
                .containsExactly("points/sqlite_vp_T=2_r1.json", "points/sqlite_vp_T=2_r2.json");

        StringBuilder drawnJson = new StringBuilder();
        JSON.readTree(dir.resolve("study.json").toFile())
                .path("figures")
                .forEach(fig -> fig.path("series")
                        .forEach(s -> s.path("points")
                                .forEach(p -> drawnJson
                                        .append(s.path("name").asText())
                                        .append(" @")
                                        .append(p.path("x").asDouble())
                                        .append(" = ")
                                        .append(p.path("y").asDouble())
                                        .append('\n'))));
        StringBuilder drawn = new StringBuilder();
        Matcher m = OURS.matcher(Files.readString(dir.resolve("report.html")));
        while (m.find()) {
            drawn.append(m.group(1))
                    .append(" @")
                    .append(Double.parseDouble(m.group(2)))
                    .append(" = ")
                    .append(Double.parseDouble(m.group(3)))
                    .append('\n');
        }
        assertThat(drawn.toString().lines().sorted().toList())
                .isEqualTo(drawnJson.toString().lines().sorted().toList());

        // A resume redraws the curves from study.json alone.
        String before = f.toString();
        try (var files = Files.list(dir.resolve("points"))) {
            for (Path p : files.toList()) {
                Files.delete(p);
            }
        }
        run(true);
        assertThat(fresh().toString()).isEqualTo(before);
    }

    @Test
    void aScalesSettingKeysReachTheGroupAndAreDeviations() {
        Study s = StudyParser.parse("t.yaml", StudyFiles.settings("settings: {a: {ttl: 100ms}}"));
        StudyPlan tiny = StudyPlan.of(s, Scale.TINY, List.of());
        assertThat(tiny.groups().getFirst().keys()).containsEntry("ttl", "100ms");
        assertThat(StudyPlan.of(s, Scale.PAPER, List.of()).groups().getFirst().keys())
                .containsEntry("ttl", "30s");
        assertThat(tiny.deviations()).contains("a: ttl=100ms (paper: 30s)");
    }
}
