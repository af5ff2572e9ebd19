package org.bgbench.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import org.junit.jupiter.api.Test;

class DurationsTest {
    @Test
    void unitsAndPlainSeconds() {
        assertThat(Durations.parse("k", "30s")).isEqualTo(Duration.ofSeconds(30));
        assertThat(Durations.parse("k", "10m")).isEqualTo(Duration.ofMinutes(10));
        assertThat(Durations.parse("k", "500ms")).isEqualTo(Duration.ofMillis(500));
        assertThat(Durations.parse("k", "1h")).isEqualTo(Duration.ofHours(1));
        assertThat(Durations.parse("k", "90")).isEqualTo(Duration.ofSeconds(90));
        assertThat(Durations.parse("k", " 1.5s ")).isEqualTo(Duration.ofMillis(1500));
        assertThat(Durations.parse("k", "2 min")).isEqualTo(Duration.ofMinutes(2));
        assertThat(Durations.parse("k", "PT1M30S")).isEqualTo(Duration.ofSeconds(90));
        assertThat(Durations.parse("k", "250us")).isEqualTo(Duration.ofNanos(250_000));
        assertThat(Durations.parse("k", "0")).isZero();
        assertThat(Durations.parse("k", "20", ChronoUnit.MILLIS)).isEqualTo(Duration.ofMillis(20));
    }

    @Test
    void badValuesNameTheKey() {
        for (String bad : new String[] {"", "-5s", "5 parsecs", "s", "1.2.3s", "PT-5S", "tens"}) {
            assertThatThrownBy(() -> Durations.parse("maxexecutiontime", bad))
                    .as(bad)
                    .isInstanceOfSatisfying(
                            InvalidParameterException.class,
                            e -> assertThat(e.parameter()).isEqualTo("maxexecutiontime"))
                    .hasMessageContaining("500ms, 30s, 10m, 1h");
        }
        assertThatThrownBy(() -> Durations.parse("k", "999999999999h"))
                .isInstanceOf(InvalidParameterException.class)
                .hasMessageContaining("too long");
    }

    @Test
    void format() {
        assertThat(Durations.format(Duration.ofMillis(500))).isEqualTo("500ms");
        assertThat(Durations.format(Duration.ofSeconds(90))).isEqualTo("1m30s");
        assertThat(Durations.format(Duration.ofMillis(1500))).isEqualTo("1.5s");
        assertThat(Durations.format(Duration.ofHours(2))).isEqualTo("2h");
        assertThat(Durations.format(Duration.ZERO)).isEqualTo("0s");
    }
}
