package org.bgbench.runner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Path;
import java.util.Map;
import org.bgbench.emulator.EmulatorConfig;
import org.bgbench.measurement.CpuResult;
import org.bgbench.measurement.KindResult;
import org.bgbench.measurement.RunResult;
import org.bgbench.measurement.report.ResultJson;
import org.bgbench.measurement.report.SummaryPrinter;
import org.bgbench.model.GraphSpec;
import org.bgbench.model.generator.SocialGraph;
import org.bgbench.model.state.GraphState;
import org.bgbench.store.DataStore;
import org.bgbench.store.StoreSettings;
import org.bgbench.store.conformance.StoreConformanceSuite;
import org.bgbench.store.memory.MemoryStoreProvider;
import org.bgbench.workload.WorkloadParameters;
import org.bgbench.workload.WorkloadSpec;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run's result reports BG's CPU per action: every action that ran has {@code bg_cpu_us} from a sample of its store
 * calls, sessions have none, and {@code cpu.bg_outside_us_per_action} is what is left of {@code bg_us_per_action}.
 */
class BgCpuPerActionRunTest {
    private static final SocialGraph GRAPH = new SocialGraph(GraphSpec.builder()
            .members(400)
            .friendsPerMember(10)
            .resourcesPerMember(5)
            .commentsPerResource(2)
            .confirmedFraction(0.8)
            .attributeCount(4)
            .attributeLength(6)
            .commentLength(20)
            .fragments(4)
            .seed(3)
            .build());

    @TempDir
    Path dir;

    @Test
    void aRunOnPlatformThreadsReportsBgsCpuPerActionInItsResult() throws Exception {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        Assumptions.assumeTrue(
                threads.isCurrentThreadCpuTimeSupported() && threads.isThreadCpuTimeEnabled(),
                "this JVM has no thread CPU clock");
        Path out = dir.resolve("cpu.json");
        try (DataStore store = new MemoryStoreProvider().open(StoreSettings.of(Map.of("memory.name", "bg-cpu")))) {
            StoreConformanceSuite.load(store, GRAPH, 2);
            WorkloadSpec ws = WorkloadParameters.toSpec(Map.of("mix", "high"));
            // 40,000 requests after 1,000 of warm-up: the high mix's rarest actions (2 %) run ~800 times each.
            ExperimentSpec spec = ExperimentSpec.of(
                            ws, null, 40_000L, "1000", EmulatorConfig.ThreadKind.PLATFORM, null, null)
                    .withThreads(2);
            Experiment.run(new Experiment.Setup(
                    new Experiment.Subject(store, "memory", Map.of()),
                    new GraphState(GRAPH),
                    ws,
                    spec,
                    new Experiment.Output(out, null)));
        }
        RunResult r = ResultJson.read(out);
        assertThat(r.total().count()).isPositive();
        int ran = 0;
        double weighted = 0;
        long counted = 0;
        for (Map.Entry<String, KindResult> e : r.actions().entrySet()) {
            KindResult k = e.getValue();
            long calls = k.count() + k.errors() + k.stuck();
            if (calls == 0) {
                assertThat(k.bgCpuSamples()).as(e.getKey()).isZero();
                assertThat(k.bgCpuUs()).as(e.getKey()).isNull();
                continue;
            }
            ran++;
            assertThat(calls)
                    .as("%s ran often enough to be sampled surely", e.getKey())
                    .isGreaterThanOrEqualTo(200);
            assertThat(k.bgCpuSamples()).as(e.getKey()).isPositive().isLessThanOrEqualTo(calls);
            assertThat(k.bgCpuUs())
                    .as("%s µs of BG CPU per call", e.getKey())
                    .isNotNull()
                    .isGreaterThan(0.0)
                    .isLessThan(100_000.0);
            weighted += k.bgCpuUs() * k.count();
            counted += k.count();
        }
        assertThat(ran).as("the high mix's eight actions").isEqualTo(8);
        assertThat(r.sessions().values()).allSatisfy(s -> {
            assertThat(s.bgCpuSamples()).isZero();
            assertThat(s.bgCpuUs()).isNull();
        });
        assertThat(r.total().bgCpuSamples())
                .isEqualTo(r.actions().values().stream()
                        .mapToLong(KindResult::bgCpuSamples)
                        .sum());
        assertThat(r.total().bgCpuUs()).isNotNull().isPositive();

        CpuResult cpu = r.cpu();
        assertThat(cpu.bgUsPerAction()).isNotNull();
        assertThat(cpu.bgOutsideUsPerAction())
                .isNotNull()
                // Never negative: the process's CPU and the sampled calls' thread CPU are two clocks.
                .isCloseTo(Math.max(0, cpu.bgUsPerAction() - weighted / counted), within(1e-6));

        JsonNode json = new ObjectMapper().readTree(out.toFile());
        assertThat(json.get("actions").get("VP").has("bg_cpu_us")).isTrue();
        assertThat(json.get("cpu").get("bg_outside_us_per_action").isNumber()).isTrue();
        String summary = SummaryPrinter.summary(r);
        assertThat(summary).contains("BG µs").contains("outside calls");
    }
}
