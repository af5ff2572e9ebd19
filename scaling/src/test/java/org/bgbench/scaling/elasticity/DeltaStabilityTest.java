package org.bgbench.scaling.elasticity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.assertj.core.api.Assertions;
import org.bgbench.scaling.elasticity.SetPoint.Phase;
import org.junit.jupiter.api.Test;

class DeltaStabilityTest {
    private static List<SetPoint> timeline(double... means) {
        List<SetPoint> ps = new ArrayList<>();
        for (int k = 0; k < means.length; k++) {
            ps.add(new SetPoint(k, k, k + 1, means[k], 0, 1, 0.001, Phase.TRANSITION));
        }
        return ps;
    }

    @Test
    void theMedianOfTheDeltaTimes() {
        // Deltas 0.1, 0.3, 0.2, 0.1 → median of four = (0.1 + 0.2) / 2.
        assertThat(DeltaStability.medianDelta(timeline(1.0, 1.1, 0.8, 1.0, 1.1)))
                .isCloseTo(0.15, Assertions.within(1e-12));
        // Deltas 0.5, 0.1, 0.2 → 0.2.
        assertThat(DeltaStability.medianDelta(timeline(1.0, 1.5, 1.4, 1.6))).isCloseTo(0.2, Assertions.within(1e-12));
        assertThatThrownBy(() -> DeltaStability.medianDelta(timeline(1.0)))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void stableWhenTheLastXDeltasAreWithinTheMedianAndStartedAfterTheGivenMoment() {
        List<SetPoint> ps = timeline(1.0, 3.0, 2.0, 1.2, 1.1, 1.2, 1.1, 1.2);
        // Last five deltas: 0.8, 0.1, 0.1, 0.1, 0.1: one too large.
        assertThat(DeltaStability.endsStable(ps, 0, 0.1 + 1e-9, 5)).isFalse();
        assertThat(DeltaStability.endsStable(ps, 0, 0.1 + 1e-9, 4)).isTrue();
        // The same four points, but the moment they must start after is later than the first of them (t=4).
        assertThat(DeltaStability.endsStable(ps, 4.5, 0.1 + 1e-9, 4)).isFalse();
        // Equal to the median counts as within it: a flat timeline with median 0 can be stable.
        assertThat(DeltaStability.endsStable(timeline(1, 1, 1, 1, 1, 1), 0, 0, 5))
                .isTrue();
        // Fewer points than the window plus one: not yet.
        assertThat(DeltaStability.endsStable(timeline(1, 1, 1), 0, 1, 5)).isFalse();
    }

    @Test
    void aBaselineThatKeepsFallingIsFlaggedOneThatVariesAroundALevelIsNot() {
        // Falling 0.05 s a point: median delta 0.05, halves 0.9 and 0.65 apart by 0.25 > 2 × 0.05.
        List<SetPoint> falling = timeline(1.0, 0.95, 0.9, 0.85, 0.8, 0.75, 0.7, 0.65, 0.6, 0.55);
        assertThat(DeltaStability.drift(falling, DeltaStability.medianDelta(falling)))
                .get()
                .asString()
                .contains("not stable", "0.9000", "0.6500");
        List<SetPoint> level = timeline(1.0, 1.1, 0.95, 1.05, 1.0, 0.9, 1.1, 1.0, 0.95, 1.05);
        assertThat(DeltaStability.drift(level, DeltaStability.medianDelta(level)))
                .isEmpty();
        // A very steady store (deltas of 0.4 ms on 209 ms) whose level moved 1.2 ms, 0.6 %: beyond twice the median
        // delta but not a drift that changes the score (CI's scripted store on a loaded machine did this).
        List<SetPoint> steady =
                timeline(0.2093, 0.2097, 0.2090, 0.2094, 0.2091, 0.2081, 0.2085, 0.2079, 0.2083, 0.2080);
        double m = DeltaStability.medianDelta(steady);
        assertThat(Math.abs(0.2093 - 0.2081)).isGreaterThan(2 * m);
        assertThat(DeltaStability.drift(steady, m)).isEmpty();
        // The same shape scaled to a 5 % move is flagged.
        List<SetPoint> moved = timeline(0.2093, 0.2097, 0.2090, 0.2094, 0.2091, 0.1981, 0.1985, 0.1979, 0.1983, 0.1980);
        assertThat(DeltaStability.drift(moved, DeltaStability.medianDelta(moved)))
                .isPresent();
    }
}
