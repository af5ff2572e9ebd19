package org.bgbench.scaling.elasticity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.DoubleSupplier;
import org.bgbench.scaling.elasticity.Curves.Interpolation;
import org.bgbench.scaling.elasticity.SetPoint.Phase;
import org.junit.jupiter.api.Test;

/**
 * The methodology's moments on a scripted store: each set takes the next scripted time on a clock that the sets
 * themselves advance, so every point, delta and moment is known in advance.
 */
class ElasticityRunTest {
    /** Set times in order, then 1.0 s forever; the clock advances by each set's time. */
    private static final class Script implements RequestSets {
        final double[] clock = {100};
        private final double[] times;
        private int next;
        final List<Long> seeds = new ArrayList<>();

        Script(double... times) {
            this.times = times;
        }

        @Override
        public SetRun run(int requests, int threads, long seed) {
            seeds.add(seed);
            double s = next < times.length ? times[next++] : 1.0;
            clock[0] += s;
            // Each thread's requests one after the other: the mean latency is the set time over the requests per
            // thread.
            return new SetRun(s, s / (requests / (double) threads), 0);
        }
    }

    /** Adds that end after {@code endAfterChecks} checks of ended(); data settled at once. */
    private static final class ScriptedGrowth implements Growth {
        int checks;
        final int endAfterChecks;
        final String failure;
        boolean begun;
        double startedAt = -1;

        ScriptedGrowth(int endAfterChecks, String failure) {
            this.endAfterChecks = endAfterChecks;
            this.failure = failure;
        }

        @Override
        public void begin(DoubleSupplier now) {
            begun = true;
            startedAt = now.getAsDouble();
        }

        @Override
        public boolean ended() {
            return ++checks >= endAfterChecks;
        }

        @Override
        public String failure() {
            return failure;
        }

        @Override
        public boolean settled() {
            return true;
        }

        @Override
        public List<Step> steps() {
            return List.of(new Step("add", 5.2, 8.2, failure == null ? 0 : 1));
        }
    }

    private static ElasticityPlan plan(int baseline, int maxPoints) {
        return new ElasticityPlan(
                new ElasticityPlan.Sets(100, 1, 2, 0),
                new ElasticityPlan.Stability(baseline, 3, 5, 1.0, maxPoints),
                Interpolation.LINEAR);
    }

    @Test
    void baselineAddRecoveryAndStableMomentsFollowTheScript() {
        // Baseline 1.0, 1.1, 1.0, 1.1, 1.0 (median delta 0.1), then the add: 3.0, 2.0, 1.5, then 1.0, 1.1, 1.0, 1.1,
        // ...
        Script sets = new Script(1.0, 1.1, 1.0, 1.1, 1.0, 3.0, 2.0, 1.5, 1.0, 1.1, 1.0, 1.1, 1.0, 1.1, 1.0, 1.1);
        ScriptedGrowth growth = new ScriptedGrowth(2, null);
        List<ElasticityResult> seen = new ArrayList<>();
        ElasticityResult r =
                new ElasticityRun(plan(5, 50), sets, () -> sets.clock[0], () -> false, 7).run(growth, seen::add);
        assertThat(r.status()).isEqualTo(ElasticityResult.Status.STABLE);
        assertThat(r.medianDelta()).isCloseTo(0.1, within(1e-9));
        assertThat(r.addAt()).isCloseTo(5.2, within(1e-9));
        // The add's clock is the test's: it began at the add moment.
        assertThat(growth.startedAt).isCloseTo(5.2, within(1e-9));
        // The add ends at the second check, after the points 3.0 and 2.0: t = 5.2 + 5.0 = 10.2. The points that
        // start from then: 1.5 (delta 0.5), 1.0 (0.5), 1.1, 1.0, 1.1, 1.0, 1.1 (0.1 each): the fifth of the 0.1s ends
        // the window, at 10.2 + 1.5 + 1.0 + 1.1 + 1.0 + 1.1 + 1.0 + 1.1 = 18.0.
        assertThat(r.settledAt()).isCloseTo(10.2, within(1e-9));
        assertThat(r.stableAt()).isCloseTo(18.0, within(1e-9));
        assertThat(r.stabilisationSeconds()).isCloseTo(12.8, within(1e-9));
        assertThat(r.points())
                .extracting(SetPoint::phase)
                .containsExactly(
                        Phase.BASELINE,
                        Phase.BASELINE,
                        Phase.BASELINE,
                        Phase.BASELINE,
                        Phase.BASELINE,
                        Phase.TRANSITION,
                        Phase.TRANSITION,
                        Phase.TRANSITION,
                        Phase.TRANSITION,
                        Phase.TRANSITION,
                        Phase.TRANSITION,
                        Phase.TRANSITION,
                        Phase.TRANSITION,
                        Phase.TRANSITION,
                        Phase.STABLE,
                        Phase.STABLE,
                        Phase.STABLE);
        // Av1 = mean of the baseline (1.04), Av2 = mean of the three stable points after it (1.0, 1.1, 1.0).
        assertThat(r.score().av1()).isCloseTo(1.04, within(1e-9));
        assertThat(r.score().av2()).isCloseTo(3.1 / 3, within(1e-9));
        assertThat(r.score().rt1()).isCloseTo(1.04 / 50, within(1e-9));
        assertThat(r.score().a()).isGreaterThan(2.0);
        ElasticityScore expected = ElasticityScore.of(
                r.points().subList(0, 5), r.points(), r.points().subList(14, 17), 5.2, 18.0, Interpolation.LINEAR);
        assertThat(r.score().a()).isCloseTo(expected.a(), within(1e-9));
        assertThat(r.score().elasticity()).isCloseTo(expected.elasticity(), within(1e-6));
        // One progress report per point, then the finished result; each set drew members with its own seed.
        assertThat(seen).hasSize(18);
        assertThat(seen.get(16).status()).isEqualTo(ElasticityResult.Status.RUNNING);
        assertThat(sets.seeds).doesNotHaveDuplicates().hasSize(17).startsWith(7L);
        assertThat(r.toMap(Map.of("store", "script")))
                .containsEntry("status", "stable")
                .containsEntry("store", "script")
                .containsKey("score");
    }

    @Test
    void aStoreThatNeverSettlesIsReportedUnstableWithItsPointsKept() {
        // After the add the set times keep swinging by 0.5 s: never within the 0.1 s median.
        double[] times = new double[40];
        for (int i = 0; i < times.length; i++) {
            times[i] = i < 5 ? 1.0 + (i % 2) * 0.1 : 1.0 + (i % 2) * 0.5;
        }
        Script sets = new Script(times);
        ElasticityResult r = new ElasticityRun(plan(5, 12), sets, () -> sets.clock[0], () -> false, 1)
                .run(new ScriptedGrowth(1, null), x -> {});
        assertThat(r.status()).isEqualTo(ElasticityResult.Status.UNSTABLE);
        assertThat(r.reason()).contains("12 points");
        assertThat(r.points()).hasSize(17);
        assertThat(r.score()).isNull();
        assertThat(r.stableAt()).isNull();
    }

    @Test
    void aFailedAddOrAStopEndsTheRunWithWhatItMeasured() {
        Script sets = new Script();
        ElasticityResult failed = new ElasticityRun(plan(4, 20), sets, () -> sets.clock[0], () -> false, 1)
                .run(new ScriptedGrowth(1, "the add command 'x' exited with 1"), x -> {});
        assertThat(failed.status()).isEqualTo(ElasticityResult.Status.ADD_FAILED);
        assertThat(failed.reason()).contains("exited with 1");
        assertThat(failed.points()).hasSize(5);

        AtomicBoolean stop = new AtomicBoolean();
        Script more = new Script();
        ElasticityResult stopped = new ElasticityRun(plan(4, 20), more, () -> more.clock[0], stop::get, 1)
                .run(new ScriptedGrowth(100, null), r -> stop.set(r.points().size() >= 6));
        assertThat(stopped.status()).isEqualTo(ElasticityResult.Status.INTERRUPTED);
        assertThat(stopped.points()).hasSize(6);

        ElasticityResult baseline =
                new ElasticityRun(plan(4, 20), new Script(), () -> 0, () -> false, 1).run(null, r -> {});
        assertThat(baseline.status()).isEqualTo(ElasticityResult.Status.BASELINE_ONLY);
        assertThat(baseline.baselineAverage()).isEqualTo(1.0);
    }
}
