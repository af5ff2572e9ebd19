package org.bgbench.rating;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.bgbench.model.InvalidParameterException;
import org.junit.jupiter.api.Test;

/** The doubling sequence and the stop rule of the Delta Analyzer on synthetic throughputs whose answer is known. */
class DoublingDeltaTest {
    /** Runs the doubling loop as the analyzer does, each δ's throughput from {@code tp}, mix deviation 0. */
    private static List<DoublingDelta.Experiment> loop(
            Map<Integer, Double> tp, Map<Integer, Double> mix, DoublingDelta.Settings s) {
        List<DoublingDelta.Experiment> done = new ArrayList<>();
        for (int d : DoublingDelta.sequence(s.maxDeltaS())) {
            if (!DoublingDelta.more(done, s)) {
                break;
            }
            done.add(new DoublingDelta.Experiment(d, tp.get(d), mix.getOrDefault(d, 0.0)));
        }
        return done;
    }

    @Test
    void theSequenceDoublesFromOneSecondUpToDelta() {
        assertThat(DoublingDelta.sequence(60)).containsExactly(1, 2, 4, 8, 16, 32);
        assertThat(DoublingDelta.sequence(64)).containsExactly(1, 2, 4, 8, 16, 32, 64);
        assertThat(DoublingDelta.sequence(1)).containsExactly(1);
        assertThat(DoublingDelta.sequence(0)).isEmpty();
    }

    @Test
    void theDissertationsExampleTwoFourAndEightAgreeSoDeltaIsTwo() {
        // D 7.3.1: "if the experiments with δ = 2, 4 and 8 seconds all result in almost the same throughput ... then
        // δ = 2 second is selected"; no experiment beyond 8 s is run.
        DoublingDelta.Settings s = new DoublingDelta.Settings(5, 3, 0.05, 120);
        List<DoublingDelta.Experiment> done =
                loop(Map.of(1, 500.0, 2, 1000.0, 4, 1020.0, 8, 990.0, 16, 1010.0), Map.of(), s);
        assertThat(done).extracting(DoublingDelta.Experiment::deltaS).containsExactly(1, 2, 4, 8);
        DoublingDelta.Verdict v = DoublingDelta.judge(done, s);
        assertThat(v.converged()).isTrue();
        assertThat(v.deltaS()).isEqualTo(2);
        assertThat(v.agreeing()).isEqualTo(1);
        assertThat(v.reason()).contains("δ = 2, 4, 8 s", "π = 5 %");
    }

    @Test
    void likeFigure713aSixUnsteadyExperimentsThenThreeThatAgreeGiveThirtyTwoSeconds() {
        DoublingDelta.Settings s = new DoublingDelta.Settings(5, 3, 0.05, 600);
        Map<Integer, Double> tp = Map.of(
                1, 100.0, 2, 300.0, 4, 500.0, 8, 700.0, 16, 850.0, 32, 1000.0, 64, 1010.0, 128, 1005.0, 256, 1000.0);
        List<DoublingDelta.Experiment> done = loop(tp, Map.of(), s);
        assertThat(done).hasSize(8);
        assertThat(DoublingDelta.judge(done, s).deltaS()).isEqualTo(32);
        assertThat(DoublingDelta.withinTolerance(done, 4, s)).as("850 vs 700").isFalse();
        assertThat(DoublingDelta.withinTolerance(done, 6, s)).as("1010 vs 1000").isTrue();
        assertThat(DoublingDelta.withinTolerance(done, 0, s)).isTrue();
    }

    @Test
    void aThroughputThatKeepsFallingNeverConvergesAndDeltaIsBigDelta() {
        // Feeds that grow with the run (D figure 7.12): every longer experiment is slower.
        DoublingDelta.Settings s = new DoublingDelta.Settings(5, 3, 0.05, 40);
        Map<Integer, Double> tp = Map.of(1, 1000.0, 2, 800.0, 4, 640.0, 8, 512.0, 16, 410.0, 32, 328.0);
        List<DoublingDelta.Experiment> done = loop(tp, Map.of(), s);
        assertThat(done).extracting(DoublingDelta.Experiment::deltaS).containsExactly(1, 2, 4, 8, 16, 32);
        DoublingDelta.Verdict v = DoublingDelta.judge(done, s);
        assertThat(v.converged()).isFalse();
        assertThat(v.deltaS()).isEqualTo(40);
        assertThat(v.agreeing()).isEqualTo(-1);
        assertThat(v.reason()).contains("no 3 consecutive experiments", "up to δ = 32 s", "using Δ = 40 s");
    }

    @Test
    void aSteadyThroughputWithTheWrongMixIsNotEnough() {
        // Short experiments issue only the most likely actions (D 7.3, condition 2): the mix decides.
        DoublingDelta.Settings s = new DoublingDelta.Settings(5, 3, 0.05, 64);
        Map<Integer, Double> tp =
                Map.of(1, 1000.0, 2, 1000.0, 4, 1000.0, 8, 1000.0, 16, 1000.0, 32, 1000.0, 64, 1000.0);
        List<DoublingDelta.Experiment> done = loop(tp, Map.of(1, 0.3, 2, 0.1), s);
        assertThat(DoublingDelta.judge(done, s).deltaS()).isEqualTo(4);
        assertThat(done).hasSize(5);
        assertThat(DoublingDelta.mixOk(done.get(1), s)).isFalse();

        List<DoublingDelta.Experiment> never = loop(tp, Map.of(1, 0.3, 2, 0.3, 4, 0.3, 8, 0.3, 16, 0.3, 32, 0.3), s);
        DoublingDelta.Verdict v = DoublingDelta.judge(never, s);
        assertThat(v.converged()).isFalse();
        assertThat(v.reason()).contains("issued a mix off the specified one", "using Δ = 64 s");
    }

    @Test
    void badSettingsNameTheirOption() {
        assertThatThrownBy(() -> new DoublingDelta.Settings(0, 3, 0.05, 60))
                .isInstanceOf(InvalidParameterException.class)
                .hasMessageContaining("--pi");
        assertThatThrownBy(() -> new DoublingDelta.Settings(5, 1, 0.05, 60))
                .isInstanceOf(InvalidParameterException.class)
                .hasMessageContaining("--m");
        assertThatThrownBy(() -> new DoublingDelta.Settings(5, 3, 2, 60))
                .isInstanceOf(InvalidParameterException.class)
                .hasMessageContaining("--mix-tolerance");
        assertThatThrownBy(() -> new DoublingDelta.Settings(5, 3, 0.05, 3))
                .isInstanceOf(InvalidParameterException.class)
                .hasMessageContaining("--duration")
                .hasMessageContaining("too short")
                .hasMessageContaining("at least 4 s");
    }
}
