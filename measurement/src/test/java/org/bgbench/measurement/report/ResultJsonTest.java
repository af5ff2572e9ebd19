package org.bgbench.measurement.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.assertj.core.data.Offset;
import org.bgbench.measurement.Measurements;
import org.bgbench.measurement.Recorder;
import org.bgbench.measurement.RunContext;
import org.bgbench.measurement.RunResult;
import org.bgbench.measurement.Unpredictable;
import org.bgbench.measurement.resource.ResourceMonitor;
import org.bgbench.model.Action;
import org.bgbench.model.SessionType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ResultJsonTest {
    private static final List<String> KIND_KEYS = List.of(
            "count",
            "noops",
            "errors",
            "p50_ms",
            "p95_ms",
            "p99_ms",
            "p999_ms",
            "max_ms",
            "mean_ms",
            "within_beta_pct",
            "throughput",
            "bg_cpu_us",
            "bg_cpu_samples");

    static RunResult sampleResult() {
        try (Measurements m = Measurements.builder()
                .threads(50)
                .resourceMonitor(
                        ResourceMonitor.create(List.of(ProcessHandle.current().pid())))
                .build()) {
            m.startMeasuring();
            Recorder r = m.recorder(0);
            for (int i = 0; i < 500; i++) {
                r.ok(Action.VP, 200_000 + i * 1_000L);
                r.ok(Action.LF, 2_000_000 + i * 10_000L);
                r.ok(SessionType.VIEW_SELF_PROFILE.index(), 5_000_000);
                if (i % 8 == 0) {
                    // BG's CPU in a sample of the calls: 12.3 µs per VP, 45 µs per LF.
                    r.cpu(Action.VP.index(), 12_300);
                    r.cpu(Action.LF.index(), 45_000);
                }
                if (i % 10 == 0) {
                    r.noop(Action.AFR);
                    r.error(Action.PCR, 1_000_000);
                    r.bgWait(50_000);
                }
                if (i % 100 == 0) {
                    m.sample();
                }
            }
            m.stopMeasuring();
            return m.result(RunContext.empty()
                    .withWorkload(Map.of("mix", "read-only", "threads", 50))
                    .withStore(Map.of("name", "memory"))
                    .withGraph(Map.of("members", 10_000, "friends_per_member", 100))
                    .withConfig(Map.of("beta_ms", 100)));
        }
    }

    @Test
    void requiredKeysArePresent() throws Exception {
        RunResult result = sampleResult();
        JsonNode root = new ObjectMapper().readTree(ResultJson.toJson(result));
        assertThat(root.has("throughput") && root.get("throughput").isNumber()).isTrue();
        for (String key : List.of(
                "threads",
                "duration_s",
                "beta_ms",
                "actions",
                "sessions",
                "total",
                "series",
                "cpu",
                "bg_wait",
                "bottleneck_warnings",
                "workload",
                "store",
                "graph",
                "config",
                "unpredictable",
                "start_time",
                "end_time",
                "partial",
                "warmup_s",
                "histogram_config")) {
            assertThat(root.has(key)).as(key).isTrue();
        }
        List<String> actionCodes = new ArrayList<>();
        root.get("actions").fieldNames().forEachRemaining(actionCodes::add);
        assertThat(actionCodes)
                .containsExactly("VP", "LF", "VFR", "IF", "AFR", "RFR", "TF", "VTR", "VCR", "PCR", "DCR", "SR", "VNF");
        List<JsonNode> kinds = new ArrayList<>();
        root.get("actions").forEach(kinds::add);
        root.get("sessions").forEach(kinds::add);
        kinds.add(root.get("total"));
        assertThat(kinds).hasSize(Action.count() + 8 + 1);
        for (JsonNode kind : kinds) {
            for (String key : KIND_KEYS) {
                assertThat(kind.has(key)).as(key).isTrue();
            }
        }
        assertThat(root.get("actions").get("VFR").get("count").asLong()).isZero();
        assertThat(root.get("actions").get("VFR").get("p50_ms").isNull()).isTrue();
        assertThat(root.get("sessions").has("VSP")).isTrue();
        assertThat(root.get("actions").get("VP").get("bg_cpu_us").asDouble()).isCloseTo(12.3, Offset.offset(1e-9));
        assertThat(root.get("actions").get("VP").get("bg_cpu_samples").asLong()).isEqualTo(63);
        assertThat(root.get("actions").get("VFR").get("bg_cpu_us").isNull()).isTrue();
        assertThat(root.get("actions").get("VFR").get("bg_cpu_samples").asLong())
                .isZero();
        assertThat(root.get("sessions").get("VSP").get("bg_cpu_us").isNull()).isTrue();
        for (String key :
                List.of("bg_cores", "bg_us_per_action", "store_cores", "machine_cores", "bg_outside_us_per_action")) {
            assertThat(root.get("cpu").has(key)).as(key).isTrue();
        }
        assertThat(root.get("bg_wait").has("total_ms")).isTrue();
        assertThat(root.get("bg_wait").has("fraction")).isTrue();
        JsonNode point = root.get("series").get(0);
        for (String key : List.of(
                "second",
                "elapsed_s",
                "actions",
                "throughput",
                "p50_ms",
                "p95_ms",
                "p99_ms",
                "errors",
                "noops",
                "bg_cores",
                "store_cores",
                "machine_cores")) {
            assertThat(point.has(key)).as(key).isTrue();
        }
        assertThat(root.get("graph").get("members").asInt()).isEqualTo(10_000);
    }

    @Test
    void roundTripsThroughAFile(@TempDir Path dir) throws Exception {
        RunResult result = sampleResult()
                .withUnpredictable(Unpredictable.builder()
                        .readsChecked(12)
                        .unpredictableReads(0)
                        .pct(0.0)
                        .tauPct(0.01)
                        .meetsTau(true)
                        .readsSkipped(0)
                        .actions(Map.of())
                        .freshness(null)
                        .samples(List.of())
                        .validation(null)
                        .mergedFromWorkers(null)
                        .build());
        ResultWriter writer = new ResultWriter(dir.resolve("runs/run-1.json"));
        writer.write(result);
        RunResult back = writer.read();
        assertThat(back).isEqualTo(result);
        // BG's own machine is a node whenever /proc is there.
        assertThat(back.nodes()).isEqualTo(result.nodes()).hasSize(Files.isReadable(Path.of("/proc/stat")) ? 1 : 0);
        assertThat(back.actions().get("LF").histogram())
                .isEqualTo(result.actions().get("LF").histogram());
        assertThat(ResultJson.fromJson(ResultJson.toJson(result))).isEqualTo(result);
    }

    @Test
    void aFigureChangedByHandNoLongerMatchesTheChecksumButReformattingStillDoes(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("r.json");
        new ResultWriter(file).write(sampleResult());
        assertThat(ResultChecksum.check(file)).isEqualTo(ResultChecksum.Status.MATCHES);

        // Another layout, keys in another order, 12 written as 12.0: the same figures.
        ObjectMapper m = new ObjectMapper();
        JsonNode tree = m.readTree(file.toFile());
        Files.writeString(
                file,
                m.writer()
                        .with(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS)
                        .writeValueAsString(m.treeToValue(tree, TreeMap.class)));
        assertThat(ResultChecksum.check(file)).isEqualTo(ResultChecksum.Status.MATCHES);
        ((ObjectNode) tree).put("threads", 50.0);
        Files.writeString(file, m.writeValueAsString(tree));
        assertThat(ResultChecksum.check(file)).isEqualTo(ResultChecksum.Status.MATCHES);

        ((ObjectNode) tree.get("total")).put("count", 1_000_000);
        Files.writeString(file, m.writeValueAsString(tree));
        assertThat(ResultChecksum.check(file)).isEqualTo(ResultChecksum.Status.DIFFERS);
        assertThat(ResultChecksum.differs(file))
                .isEqualTo(file + ": its measured figures do not match the checksum "
                        + "it was written with (edited by hand?)");

        ((ObjectNode) tree).remove(ResultChecksum.KEY);
        Files.writeString(file, m.writeValueAsString(tree));
        assertThat(ResultChecksum.check(file)).as("a file of an older BG").isEqualTo(ResultChecksum.Status.NONE);
    }

    @Test
    void rewritingLeavesOneCompleteFile(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("result.json");
        ResultWriter writer = new ResultWriter(file);
        RunResult result = sampleResult();
        for (int i = 0; i < 5; i++) {
            writer.write(result.withWarning("rewrite " + i));
        }
        // the space reserve beside it, sized from the result, until the run gives it back
        assertThat(Files.size(writer.reserveFile())).isGreaterThanOrEqualTo(2 * Files.size(file) + ResultWriter.MARGIN);
        assertThat(writer.release()).isTrue();
        try (Stream<Path> files = Files.list(dir)) {
            assertThat(files).containsExactly(file);
        }
        assertThat(ResultJson.read(file).bottleneckWarnings()).endsWith("rewrite 4");
    }

    @Test
    void readsFilesWithUnknownKeysAndRejectsGarbage() {
        String json = ResultJson.toJson(sampleResult()).replaceFirst("\\{", "{\"future_key\": [1, 2],");
        assertThat(ResultJson.fromJson(json).total().count()).isEqualTo(1_000);
        assertThatThrownBy(() -> ResultJson.fromJson("[1,2]")).isInstanceOf(IllegalArgumentException.class);
        RunResult minimal = ResultJson.fromJson("{\"format\": \"bg-run-result/1\", \"throughput\": 5.5}");
        assertThat(minimal.throughput()).isEqualTo(5.5);
        assertThat(minimal.actions()).isEmpty();
        assertThat(minimal.withWarning("w").bottleneckWarnings()).containsExactly("w");
    }
}
