package org.bgbench.deck.live;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.bgbench.deck.TestRuns;
import org.bgbench.measurement.RunResult;
import org.bgbench.measurement.SecondSample;
import org.bgbench.runner.observe.ExperimentInfo;
import org.bgbench.runner.observe.ExperimentObserver;
import org.bgbench.runner.observe.Observers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A real experiment observed by a {@link LiveFile}: the file beside its result, from start line to end line. */
class LiveFileTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    void anExperimentsSecondsGoToTheLiveFileBesideItsResult() throws Exception {
        Path out = dir.resolve("runs").resolve("live-run.json");
        RunResult result;
        // what the runner hands its observers, to compare with what the file says
        List<SecondSample> samples = new CopyOnWriteArrayList<>();
        ExperimentObserver watching = new ExperimentObserver() {
            @Override
            public void second(ExperimentInfo info, SecondSample sample) {
                samples.add(sample);
            }
        };
        try (Observers.Registration r = Observers.register(new LiveFile());
                Observers.Registration w = Observers.register(watching)) {
            result = TestRuns.run(out);
        }
        Path live = dir.resolve("runs").resolve("live-run.live.jsonl");
        assertThat(LiveFile.of(out)).isEqualTo(live);
        List<JsonNode> lines = new ArrayList<>();
        for (String l : Files.readAllLines(live)) {
            lines.add(JSON.readTree(l));
        }
        assertThat(Files.readString(live)).endsWith("\n");

        assertThat(lines)
                .filteredOn(l -> l.path("type").asText().equals("start"))
                .hasSize(1);
        assertThat(lines).filteredOn(l -> l.path("type").asText().equals("end")).hasSize(1);
        assertThat(lines.getFirst().path("type").asText()).isEqualTo("start");
        assertThat(lines.getLast().path("type").asText()).isEqualTo("end");
        JsonNode start = lines.getFirst();
        assertThat(start.path("store").asText()).isEqualTo("memory");
        assertThat(start.path("mix").asText()).isEqualTo("high");
        assertThat(start.path("threads").asInt()).isEqualTo(2);
        assertThat(start.path("duration_s").asInt()).isEqualTo(2);
        assertThat(start.path("warmup_s").asInt()).isEqualTo(1);
        assertThat(start.path("result").asText()).isEqualTo("live-run.json");

        List<JsonNode> seconds = lines.subList(1, lines.size() - 1);
        assertThat(seconds).isNotEmpty().allMatch(l -> l.path("type").asText().equals("second"));
        // one line per sample, warm-up flagged as the runner flagged it (whether a warm-up second is sampled at all
        // depends on timing)
        assertThat(seconds).hasSameSizeAs(samples);
        for (int i = 0; i < seconds.size(); i++) {
            JsonNode l = seconds.get(i);
            SecondSample s = samples.get(i);
            assertThat(l.path("warmup").isBoolean()).isTrue();
            assertThat(l.path("warmup").asBoolean()).as("line %d", i).isEqualTo(s.warmup());
            assertThat(l.path("second").asLong())
                    .as("line %d", i)
                    .isEqualTo(s.point().second());
            assertThat(l.path("actions").asLong())
                    .as("line %d", i)
                    .isEqualTo(s.point().actions());
            assertThat(l.path("interval_s").asDouble())
                    .as("line %d: the deck leaves out the short interval that ends a phase by it", i)
                    .isEqualTo(s.point().intervalS());
        }
        assertThat(seconds).anyMatch(l -> !l.path("warmup").asBoolean());
        // The seconds of the run count on across the warm-up and the measured period (whose own numbers restart at
        // 1), so no two lines stand at the same moment of a chart.
        double previous = 0;
        for (JsonNode l : seconds) {
            assertThat(l.path("run_s").isNumber())
                    .as("run_s of %s", l.path("second"))
                    .isTrue();
            assertThat(l.path("run_s").asDouble()).isGreaterThan(previous);
            previous = l.path("run_s").asDouble();
        }
        long measured = seconds.stream()
                .filter(l -> !l.path("warmup").asBoolean())
                .mapToLong(l -> l.path("actions").asLong())
                .sum();
        assertThat(measured).isPositive().isEqualTo(result.total().count());
        assertThat(seconds)
                .allSatisfy(l -> assertThat(l.path("kinds").isObject()).isTrue());

        JsonNode end = lines.getLast();
        assertThat(end.path("throughput").asDouble()).isPositive().isEqualTo(result.throughput());
        assertThat(end.path("within_beta_pct").asDouble())
                .isEqualTo(result.total().withinBetaPct());
    }

    @Test
    void anExperimentWithoutAResultFileHasNoLiveFile() throws Exception {
        try (Observers.Registration r = Observers.register(new LiveFile())) {
            TestRuns.run(null);
        }
        try (var s = Files.list(dir)) {
            assertThat(s.toList()).isEmpty();
        }
    }
}
