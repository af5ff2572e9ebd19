package org.bgbench.rating;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.StringReader;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.bgbench.model.InvalidParameterException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SlaTest {
    @Test
    void parsesTheTextForm() {
        Sla sla = Sla.parse("95%:100ms:0.01%:10m");
        assertThat(sla.alphaPct()).isEqualTo(95);
        assertThat(sla.beta()).isEqualTo(Duration.ofMillis(100));
        assertThat(sla.tauPct()).isEqualTo(0.01);
        assertThat(sla.duration()).isEqualTo(Duration.ofMinutes(10));
        assertThat(sla.maxErrorPct()).isZero();
        assertThat(sla).hasToString("95%:100ms:0.01%:10m");
    }

    @Test
    void percentSignsAreOptionalAndDurationsTakeAnyUnit() {
        Sla sla = Sla.parse(" 99.9 : 0.25s : 0 : PT1H : 0.5% ");
        assertThat(sla.alphaPct()).isEqualTo(99.9);
        assertThat(sla.beta()).isEqualTo(Duration.ofMillis(250));
        assertThat(sla.tauPct()).isZero();
        assertThat(sla.duration()).isEqualTo(Duration.ofHours(1));
        assertThat(sla.maxErrorPct()).isEqualTo(0.5);
        assertThat(Sla.parse(sla.toString())).isEqualTo(sla);
    }

    @Test
    void propertiesFormRoundTrips() throws IOException {
        Properties p = new Properties();
        p.load(new StringReader("""
                sla.alpha = 95%
                sla.beta = 100ms
                sla.tau = 0.01
                sla.duration = 10m
                """));
        Sla sla = Sla.fromProperties(p);
        assertThat(sla).isEqualTo(Sla.parse("95%:100ms:0.01%:10m"));
        assertThat(Sla.fromProperties(sla.toProperties())).isEqualTo(sla);
        assertThat(Sla.fromProperties(Map.of("sla", "90%:20ms:1%:30s:2%")).maxErrorPct())
                .isEqualTo(2);
    }

    @Test
    void propertiesNameTheMissingOrClashingKey() {
        assertThatThrownBy(() -> Sla.fromProperties(Map.of("sla.alpha", "95", "sla.beta", "100ms", "sla.tau", "0")))
                .isInstanceOfSatisfying(
                        InvalidParameterException.class,
                        e -> assertThat(e.parameter()).isEqualTo("sla.duration"))
                .hasMessageContaining("missing")
                .hasMessageContaining("sla.duration=10m");
        assertThatThrownBy(() -> Sla.fromProperties(Map.of("sla", "95%:100ms:0%:10m", "sla.tau", "1")))
                .isInstanceOfSatisfying(
                        InvalidParameterException.class,
                        e -> assertThat(e.parameter()).isEqualTo("sla"))
                .hasMessageContaining("not both");
        assertThatThrownBy(() -> Sla.fromProperties(
                        Map.of("sla.alpha", "101", "sla.beta", "100ms", "sla.tau", "0", "sla.duration", "10m")))
                .isInstanceOfSatisfying(
                        InvalidParameterException.class,
                        e -> assertThat(e.parameter()).isEqualTo("sla.alpha"));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            120%:100ms:0.01%:10m      | α, 1st part   | from 0 to 100
            -5%:100ms:0.01%:10m       | α, 1st part   | cannot be negative
            0.95:100ms:0.01%:10m      | α, 1st part   | ambiguous
            ninety:100ms:0.01%:10m    | α, 1st part   | such as 95%
            95%:100:0.01%:10m         | β, 2nd part   | needs a unit
            95%:fast:0.01%:10m        | β, 2nd part   | 100ms, 30s, 10m, 1h
            95%:0ms:0.01%:10m         | β, 2nd part   | longer than 0
            95%:100ms:-0.01%:10m      | τ, 3rd part   | cannot be negative
            95%:100ms:101%:10m        | τ, 3rd part   | from 0 to 100
            95%:100ms:0.01%:10 parsecs| Δ, 4th part   | 100ms, 30s, 10m, 1h
            95%:100ms:0.01%:600       | Δ, 4th part   | needs a unit
            95%:100ms:0.01%:10m:lots  | errors, 5th part | from 0 to 100
            95%:20m:0.01%:10m         | β, 2nd part   | shorter than Δ
            95%:100ms:10m             | sla           | 4 or 5 parts
            95%:100ms:0%:10m:0%:x     | sla           | 4 or 5 parts
            """)
    void badInputNamesThePartAndWhatIsAccepted(String text, String part, String accepted) {
        assertThatThrownBy(() -> Sla.parse("--sla", text))
                .isInstanceOfSatisfying(
                        InvalidParameterException.class,
                        e -> assertThat(e.parameter()).startsWith("--sla"))
                .hasMessageContaining(part.equals("sla") ? "α:β:τ:Δ" : part)
                .hasMessageContaining(accepted);
    }

    @Test
    void emptyTextIsRejected() {
        assertThatThrownBy(() -> Sla.parse(""))
                .isInstanceOf(InvalidParameterException.class)
                .hasMessageContaining("95%:100ms:0.01%:10m");
    }

    @Test
    void constructorChecksRangesToo() {
        assertThatThrownBy(() -> new Sla(100.5, Duration.ofMillis(100), 0, Duration.ofMinutes(1)))
                .isInstanceOfSatisfying(
                        InvalidParameterException.class,
                        e -> assertThat(e.parameter()).isEqualTo("sla.alpha"));
        assertThatThrownBy(() -> new Sla(95, Duration.ofMillis(100), Double.NaN, Duration.ofMinutes(1)))
                .isInstanceOf(InvalidParameterException.class);
        assertThat(new Sla(0, Duration.ofMillis(100), 100, Duration.ofMinutes(1), 100).alphaPct())
                .isZero();
    }

    @Test
    void experimentDurationMustFitTheSla() {
        Sla sla = Sla.parse("95%:100ms:0.01%:10m");
        sla.checkExperimentDuration("delta", Duration.ofMinutes(10));
        sla.checkExperimentDuration("delta", Duration.ofSeconds(30));
        assertThatThrownBy(() -> sla.checkExperimentDuration("delta", Duration.ofMinutes(11)))
                .isInstanceOfSatisfying(
                        InvalidParameterException.class,
                        e -> assertThat(e.parameter()).isEqualTo("delta"))
                .hasMessageContaining("must not be longer than the SLA's Δ (10m)");
        assertThatThrownBy(() -> sla.checkExperimentDuration("delta", Duration.ZERO))
                .isInstanceOf(InvalidParameterException.class)
                .hasMessageContaining("positive");
        assertThatThrownBy(() -> sla.checkExperimentDuration("delta", Duration.ofMillis(50)))
                .isInstanceOf(InvalidParameterException.class)
                .hasMessageContaining("longer than β");
        assertThatThrownBy(() -> RatingSettings.builder(sla)
                        .experimentDuration(Duration.ofHours(1))
                        .build())
                .isInstanceOfSatisfying(
                        InvalidParameterException.class,
                        e -> assertThat(e.parameter()).isEqualTo(RatingSettings.EXPERIMENT_DURATION));
    }

    @Test
    void settingsRejectImpossibleValues() {
        Sla sla = Sla.parse("95%:100ms:0.01%:10m");
        assertThatThrownBy(() -> RatingSettings.builder(sla).climbingFactor(1).build())
                .isInstanceOfSatisfying(
                        InvalidParameterException.class,
                        e -> assertThat(e.parameter()).isEqualTo("climbing-factor"))
                .hasMessageContaining("above 1");
        assertThatThrownBy(() -> RatingSettings.builder(sla).maxThreads(0).build())
                .isInstanceOf(InvalidParameterException.class)
                .hasMessageContaining("max-threads");
        assertThatThrownBy(() -> RatingSettings.builder(sla).maxExperiments(0).build())
                .isInstanceOf(InvalidParameterException.class)
                .hasMessageContaining("max-experiments");
        assertThatThrownBy(() ->
                        RatingSettings.builder(sla).throughputTolerancePct(-1).build())
                .isInstanceOf(InvalidParameterException.class)
                .hasMessageContaining("throughput-tolerance");
        assertThatThrownBy(() -> RatingSettings.builder(sla).targets(Set.of()).build())
                .isInstanceOf(InvalidParameterException.class)
                .hasMessageContaining("soar, socialites");
        RatingSettings d = RatingSettings.defaults(sla);
        assertThat(d.experimentDuration()).isEqualTo(sla.duration());
        assertThat(d.climbingFactor()).isEqualTo(2);
        assertThat(d.localSearch()).isEqualTo(LocalSearch.OPTIMAL);
        assertThat(d.targets()).containsExactlyInAnyOrder(Target.SOAR, Target.SOCIALITES);
        assertThat(d.toMap()).containsEntry("local_search", "optimal").containsEntry("climbing_factor", 2.0);
    }
}
