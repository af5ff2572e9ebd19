package org.bgbench.study.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Numbers and ticks as a reader sees them: separators, no duplicate tick labels, ticks that fit apart. */
class NumbersTest {
    @Test
    void formatsWithSeparatorsAndFewDecimals() {
        assertThat(Numbers.format(4210)).isEqualTo("4,210");
        assertThat(Numbers.format(1234.5)).isEqualTo("1,235");
        assertThat(Numbers.format(12.34)).isEqualTo("12.3");
        assertThat(Numbers.format(1.5)).isEqualTo("1.5");
        assertThat(Numbers.format(0.0123)).isEqualTo("0.0123");
        assertThat(Numbers.factor(2.3077)).isEqualTo("2.31×");
        assertThat(Numbers.percent(-0.1)).isEqualTo("−10%");
    }

    @Test
    void yTicksAreRoundDistinctAndCoverTheMaximum() {
        Axis a = Axis.values(0, 4210, 320, 20);
        List<String> labels = a.ticks().stream().map(Axis.Tick::label).toList();
        assertThat(labels).containsExactly("0", "1,000", "2,000", "3,000", "4,000", "5,000");
        // 1.01 ends at 1.2, not at 1.5 (a step of 0.2 computed as 2.0000000000000004 tenths).
        assertThat(Axis.values(0, 1.01, 320, 20).ticks().stream().map(Axis.Tick::label))
                .containsExactly("0.0", "0.2", "0.4", "0.6", "0.8", "1.0", "1.2");
        // Below zero, the ticks stay on multiples of the step.
        assertThat(Axis.values(-20, 1e6, 320, 20).ticks().stream().map(Axis.Tick::label))
                .containsExactly(
                        "−200,000".replace('−', '-'), "0", "200,000", "400,000", "600,000", "800,000", "1,000,000");
        Axis small = Axis.values(0, 0.37, 320, 20);
        assertThat(small.ticks().stream().map(Axis.Tick::label))
                .doesNotHaveDuplicates()
                .contains("0.1");
    }

    @Test
    void doublingXIsLogScaledAtTheMeasuredValues() {
        Axis a = Axis.xs(List.of(1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0), 60, 800, 14);
        assertThat(a.log()).isTrue();
        assertThat(a.ticks().stream().map(Axis.Tick::label)).containsExactly("1", "2", "4", "8", "16", "32", "64");
        Axis crowded = Axis.xs(List.of(1.0, 2.0, 3.0, 100.0, 1000.0, 1001.0), 60, 800, 14);
        assertThat(crowded.ticks().stream().map(Axis.Tick::label)).doesNotHaveDuplicates();
    }
}
