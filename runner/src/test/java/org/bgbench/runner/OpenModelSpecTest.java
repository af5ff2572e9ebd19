package org.bgbench.runner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import org.bgbench.model.InvalidParameterException;
import org.bgbench.workload.WorkloadParameters;
import org.bgbench.workload.WorkloadSpec;
import org.junit.jupiter.api.Test;

/**
 * The open model's settings: their checks, a worker's share and the schedule's length (their trip to workers as JSON
 * is OpenModelCommandTest's, end to end).
 */
class OpenModelSpecTest {
    private static final WorkloadSpec HIGH = WorkloadParameters.toSpec(Map.of("mix", "high"));

    @Test
    void badBoundsNameTheirOption() {
        assertThatThrownBy(() -> new OpenModel("100", null, Duration.ZERO, 5))
                .isInstanceOf(InvalidParameterException.class)
                .hasMessageContaining("--max-lag");
        assertThatThrownBy(() -> new OpenModel("100", null, Duration.ofSeconds(1), 100))
                .isInstanceOf(InvalidParameterException.class)
                .hasMessageContaining("--max-late-pct");
        assertThatThrownBy(() -> new OpenModel("100", "bursty", Duration.ofSeconds(1), 5))
                .isInstanceOf(InvalidParameterException.class)
                .hasMessageContaining("--arrival-process");
    }

    @Test
    void aScheduleWithALengthSetsTheMeasuredPeriodAndAWorkersShareKeepsThePhases() {
        ExperimentSpec closed =
                ExperimentSpec.timed(HIGH, 8, Duration.ofSeconds(60), Duration.ofSeconds(2), null, null, null);
        ExperimentSpec open = closed.withOpen(OpenModel.of("1000:10s,ramp:3000:5s", "poisson"));
        assertThat(open.duration()).isEqualTo(Duration.ofSeconds(15));
        assertThat(open.toEmulatorConfig().open()).isTrue();
        assertThat(open.toEmulatorConfig().arrivals().process().name()).isEqualTo("POISSON");
        assertThat(open.open().scaled(0.25).arrivals()).isEqualTo("250:10s,ramp:750:5s");
        // A rate without a length keeps the run's duration; the closed model stays closed.
        assertThat(closed.withOpen(OpenModel.of("500", null)).duration()).isEqualTo(Duration.ofSeconds(60));
        assertThat(closed.toEmulatorConfig().open()).isFalse();
        assertThatThrownBy(() -> ExperimentSpec.of(HIGH, null, 1000L, null, null, null, null)
                        .withOpen(OpenModel.of("500", null)))
                .isInstanceOf(InvalidParameterException.class)
                .hasMessageContaining("--operations");
    }
}
