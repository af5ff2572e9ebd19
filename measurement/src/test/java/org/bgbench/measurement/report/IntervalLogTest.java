package org.bgbench.measurement.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogProcessor;
import org.HdrHistogram.HistogramLogReader;
import org.bgbench.measurement.KindResult;
import org.bgbench.measurement.Measurements;
import org.bgbench.measurement.Recorder;
import org.bgbench.measurement.RunResult;
import org.bgbench.model.Action;
import org.bgbench.model.Kind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The interval log of a measured period: warm-up left out, a tagged histogram per kind and an untagged one of all
 * actions per second, stuck executions in a last interval, so that its totals equal the result's; a write failure
 * stops the log and warns, the run goes on.
 */
class IntervalLogTest {
    private static final long MS = 1_000_000L;

    @TempDir
    Path dir;

    /** Totals per tag ("" untagged) and the intervals' start times, as HdrHistogram's reader reads them. */
    static Map<String, Long> totals(Path file, List<Double> starts) throws Exception {
        Map<String, Long> totals = new LinkedHashMap<>();
        try (HistogramLogReader reader = new HistogramLogReader(file.toFile())) {
            EncodableHistogram e;
            while ((e = reader.nextIntervalHistogram()) != null) {
                Histogram h = (Histogram) e;
                totals.merge(h.getTag() == null ? "" : h.getTag(), h.getTotalCount(), Long::sum);
                if (h.getTag() == null) {
                    totals.put("last untagged", h.getTotalCount());
                    totals.merge("untagged intervals", 1L, Long::sum);
                }
                if (starts != null) {
                    starts.add(h.getStartTimeStamp() / 1000.0 - reader.getStartTimeSec());
                }
            }
        }
        return totals;
    }

    @Test
    void theLogAddsUpToTheResultStuckExecutionsIncluded() throws Exception {
        Path file = dir.resolve("run.hlog");
        IntervalLog log = new IntervalLog(file);
        RunResult result;
        try (Measurements m =
                Measurements.builder().threads(2).listener(log::second).build()) {
            Recorder r = m.recorder(0);
            r.ok(Action.VP, 7 * MS); // warm-up: not in the log
            m.sample();
            m.startMeasuring();
            for (int s = 0; s < 3; s++) {
                for (int i = 0; i < 10 + s; i++) {
                    r.ok(Action.VP, (1 + i) * MS);
                    r.ok(Action.LF, 2 * MS);
                }
                r.ok(Kind.all().get(Action.values().length).index(), 30 * MS); // a session
                if (s < 2) {
                    m.sample();
                }
            }
            m.stopMeasuring();
            assertThat(m.stillWaiting(Action.VP.index(), 4_000 * MS)).isTrue();
            assertThat(m.stillWaiting(Action.IF.index(), 2_000 * MS)).isTrue();
            result = log.finish(m.result());
        }
        assertThat(result.bottleneckWarnings()).noneMatch(w -> w.contains("histogram log"));

        List<Double> starts = new ArrayList<>();
        Map<String, Long> totals = totals(file, starts);
        Map<String, KindResult> kinds = new LinkedHashMap<>(result.actions());
        kinds.putAll(result.sessions());
        kinds.forEach(
                (code, k) -> assertThat(totals.getOrDefault(code, 0L)).as(code).isEqualTo(k.count() + k.stuck()));
        assertThat(totals.remove("untagged intervals"))
                .as("3 seconds and the stuck ones")
                .isEqualTo(4);
        assertThat(totals.remove("last untagged")).as("the stuck ones only").isEqualTo(2);
        assertThat(totals.keySet())
                .as("only kinds with executions, and the untagged one")
                .containsExactlyInAnyOrder(
                        "",
                        "VP",
                        "LF",
                        "IF",
                        Kind.all().get(Action.values().length).code());
        assertThat(totals.get(""))
                .isEqualTo(result.total().count() + result.total().stuck())
                .isEqualTo(33 + 33 + 2);
        assertThat(totals.get("VP")).as("no warm-up value").isEqualTo(33 + 1);
        assertThat(starts).allMatch(t -> t >= 0 && t < 60);
        assertThat(Files.readString(file))
                .contains("#" + IntervalLog.REST_COMMENT)
                .contains("#[StartTime: ")
                .contains("Tag=VP,");

        // HdrHistogram's own processor reads it: a tag's intervals and their percentiles (ms by default).
        Path out = dir.resolve("vp");
        new HistogramLogProcessor(new String[] {"-i", file.toString(), "-o", out.toString(), "-tag", "VP"}).run();
        List<String> lines = Files.readAllLines(out);
        assertThat(lines.stream()
                        .filter(l -> l.matches("\\s*\\d+\\.\\d+:.*") || l.matches("^\\s*[0-9].*"))
                        .count())
                .as(String.join("\n", lines))
                .isGreaterThanOrEqualTo(3);
        String distribution = Files.readString(dir.resolve("vp.hgrm"));
        assertThat(distribution)
                .contains("Percentile")
                .containsPattern("Total count\\s+=\\s+" + totals.get("VP") + "\\]");
    }

    @Test
    void warmUpSecondsAreEncodedButWrittenNowhere() throws Exception {
        // Their encoding is the measured seconds' code run (and compiled) before the measured period.
        Path file = dir.resolve("warm.hlog");
        IntervalLog log = new IntervalLog(file);
        try (Measurements m =
                Measurements.builder().threads(1).listener(log::second).build()) {
            Recorder r = m.recorder(0);
            for (int s = 0; s < 3; s++) {
                r.ok(Action.VP, (s + 1) * MS);
                r.ok(Action.LF, 2 * MS);
                m.sample();
            }
            assertThat(log.rehearsals()).isEqualTo(3);
            assertThat(file).doesNotExist();
            m.startMeasuring();
            r.ok(Action.VP, 9 * MS);
            m.sample();
            m.stopMeasuring();
            log.finish(m.result());
        }
        Map<String, Long> totals = totals(file, null);
        assertThat(totals.get("VP")).as("the measured value only").isEqualTo(1);
        assertThat(totals).doesNotContainKey("LF");
        assertThat(log.rehearsals()).isEqualTo(3);
    }

    @Test
    void aWriteFailureStopsTheLogAndWarnsWithoutFailingTheRun() throws Exception {
        Path blocked = dir.resolve("file");
        Files.writeString(blocked, "not a directory");
        IntervalLog log = new IntervalLog(blocked.resolve("run.hlog"));
        try (Measurements m = Measurements.builder().listener(log::second).build()) {
            m.startMeasuring();
            m.recorder(0).ok(Action.VP, MS);
            m.stopMeasuring();
            RunResult result = log.finish(m.result());
            assertThat(result.actions().get("VP").count()).isEqualTo(1);
            assertThat(result.bottleneckWarnings())
                    .anyMatch(w -> w.contains("the histogram log") && w.contains("stops after 0 intervals"));
            assertThat(log.failure()).isNotNull();
        }
    }
}
