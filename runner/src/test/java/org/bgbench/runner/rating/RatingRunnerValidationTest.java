package org.bgbench.runner.rating;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.bgbench.emulator.EmulatorConfig;
import org.bgbench.measurement.Measurements;
import org.bgbench.measurement.RunResult;
import org.bgbench.measurement.Unpredictable;
import org.bgbench.model.Action;
import org.bgbench.rating.Measurement;
import org.bgbench.rating.Sla;
import org.bgbench.runner.ExperimentSpec;
import org.bgbench.runner.ValidationOptions;
import org.bgbench.workload.WorkloadSpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** An experiment whose validation was incomplete fails the SLA, whatever its (partial) unpredictable % says. */
class RatingRunnerValidationTest {
    @TempDir
    Path dir;

    /** A fast, clean experiment: 1,000 VPs of 1 ms, with the given validation verdict. */
    private static RunResult result(Unpredictable verdict) {
        try (Measurements m = Measurements.builder().threads(1).build()) {
            m.startMeasuring();
            for (int i = 0; i < 1_000; i++) {
                m.recorder(0).ok(Action.VP, 1_000_000);
            }
            m.stopMeasuring();
            return m.result().withUnpredictable(verdict);
        }
    }

    private static final class OneResult implements ExperimentExecutor {
        private final RunResult result;

        OneResult(RunResult result) {
            this.result = result;
        }

        @Override
        public Outcome run(ExperimentSpec spec, Path out) {
            return new Outcome(result, true, null, List.of());
        }

        @Override
        public boolean prepareImage(PrintWriter err) {
            return false;
        }

        @Override
        public int touchedMembers() {
            return 0;
        }

        @Override
        public Repair repair() {
            return new Repair(true, 0, 0, null);
        }

        @Override
        public void restoreImage() {}

        @Override
        public void reload() {}
    }

    private Measurement rate(Unpredictable verdict) {
        WorkloadSpec ws = WorkloadSpec.defaults();
        ExperimentSpec spec = ExperimentSpec.timed(
                ws,
                1,
                Duration.ofSeconds(1),
                Duration.ZERO,
                EmulatorConfig.ThreadKind.AUTO,
                Duration.ofMillis(100),
                ValidationOptions.defaults());
        return new RatingRunner(
                        new OneResult(result(verdict)),
                        ws,
                        spec,
                        new ResetPolicy(ResetPolicy.Mode.AUTO),
                        dir,
                        new PrintWriter(new StringWriter()),
                        false)
                .run(1, Duration.ofSeconds(1));
    }

    @Test
    void anIncompleteValidationFailsTheSlaAndACompleteOneDoesNot() {
        Sla sla = Sla.parse("95%:100ms:0.01%:1s");
        Measurement complete = rate(Unpredictable.builder()
                .readsChecked(5_000)
                .unpredictableReads(0)
                .pct(0)
                .tauPct(0.01)
                .meetsTau(true)
                .readsSkipped(0)
                .actions(null)
                .freshness(null)
                .samples(List.of())
                .validation(null)
                .mergedFromWorkers(null)
                .build());
        assertThat(complete.validationIncomplete()).isNull();
        assertThat(complete.failures(sla)).isEmpty();

        Unpredictable incomplete = Unpredictable.builder()
                .readsChecked(0)
                .unpredictableReads(0)
                .pct(0)
                .tauPct(0.01)
                .meetsTau(true)
                .readsSkipped(0)
                .actions(null)
                .freshness(null)
                .samples(List.of())
                .validation(null)
                .mergedFromWorkers(null)
                .complete(false)
                .incompleteReason("thread-00001.bglog is missing, and it held writes; no read can be checked")
                .readsUnchecked(4_000L)
                .files(List.of(new Unpredictable.FileProblem("thread-00001.bglog", null, "missing")))
                .build();
        assertThat(incomplete.meetsTau())
                .as("an incomplete verdict never meets τ")
                .isFalse();
        Measurement m = rate(incomplete);
        assertThat(m.unpredictablePct()).isZero();
        assertThat(m.validationIncomplete()).contains("thread-00001.bglog is missing");
        assertThat(m.succeeds(sla)).isFalse();
        assertThat(m.failures(sla))
                .singleElement()
                .asString()
                .startsWith("validation incomplete, so the unpredictable reads are not known: thread-00001.bglog");
        assertThat(m.toMap()).containsEntry("validation_incomplete", m.validationIncomplete());
        assertThat(Measurement.fromMap(m.toMap())).isEqualTo(m);
    }
}
