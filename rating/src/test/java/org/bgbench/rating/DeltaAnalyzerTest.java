package org.bgbench.rating;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.IntToDoubleFunction;
import org.bgbench.model.InvalidParameterException;
import org.junit.jupiter.api.Test;

class DeltaAnalyzerTest {
    private static final DeltaAnalyzer.Settings DEFAULTS = DeltaAnalyzer.Settings.defaults();

    private static double[] series(int n, IntToDoubleFunction f) {
        double[] s = new double[n];
        for (int i = 0; i < n; i++) {
            s[i] = f.applyAsDouble(i);
        }
        return s;
    }

    @Test
    void aStableSeriesGivesTheSmallestDelta() {
        double[] s = series(60, i -> 1000 + (i % 2 == 0 ? 20 : -20));
        DeltaAnalyzer.Result r = DeltaAnalyzer.analyze(s, DEFAULTS, 60);
        assertThat(r.converged()).isTrue();
        assertThat(r.deltaS()).isEqualTo(1);
        assertThat(r.windowThroughputs()).containsExactly(1020.0, 980.0, 1020.0);
        assertThat(r.reason()).contains("3 consecutive windows of 1 s");
        assertThat(r.toMap())
                .containsEntry("delta_s", 1.0)
                .containsEntry("converged", true)
                .containsKey("trials");
    }

    @Test
    void aNoisySeriesStabilisesOnlyAtLargerWindows() {
        // A saw-tooth with a period of 10 s: 55, 65, …, 145 actions/s, mean 100.
        double[] s = series(60, i -> 55 + 10 * (i % 10));
        DeltaAnalyzer.Result r = DeltaAnalyzer.analyze(s, DEFAULTS, 60);
        assertThat(r.converged()).isTrue();
        assertThat(r.deltaS()).isEqualTo(10);
        assertThat(r.windowThroughputs()).containsExactly(100.0, 100.0, 100.0);
        assertThat(r.trials()).extracting(DeltaAnalyzer.Trial::deltaS).containsExactly(1, 2, 3, 5, 10);
        assertThat(r.trials().subList(0, 4)).allMatch(t -> !t.throughputStable());
    }

    @Test
    void skipLeavesOutTheStartOfTheSeries() {
        double[] s = series(40, i -> i < 10 ? 10 * i + 5 : 100);
        DeltaAnalyzer.Settings skip = new DeltaAnalyzer.Settings(10, 3, null, 10, 0.05);
        assertThat(DeltaAnalyzer.analyze(s, skip, 40).deltaS()).isEqualTo(1);
        assertThat(DeltaAnalyzer.analyze(s, DEFAULTS, 40).converged()).isFalse();
    }

    @Test
    void aGrowingSeriesNeverStabilisesAndFallsBackToBigDelta() {
        double[] s = series(90, i -> 10 + 10 * i);
        DeltaAnalyzer.Result r = DeltaAnalyzer.analyze(s, DEFAULTS, 90);
        assertThat(r.converged()).isFalse();
        assertThat(r.deltaS()).isEqualTo(90);
        assertThat(r.reason()).startsWith("throughput varies by").contains("every δ ≤ 30 s", "using Δ = 90 s");
        assertThat(r.trials()).extracting(DeltaAnalyzer.Trial::deltaS).containsExactly(1, 2, 3, 5, 10, 15, 20, 30);
    }

    @Test
    void anIdleSeriesIsNeverStable() {
        DeltaAnalyzer.Result r = DeltaAnalyzer.analyze(new double[12], DEFAULTS, 12);
        assertThat(r.converged()).isFalse();
        assertThat(r.reason()).contains("∞");
    }

    @Test
    void theIssuedMixMustMatchTheConfiguredOne() {
        double[] s = series(30, i -> 100);
        List<Map<String, Long>> skewed = new ArrayList<>();
        List<Map<String, Long>> matching = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            skewed.add(Map.of("VP", 90L, "LF", 10L));
            matching.add(Map.of("VP", i % 2 == 0 ? 52L : 48L, "LF", i % 2 == 0 ? 48L : 52L));
        }
        Map<String, Double> mix = Map.of("VP", 0.5, "LF", 0.5);
        DeltaAnalyzer.Result bad = DeltaAnalyzer.analyze(s, skewed, mix, DEFAULTS, 30);
        assertThat(bad.converged()).isFalse();
        assertThat(bad.reason()).contains("issued mix differs", "0.400");
        assertThat(bad.trials().get(0).mixOk()).isFalse();
        DeltaAnalyzer.Result good = DeltaAnalyzer.analyze(s, matching, mix, DEFAULTS, 30);
        assertThat(good.converged()).isTrue();
        assertThat(good.deltaS()).isEqualTo(1);
        assertThat(good.reason()).contains("configured mix");
    }

    @Test
    void badInputNamesTheOption() {
        assertThatThrownBy(() -> new DeltaAnalyzer.Settings(0, 3, null, 0, 0.05))
                .isInstanceOf(InvalidParameterException.class)
                .hasMessageContaining("--pi");
        assertThatThrownBy(() -> new DeltaAnalyzer.Settings(10, 1, null, 0, 0.05))
                .isInstanceOf(InvalidParameterException.class)
                .hasMessageContaining("--m");
        assertThatThrownBy(() -> DeltaAnalyzer.analyze(new double[2], DEFAULTS, 2))
                .isInstanceOf(InvalidParameterException.class)
                .hasMessageContaining("--duration");
    }
}
