package org.bgbench.rating;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MeasurementTest {
    private static final Sla SLA = Sla.parse("95%:100ms:0.01%:10m");

    @Test
    void meetsTheSlaWhenEveryCriterionHolds() {
        Measurement m = new Measurement(1000, 95, 0.01, 0, 600_000, 600);
        assertThat(m.succeeds(SLA)).isTrue();
        assertThat(m.failures(SLA)).isEmpty();
    }

    @Test
    void eachCriterionFailsWithItsReason() {
        assertThat(new Measurement(1000, 94.9, 0, 0, 1000, 1).failures(SLA))
                .containsExactly("94.9% of actions within β=100ms, α requires 95%");
        assertThat(new Measurement(1000, 99, 0.02, 0, 1000, 1).failures(SLA))
                .containsExactly("0.02% of reads unpredictable, τ allows 0.01%");
        assertThat(new Measurement(0, 0, 0, 0, 0, 1).failures(SLA)).contains("no action completed");
        // Printed with enough digits not to read "95% ... requires 95%".
        assertThat(new Measurement(1000, 94.9999, 0, 0, 1000, 1).failures(SLA).get(0))
                .startsWith("94.9999%");
    }

    @Test
    void anyErrorFailsByDefaultAndTheAllowedRateIsAPercentageOfIssuedActions() {
        Measurement oneError = new Measurement(1000, 99, 0, 1, 9_999, 10);
        assertThat(oneError.errorPct()).isEqualTo(0.01);
        assertThat(oneError.failures(SLA)).containsExactly("1 action failed with an error, the SLA allows none");
        Sla lenient = Sla.parse("95%:100ms:0.01%:10m:0.01%");
        assertThat(oneError.succeeds(lenient)).isTrue();
        Measurement three = new Measurement(1000, 99, 0, 3, 9_997, 10);
        assertThat(three.failures(lenient))
                .containsExactly("3 actions (0.03%) failed with an error, the SLA allows 0.01%");
    }

    @Test
    void boundaryValuesMeetTheSlaDespiteRounding() {
        // 19/20 computed in floating point as 94.99999999999999.
        double pct = 100.0 * 0.95 * (1 - 1e-16);
        assertThat(new Measurement(10, pct, 0.01, 0, 10, 1).succeeds(SLA)).isTrue();
    }

    @Test
    void impossibleValuesAreRejected() {
        assertThatThrownBy(() -> new Measurement(Double.NaN, 95, 0, 0, 1, 1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("throughput");
        assertThatThrownBy(() -> new Measurement(1, 100.1, 0, 0, 1, 1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("withinBetaPct");
        assertThatThrownBy(() -> new Measurement(1, 95, -1, 0, 1, 1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unpredictablePct");
        assertThatThrownBy(() -> new Measurement(1, 95, 0, -1, 1, 1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("negative");
    }

    @Test
    void experimentRoundTripsThroughItsMap() {
        Measurement m = new Measurement(1234.5, 97.25, 0.001, 2, 740_700, 600);
        Experiment e = new Experiment(
                3,
                Phase.SOAR_LOCAL,
                new Experiment.Input(16, Duration.ofSeconds(30)),
                m,
                new Experiment.Verdict(false, List.of("2 actions failed")),
                new Experiment.Origin(Instant.parse("2025-01-02T03:04:05Z"), 31.5, false));
        Map<String, Object> map = e.toMap();
        assertThat(map)
                .containsEntry("threads", 16)
                .containsEntry("phase", "soar-local")
                .containsEntry("duration", "30s")
                .containsEntry("throughput", 1234.5)
                .containsEntry("within_beta_pct", 97.25)
                .containsEntry("unpredictable_pct", 0.001)
                .containsEntry("errors", 2L)
                .containsEntry("success", false)
                .containsEntry("seconds", 600.0);
        assertThat(Experiment.fromMap(map)).isEqualTo(e);
        // As a JSON reader would give it: ints and doubles mixed, no optional keys.
        Experiment minimal = Experiment.fromMap(Map.of(
                "threads",
                4,
                "duration",
                "1m",
                "throughput",
                10,
                "within_beta_pct",
                99,
                "unpredictable_pct",
                0,
                "errors",
                0,
                "actions",
                600,
                "seconds",
                60));
        assertThat(minimal.duration()).isEqualTo(Duration.ofMinutes(1));
        assertThat(minimal.measurement().throughput()).isEqualTo(10);
        assertThatThrownBy(() -> Experiment.fromMap(Map.of("threads", 4)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("throughput");
    }
}
