package org.bgbench.scaling.elasticity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import org.bgbench.scaling.elasticity.Curves.Interpolation;
import org.bgbench.scaling.elasticity.SetPoint.Phase;
import org.junit.jupiter.api.Test;

/** The score against timelines worked out by hand from the elasticity paper's definitions (section 2.1, figure 2). */
class ElasticityScoreTest {
    /** Point k spans [k − 0.5, k + 0.5], so its mean is drawn at t = k. */
    private static SetPoint p(int k, double mean, double sd, double latency, Phase phase) {
        return new SetPoint(k, k - 0.5, k + 0.5, mean, sd, 10, latency, phase);
    }

    private static List<SetPoint> flat(int from, int to, double mean, double sd, Phase phase, List<SetPoint> into) {
        for (int k = from; k <= to; k++) {
            into.add(p(k, mean, sd, 0.01, phase));
        }
        return into;
    }

    @Test
    void aTimelineWithoutDisturbanceScoresZeroWithEitherInterpolation() {
        List<SetPoint> all = new ArrayList<>();
        flat(0, 4, 1.0, 0.1, Phase.BASELINE, all);
        flat(5, 9, 1.0, 0.1, Phase.TRANSITION, all);
        flat(10, 14, 1.0, 0.1, Phase.STABLE, all);
        for (Interpolation how : Interpolation.values()) {
            ElasticityScore s = ElasticityScore.of(all.subList(0, 5), all, all.subList(10, 15), 4.5, 9.5, how);
            assertThat(s.a()).as(how.name()).isCloseTo(0, within(1e-9));
            assertThat(s.b()).as(how.name()).isCloseTo(0, within(1e-9));
            assertThat(s.elasticity()).as(how.name()).isCloseTo(0, within(1e-6));
            // The whole standard deviation over the 5 s between add and stable: 0.1 × 5.
            assertThat(s.bRaw()).as(how.name()).isCloseTo(0.5, within(1e-6));
        }
    }

    @Test
    void aStepWithASlowRecoveryScoresTheAreaAboveTheRampByHand() {
        List<SetPoint> all = new ArrayList<>();
        flat(0, 4, 1.0, 0.1, Phase.BASELINE, all);
        all.add(p(5, 3.0, 0.3, 0.03, Phase.TRANSITION));
        all.add(p(6, 2.0, 0.1, 0.02, Phase.TRANSITION));
        all.add(p(7, 1.0, 0.1, 0.01, Phase.TRANSITION));
        flat(8, 10, 1.0, 0.1, Phase.STABLE, all);
        ElasticityScore s =
                ElasticityScore.of(all.subList(0, 5), all, all.subList(8, 11), 4.5, 7.0, Interpolation.LINEAR);
        // Above the flat ramp at 1.0: from t=4.5 (2.0) to 5 (3.0) 0.5·(1+2)/2 = 0.75; 5→6 (2→1) 1.5; 6→7 (1→0) 0.5.
        assertThat(s.a()).isCloseTo(2.75, within(1e-6));
        // SD above 0.1: 4.5→5 (0.1→0.2 above) 0.075; 5→6 (0.2→0) 0.1; 6→7 nothing.
        assertThat(s.b()).isCloseTo(0.175, within(1e-6));
        // The whole SD: 4.5→5 (0.2→0.3) 0.125; 5→6 (0.3→0.1) 0.2; 6→7 0.1.
        assertThat(s.bRaw()).isCloseTo(0.425, within(1e-6));
        assertThat(s.av1()).isEqualTo(1.0);
        assertThat(s.av2()).isEqualTo(1.0);
        assertThat(s.rt1()).isCloseTo(0.01, within(1e-12));
        // (A + B) / ((Rt1 + Rt2)(Av1 + Av2)) = 2.925 / (0.02 · 2).
        assertThat(s.elasticity()).isCloseTo(73.125, within(1e-4));
        assertThat(s.elasticityWithRawB()).isCloseTo(3.175 / 0.04, within(1e-4));
        // The spline through the same points bulges differently but encloses an area of the same size.
        ElasticityScore spline =
                ElasticityScore.of(all.subList(0, 5), all, all.subList(8, 11), 4.5, 7.0, Interpolation.SPLINE);
        assertThat(spline.a()).isBetween(2.0, 3.5);
    }

    @Test
    void theRampFromTheOldLevelToTheNewIsNotCounted() {
        // Set times fall from 2 s to 1 s along the straight line between add (t=4.5) and stable (t=9): the paper's
        // triangle, which even a perfectly elastic store draws. Nothing lies above it (between t=4 and 5 the joined
        // points run below the ramp: 1.944 against 2.0 at 4.5).
        List<SetPoint> all = new ArrayList<>();
        flat(0, 4, 2.0, 0.0, Phase.BASELINE, all);
        for (int k = 5; k <= 9; k++) {
            all.add(p(k, ramp(k), 0.0, 0.01, Phase.TRANSITION));
        }
        flat(10, 13, 1.0, 0.0, Phase.STABLE, all);
        ElasticityScore s =
                ElasticityScore.of(all.subList(0, 5), all, all.subList(10, 14), 4.5, 9.0, Interpolation.LINEAR);
        assertThat(s.a()).isCloseTo(0, within(1e-9));
        assertThat(s.elasticity()).isCloseTo(0, within(1e-9));
        // A bump of 0.5 s on the point at t=7 adds a triangle 0.5 high and 2 s wide: 0.5.
        all.set(7, p(7, ramp(7) + 0.5, 0.0, 0.01, Phase.TRANSITION));
        ElasticityScore bump =
                ElasticityScore.of(all.subList(0, 5), all, all.subList(10, 14), 4.5, 9.0, Interpolation.LINEAR);
        assertThat(bump.a()).isCloseTo(0.5, within(1e-6));
        // Rt1 = Rt2 = 0.01, Av1 = 2, Av2 = 1: 0.5 / (0.02 · 3).
        assertThat(bump.elasticity()).isCloseTo(0.5 / 0.06, within(1e-6));
    }

    /** The straight line from 2 s at t=4.5 to 1 s at t=9. */
    private static double ramp(double t) {
        return 2.0 - (t - 4.5) / 4.5;
    }

    @Test
    void adaptiveSimpsonIntegratesAKnownFunction() {
        // ∫₀^π sin = 2; and max(0, sin) over [0, 2π] is 2 as well (the kink at π).
        assertThat(Curves.simpson(Math::sin, 0, Math.PI)).isCloseTo(2, within(1e-8));
        assertThat(Curves.areaAboveRamp(Math::sin, 0, 2 * Math.PI, 0, 0, new double[] {Math.PI}))
                .isCloseTo(2, within(1e-8));
    }

    @Test
    void scalabilityScoreIsTheRelativeChangeOfTheAverages() {
        ScalabilityScore s = ScalabilityScore.of(1.8, 2.0);
        assertThat(s.score()).isCloseTo(0.2 / 1.8, within(1e-12));
        assertThat(ScalabilityScore.of(2.0, 1.5).score()).isCloseTo(-0.25, within(1e-12));
        List<SetPoint> ps = List.of(p(0, 1.0, 0, 0, Phase.BASELINE), p(1, 2.0, 0, 0, Phase.BASELINE));
        assertThat(ScalabilityScore.average(ps)).isEqualTo(1.5);
    }
}
