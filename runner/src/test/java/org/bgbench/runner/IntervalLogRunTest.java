package org.bgbench.runner;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogProcessor;
import org.HdrHistogram.HistogramLogReader;
import org.bgbench.emulator.EmulatorConfig;
import org.bgbench.measurement.KindResult;
import org.bgbench.measurement.RunResult;
import org.bgbench.measurement.report.IntervalLog;
import org.bgbench.measurement.report.ResultJson;
import org.bgbench.model.GraphSpec;
import org.bgbench.model.generator.SocialGraph;
import org.bgbench.model.state.GraphState;
import org.bgbench.store.DataStore;
import org.bgbench.store.StoreSettings;
import org.bgbench.store.conformance.StoreConformanceSuite;
import org.bgbench.store.memory.MemoryStoreProvider;
import org.bgbench.workload.WorkloadParameters;
import org.bgbench.workload.WorkloadSpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every experiment leaves {@code X.hlog} beside {@code X.json}: HdrHistogram's reader reads it back with the result's
 * counts per action and session (tags) and of all actions (untagged), its processor prints its percentiles, and
 * running the same result name again moves it aside with the earlier result.
 */
class IntervalLogRunTest {
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

    /** Totals per tag ("" for the untagged histograms), and into {@code intervals} the intervals per tag. */
    static Map<String, Long> hlogTotals(Path file, Map<String, Integer> intervals) throws Exception {
        Map<String, Long> totals = new LinkedHashMap<>();
        try (HistogramLogReader reader = new HistogramLogReader(file.toFile())) {
            EncodableHistogram e;
            while ((e = reader.nextIntervalHistogram()) != null) {
                Histogram h = (Histogram) e;
                String tag = h.getTag() == null ? "" : h.getTag();
                totals.merge(tag, h.getTotalCount(), Long::sum);
                if (intervals != null) {
                    intervals.merge(tag, 1, Integer::sum);
                }
            }
        }
        return totals;
    }

    /** Asserts that the log's totals are the result's: per kind count + stuck, untagged the actions'. */
    static void assertAddsUp(Path hlog, RunResult result) throws Exception {
        Map<String, Long> totals = hlogTotals(hlog, null);
        Map<String, KindResult> kinds = new LinkedHashMap<>(result.actions());
        kinds.putAll(result.sessions());
        kinds.forEach((code, k) -> assertThat(totals.getOrDefault(code, 0L))
                .as(code + " in " + hlog)
                .isEqualTo(k.count() + k.stuck()));
        assertThat(kinds.keySet())
                .containsAll(totals.keySet().stream().filter(t -> !t.isEmpty()).toList());
        assertThat(totals.getOrDefault("", 0L))
                .as("untagged: all actions")
                .isEqualTo(result.total().count() + result.total().stuck());
    }

    @Test
    void anExperimentWritesAnHlogWhoseTotalsAreItsResults() throws Exception {
        Path out = dir.resolve("logged.json");
        Experiment.Outcome o;
        try (DataStore store = new MemoryStoreProvider().open(StoreSettings.of(Map.of("memory.name", "hlog")))) {
            StoreConformanceSuite.load(store, GRAPH, 2);
            WorkloadSpec ws = WorkloadParameters.toSpec(Map.of("mix", "high"));
            ExperimentSpec spec = ExperimentSpec.timed(
                    ws,
                    2,
                    Duration.ofSeconds(2),
                    Duration.ofSeconds(1),
                    EmulatorConfig.ThreadKind.PLATFORM,
                    Duration.ofMillis(100),
                    null);
            o = Experiment.run(new Experiment.Setup(
                    new Experiment.Subject(store, "memory", Map.of()),
                    new GraphState(GRAPH),
                    ws,
                    spec,
                    new Experiment.Output(out, null)));
        }
        Path hlog = dir.resolve("logged.hlog");
        assertThat(RunArtifacts.hlogFor(out)).isEqualTo(hlog);
        assertThat(hlog).isRegularFile();
        RunResult onDisk = ResultJson.read(out);
        assertThat(onDisk.total().count()).isPositive();
        assertThat(onDisk.bottleneckWarnings()).noneMatch(w -> w.contains("histogram log"));
        assertAddsUp(hlog, onDisk);

        Map<String, Integer> intervals = new LinkedHashMap<>();
        Map<String, Long> totals = hlogTotals(hlog, intervals);
        assertThat(intervals.get(""))
                .as("one per measured second, warm-up excluded")
                .isEqualTo(onDisk.series().size());
        assertThat(Files.readString(hlog)).as("nothing was stuck").doesNotContain(IntervalLog.REST_COMMENT);
        String busiest = onDisk.actions().entrySet().stream()
                .max(Map.Entry.comparingByValue(Comparator.comparingLong(KindResult::count)))
                .orElseThrow()
                .getKey();
        assertThat(totals.get(busiest)).isEqualTo(onDisk.actions().get(busiest).count());

        // HdrHistogram's processor: one tag's percentiles per interval and overall. A tag has no histogram in an
        // interval where it did not occur (a short last second), so its lines are counted against its own intervals.
        Path printed = dir.resolve(busiest + ".txt");
        new HistogramLogProcessor(new String[] {"-i", hlog.toString(), "-o", printed.toString(), "-tag", busiest})
                .run();
        List<String> lines = Files.readAllLines(printed);
        assertThat(lines.stream()
                        .filter(l -> l.matches("\\s*\\d+\\.\\d+: I:\\d+.*"))
                        .count())
                .as(String.join("\n", lines))
                .isEqualTo((long) intervals.get(busiest));
        assertThat(Files.readString(printed.resolveSibling(busiest + ".txt.hgrm")))
                .containsPattern("Total count\\s+=\\s+" + totals.get(busiest) + "\\]");
    }

    @Test
    void anEarlierHlogMovesAsideWithItsResult() throws Exception {
        Path out = dir.resolve("again.json");
        // only BG's own files move aside (OutputGuard): a result and an interval log as BG starts them
        Files.writeString(out, "{\"format\": \"bg-run-result/1\"}");
        String earlier = "#BG per-second latency histograms\n#earlier\n";
        Files.writeString(dir.resolve("again.hlog"), earlier);
        assertThat(RunArtifacts.keepEarlier(out)).isEqualTo(dir.resolve("again.1.json"));
        assertThat(dir.resolve("again.1.hlog")).hasContent(earlier.strip());
        assertThat(dir.resolve("again.hlog")).doesNotExist();

        // A log left alone (its run was killed before the result was written) is kept too, and never overwritten.
        String killed = "#BG per-second latency histograms\n#killed\n";
        Files.writeString(dir.resolve("again.hlog"), killed);
        assertThat(RunArtifacts.keepEarlier(out)).isEqualTo(dir.resolve("again.2.json"));
        assertThat(dir.resolve("again.2.hlog")).hasContent(killed.strip());
        assertThat(dir.resolve("again.1.hlog")).hasContent(earlier.strip());
    }
}
