package org.bgbench.runner.rating;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.bgbench.emulator.EmulatorConfig;
import org.bgbench.measurement.Measurements;
import org.bgbench.measurement.RunContext;
import org.bgbench.measurement.RunResult;
import org.bgbench.measurement.Stalls;
import org.bgbench.measurement.open.OpenModelRecorder;
import org.bgbench.model.Action;
import org.bgbench.model.Kind;
import org.bgbench.rating.Measurement;
import org.bgbench.rating.Sla;
import org.bgbench.runner.ExperimentSpec;
import org.bgbench.workload.WorkloadParameters;
import org.bgbench.workload.WorkloadSpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A rating's view of an experiment whose store stopped answering: stuck actions count as beyond β, and the experiment
 * is incomplete and fails the SLA even when what returned met it; the rating goes on (it does not stop as for a run
 * that aborted) and resets the store as after errors.
 */
class RatingRunnerIncompleteTest {
    private static final Sla SLA = new Sla(95, Duration.ofMillis(100), 0.01, Duration.ofSeconds(10));
    private static final String WORDS = Stalls.reason(3, 6_000_000_000L, List.of(4, 5, 6), 0, 11);

    @TempDir
    Path dir;

    /** 1,000 actions within β and 3 stuck, with the words the experiment would write when it is incomplete. */
    private static RunResult result(boolean incomplete) {
        try (Measurements m = Measurements.builder().threads(4).build()) {
            m.startMeasuring();
            for (int i = 0; i < 1_000; i++) {
                m.recorder(i).ok(Action.VP, 2_000_000L);
            }
            m.stopMeasuring();
            if (incomplete) {
                for (int i = 0; i < 3; i++) {
                    m.stillWaiting(Action.VP.index(), 6_000_000_000L);
                }
            }
            RunResult r = m.result();
            Map<String, Object> config = new LinkedHashMap<>(r.config());
            config.put("completed", !incomplete);
            config.put(Stalls.INCOMPLETE_REASON, incomplete ? WORDS : null);
            return r.withContext(new RunContext(null, null, null, config));
        }
    }

    @Test
    void anIncompleteResultFailsTheSlaAndCountsItsStuckActionsBeyondBeta() {
        Measurement complete = RatingRunner.measurement(result(false));
        assertThat(complete.incomplete()).isNull();
        assertThat(complete.withinBetaPct()).isEqualTo(100);
        assertThat(complete.succeeds(SLA)).isTrue();

        Measurement m = RatingRunner.measurement(result(true));
        assertThat(m.withinBetaPct()).as("stuck actions are beyond β").isCloseTo(100.0 * 1_000 / 1_003, within(1e-9));
        assertThat(m.withinBetaPct()).as("...yet α alone would be met").isGreaterThan(SLA.alphaPct());
        assertThat(m.actions()).isEqualTo(1_000);
        assertThat(m.succeeds(SLA)).isFalse();
        assertThat(m.failures(SLA))
                .containsExactly("the experiment is incomplete: The store stopped answering: 3 "
                        + "actions were still waiting when the run ended, the longest for 6.0 s; seconds 4–6 completed "
                        + "nothing.");
        assertThat(Measurement.fromMap(m.toMap()))
                .as("kept in the rating's report")
                .isEqualTo(m);
    }

    /**
     * A store that failed every call for seconds (killed and restarted, calls failing as they were made) left few
     * errors against thousands of actions: within an SLA's error allowance, yet the experiment is incomplete and fails.
     */
    @Test
    void anExperimentWhoseStoreRefusedEveryCallForSecondsFailsEvenAnSlaThatAllowsItsErrors() {
        RunResult r;
        try (Measurements m = Measurements.builder().threads(4).build()) {
            m.startMeasuring();
            for (int i = 0; i < 10_000; i++) {
                m.recorder(i).ok(Action.VP, 2_000_000L);
            }
            for (int i = 0; i < 3; i++) {
                m.recorder(i).error(Action.VP.index(), 1_000_000_000L);
            }
            m.stopMeasuring();
            r = m.result();
        }
        String words = Stalls.reason(
                0,
                0,
                List.of(),
                List.of(new Stalls.Refusal(5, "connection refused"), new Stalls.Refusal(6, "connection refused")),
                0,
                11);
        Map<String, Object> config = new LinkedHashMap<>(r.config());
        config.put("completed", false);
        config.put(Stalls.REFUSED_SECONDS, List.of(5, 6));
        config.put(Stalls.INCOMPLETE_REASON, words);
        RunResult refused = r.withContext(new RunContext(null, null, null, config));
        Sla allowingErrors = new Sla(95, Duration.ofMillis(100), 0.01, Duration.ofSeconds(10), 0.1);
        assertThat(RatingRunner.measurement(r).succeeds(allowingErrors))
                .as("0.03 % errors are allowed")
                .isTrue();
        Measurement m = RatingRunner.measurement(refused);
        assertThat(m.succeeds(allowingErrors)).isFalse();
        assertThat(m.failures(allowingErrors))
                .containsExactly("the experiment is incomplete: The store refused every "
                        + "call from second 5 to 6: connection refused.");
        assertThat(Stalls.writesUncertain(refused))
                .as("the store is reset, not trusted")
                .isTrue();
    }

    @Test
    void anOpenModelExperimentBehindItsScheduleFailsTheSlaWhateverItsLatencies() {
        OpenModelRecorder rec = new OpenModelRecorder(
                "1000",
                "constant",
                4,
                Duration.ofSeconds(1),
                5,
                Kind.all().stream().map(Kind::code).toList(),
                List.of());
        for (int i = 0; i < 100; i++) {
            rec.stripe(i).started(0, i < 10 ? 2_000_000_000L : 1_000L, i < 10);
        }
        RunResult behind = result(false).withOpen(rec.result(10, 0, 0));
        Measurement m = RatingRunner.measurement(behind);
        assertThat(m.withinBetaPct()).isEqualTo(100);
        assertThat(m.succeeds(SLA)).isFalse();
        assertThat(m.failures(SLA))
                .singleElement()
                .asString()
                .contains("the experiment is incomplete", "BG fell behind its schedule: 10.0 % of the 100 arrivals");
        RunResult onTime = result(false)
                .withOpen(
                        new OpenModelRecorder("1000", "constant", 4, Duration.ofSeconds(1), 5, List.of("VP"), List.of())
                                .result(10, 0, 0));
        assertThat(onTime.open().valid())
                .as("no arrival at all is not valid either")
                .isFalse();
    }

    @Test
    void theRatingGoesOnAfterAnIncompleteExperimentAndResetsAsAfterErrors() {
        RunResult incomplete = result(true);
        ExperimentExecutor executor = new ExperimentExecutor() {
            @Override
            public Outcome run(ExperimentSpec spec, Path out) {
                return new Outcome(incomplete, true, null, List.of());
            }

            @Override
            public boolean prepareImage(PrintWriter err) {
                return false;
            }

            @Override
            public int touchedMembers() {
                return 10;
            }

            @Override
            public Repair repair() {
                throw new AssertionError("no RepairDB after writes that may or may not have happened");
            }

            @Override
            public void restoreImage() {
                throw new AssertionError("no image");
            }

            @Override
            public void reload() {
                reloads[0]++;
            }
        };
        WorkloadSpec ws = WorkloadParameters.toSpec(Map.of("mix", "high"));
        ExperimentSpec template = ExperimentSpec.timed(
                ws,
                1,
                Duration.ofSeconds(1),
                Duration.ZERO,
                EmulatorConfig.ThreadKind.AUTO,
                Duration.ofMillis(100),
                null);
        StringWriter err = new StringWriter();
        RatingRunner runner = new RatingRunner(
                executor, ws, template, new ResetPolicy(ResetPolicy.Mode.AUTO), dir, new PrintWriter(err, true), false);
        Measurement first = runner.run(2, Duration.ofSeconds(1));
        assertThat(first.succeeds(SLA)).isFalse();
        assertThat(err.toString()).contains("bg: experiment 1 at T=2 is incomplete: The store stopped answering");
        runner.run(4, Duration.ofSeconds(1));
        assertThat(reloads[0])
                .as("reloaded: neither LoadFree nor RepairDB after stuck writes")
                .isEqualTo(1);
    }

    private final int[] reloads = {0};
}
