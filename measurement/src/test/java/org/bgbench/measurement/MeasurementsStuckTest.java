package org.bgbench.measurement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.bgbench.measurement.merge.ResultMerger;
import org.bgbench.measurement.report.ResultJson;
import org.bgbench.measurement.report.SummaryPrinter;
import org.bgbench.model.Action;
import org.junit.jupiter.api.Test;

/**
 * Executions still waiting on the store when the measured period ended (stuck: in the latencies with their waits as
 * lower bounds, never within β, counted per kind), seconds in which nothing returned while a call waited throughout
 * (stalled), seconds in which the store failed every call (refused), and the words a result carries for them.
 */
class MeasurementsStuckTest {
    private static final long MS = 1_000_000L;

    @Test
    void stuckExecutionsJoinTheLatenciesAsLowerBoundsAndCountAgainstBeta() {
        try (Measurements m = Measurements.builder().threads(2).build()) {
            m.startMeasuring();
            assertThatThrownBy(() -> m.stillWaiting(Action.VP.index(), 5_000 * MS))
                    .isInstanceOf(IllegalStateException.class);
            Recorder r = m.recorder(0);
            for (int i = 0; i < 100; i++) {
                r.ok(Action.VP, MS);
            }
            m.stopMeasuring();
            assertThat(m.stuckThresholdNanos()).as("max(β, 1 s)").isEqualTo(1_000 * MS);
            assertThat(m.stillWaiting(Action.VP.index(), 500 * MS))
                    .as("the period's usual boundary")
                    .isFalse();
            assertThat(m.stillWaiting(Action.VP.index(), 5_000 * MS)).isTrue();
            assertThat(m.stillWaiting(Action.LF.index(), 3_000 * MS)).isTrue();
            assertThat(m.longestStuckNanos()).isEqualTo(5_000 * MS);

            RunResult result = ResultJson.fromJson(ResultJson.toJson(m.result()));
            KindResult vp = result.actions().get("VP");
            assertThat(vp.count()).as("completed only").isEqualTo(100);
            assertThat(vp.stuck()).isEqualTo(1);
            assertThat(vp.maxMs()).as("at least as long as it waited").isCloseTo(5_000, within(5.0));
            assertThat(vp.withinBetaCount()).isEqualTo(100);
            assertThat(vp.withinBetaPct()).isCloseTo(100.0 * 100 / 101, within(1e-9));
            KindResult lf = result.actions().get("LF");
            assertThat(lf.count()).isZero();
            assertThat(lf.stuck()).isEqualTo(1);
            assertThat(lf.p50Ms()).isCloseTo(3_000, within(3.0));
            assertThat(lf.throughput()).isZero();
            KindResult total = result.total();
            assertThat(total.count()).isEqualTo(100);
            assertThat(total.stuck()).isEqualTo(2);
            assertThat(total.histogram().getTotalCount()).isEqualTo(102);
            assertThat(total.withinBetaPctCountingErrors()).isCloseTo(100.0 * 100 / 102, within(1e-9));
            assertThat(result.throughput()).isEqualTo(total.throughput());
            assertThat(total.throughput() * result.durationS()).isCloseTo(100, within(1e-6));

            String summary = SummaryPrinter.summary(result);
            assertThat(summary.lines()
                            .filter(l -> l.startsWith("LF "))
                            .findFirst()
                            .orElseThrow()
                            .trim())
                    .as("a stuck column, only when something was stuck")
                    .endsWith(" 1");
            assertThat(summary).contains("stuck: still waiting on the store when the run ended");
        }
    }

    @Test
    void aSecondInWhichNothingReturnedWhileACallWaitedThroughoutStalls() throws Exception {
        List<Long> asked = new ArrayList<>();
        boolean[] waiting = {true};
        try (Measurements m = Measurements.builder()
                .threads(1)
                .samplePeriod(Duration.ofMillis(500))
                .beta(Duration.ofMillis(50))
                .build()) {
            m.watchWaiting(since -> {
                asked.add(since);
                return waiting[0];
            });
            long before = System.nanoTime();
            m.startMeasuring();
            long after = System.nanoTime();
            Thread.sleep(600);
            m.sample(); // 1: nothing returned, a call waiting since before it: stalled
            assertThat(asked).hasSize(1);
            assertThat(asked.get(0)).as("since the interval's start").isBetween(before, after);
            m.recorder(0).error(Action.VP.index(), 300 * MS);
            Thread.sleep(600);
            m.sample(); // 2: an action failed, so the store answered
            Thread.sleep(600);
            waiting[0] = false;
            m.sample(); // 3: nothing returned, but nobody was waiting on the store
            waiting[0] = true;
            Thread.sleep(10);
            m.sample(); // 4: too short to be a second of the series
            Thread.sleep(600);
            m.sample(); // 5: stalled
            Thread.sleep(600);
            m.recorder(0).ok(Action.LF, MS);
            m.stopMeasuring(); // 6: an action completed
            assertThat(m.stalledSeconds()).containsExactly(1, 5);
        }
    }

    @Test
    void aSecondInWhichTheStoreFailedEveryCallSinceItsStartIsRefused() throws Exception {
        long[] streakStart = {Long.MAX_VALUE};
        String[] last = {null};
        try (Measurements m = Measurements.builder()
                .threads(1)
                .samplePeriod(Duration.ofMillis(500))
                .beta(Duration.ofMillis(50))
                .build()) {
            m.watchFailures(since -> streakStart[0] <= since, () -> last[0]);
            m.startMeasuring();
            streakStart[0] = System.nanoTime() - 1;
            m.recorder(0).error(Action.VP.index(), 300 * MS);
            Thread.sleep(600);
            m.sample(); // 1: only a failure, but the failing began inside it: not refused
            last[0] = "cannot reach the store: connection refused.";
            m.recorder(0).error(Action.LF.index(), 300 * MS);
            Thread.sleep(600);
            m.sample(); // 2: every call failed since before it: refused
            Thread.sleep(600);
            m.sample(); // 3: nothing failed (nor completed): not refused
            m.recorder(0).error(Action.VP.index(), 300 * MS);
            m.recorder(0).ok(Action.VP, MS);
            Thread.sleep(600);
            m.sample(); // 4: an action completed: not refused
            m.recorder(0).error(Action.VP.index(), 300 * MS);
            last[0] = "I/O error";
            Thread.sleep(600);
            m.stopMeasuring(); // 5: refused, with the words of its last failure
            assertThat(m.refusals())
                    .containsExactly(
                            new Stalls.Refusal(2, "cannot reach the store: connection refused."),
                            new Stalls.Refusal(5, "I/O error"));
            assertThat(m.stalledSeconds()).isEmpty();
            RunResult r = m.result();
            assertThat(r.series().get(1).errorPct()).isEqualTo(100.0);
            assertThat(r.series().get(2).errorPct()).as("no call returned").isNull();
            assertThat(r.series().get(3).errorPct()).isEqualTo(50.0);
            assertThat(ResultJson.toJson(r)).contains("\"error_pct\" : 100.0");
            assertThat(ResultJson.fromJson(ResultJson.toJson(r)).series()).isEqualTo(r.series());
            assertThat(SummaryPrinter.summary(r))
                    .contains("4 actions failed (80.00 % of attempted actions), and at "
                            + "least 10 % of the calls in 4 of 5 seconds: seconds 1–2 (100 %), seconds 4–5 (50–100 %); "
                            + "errors count against the SLA");
            assertThat(SummaryPrinter.progress(r.series().get(3), false)).contains("errors 1 (50 %)");
        }
    }

    @Test
    void theReasonSaysInWordsWhatStoppedAndThatTheSlaIsNotMet() {
        assertThat(Stalls.reason(0, 0, List.of(), 0, 5)).isNull();
        assertThat(Stalls.reason(16, 12_345 * MS, List.of(5, 6, 7, 8, 19), 0, 11))
                .isEqualTo("The store stopped answering: 16 actions were still waiting when the run ended, the longest "
                        + "for 12.3 s; seconds 5–8, 19 completed nothing. The run does not meet the SLA.");
        assertThat(Stalls.reason(0, 0, List.of(3), 0, 11))
                .isEqualTo("The store stopped answering: second 3 completed nothing while actions waited on the store. "
                        + "The run does not meet the SLA.");
        assertThat(Stalls.reason(1, 1_400 * MS, List.of(), 2, 5))
                .isEqualTo("1 action was still waiting on the store when the run ended, the longest for 1.4 s; 2 "
                        + "threads were still inside the store 5 s after the run ended and were abandoned. The run "
                        + "does not meet the SLA.");
        assertThat(Stalls.ranges(List.of(1, 2, 3, 5, 7, 8))).isEqualTo("1–3, 5, 7–8");
        String refused = "cannot reach PostgreSQL at localhost:5432: connection refused (is the server running?).";
        List<Stalls.Refusal> seconds = new ArrayList<>();
        for (int s = 5; s <= 13; s++) {
            seconds.add(new Stalls.Refusal(s, refused));
        }
        assertThat(Stalls.reason(0, 0, List.of(), seconds, 0, 11))
                .isEqualTo("The store refused every call from second 5 to 13: cannot reach PostgreSQL at "
                        + "localhost:5432: connection refused (is the server running?). The run does not meet the "
                        + "SLA.");
        assertThat(Stalls.reason(
                        0,
                        0,
                        List.of(2, 3),
                        List.of(
                                new Stalls.Refusal(5, "I/O error"),
                                new Stalls.Refusal(7, "connection\nrefused"),
                                new Stalls.Refusal(9, "I/O error")),
                        0,
                        11))
                .isEqualTo("The store stopped answering: seconds 2–3 completed nothing while actions waited on the "
                        + "store; the store refused every call in seconds 5, 9: I/O error; and in second 7: "
                        + "connection refused. The run does not meet the SLA.");
    }

    @Test
    void mergedWorkersAddTheirStuckActionsAndKeepEachOnesWords() {
        List<RunResult> parts = new ArrayList<>();
        for (int w = 0; w < 2; w++) {
            try (Measurements m = Measurements.builder().build()) {
                m.startMeasuring();
                m.recorder(0).ok(Action.VP, MS);
                m.stopMeasuring();
                m.stillWaiting(Action.VP.index(), 2_000 * MS);
                RunResult r = m.result();
                Map<String, Object> config = new LinkedHashMap<>(r.config());
                config.put("completed", w == 0);
                config.put(Stalls.STALLED_SECONDS, w == 0 ? List.of() : List.of(2, 3));
                config.put(Stalls.REFUSED_SECONDS, w == 0 ? List.of(6, 7) : List.of(5, 6));
                config.put(Stalls.INCOMPLETE_REASON, w == 0 ? null : "The store stopped answering: x.");
                parts.add(r.withContext(new RunContext(null, null, null, config)));
            }
        }
        RunResult merged = ResultMerger.merge(parts, List.of("a:1", "b:2"), List.of(), Map.of("completed", true));
        assertThat(merged.total().stuck()).isEqualTo(2);
        assertThat(merged.actions().get("VP").stuck()).isEqualTo(2);
        assertThat(merged.total().count()).isEqualTo(2);
        assertThat(merged.incompleteReason()).isEqualTo("b:2: The store stopped answering: x.");
        assertThat(merged.config())
                .containsEntry("completed", false)
                .containsEntry(Stalls.STALLED_SECONDS, List.of(2, 3))
                .containsEntry(Stalls.REFUSED_SECONDS, List.of(5, 6, 7));
    }
}
