package org.bgbench.workload.mix;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.Map;
import java.util.SplittableRandom;
import org.bgbench.model.Action;
import org.bgbench.model.InvalidParameterException;
import org.bgbench.model.Kind;
import org.bgbench.model.SessionType;
import org.bgbench.workload.distribution.ChiSquare;
import org.junit.jupiter.api.Test;

class MixTest {
    @Test
    void weightsAndPicksAreIndexedByKind() {
        for (Kind k : Kind.all()) {
            Mix only = Mix.only(k);
            assertThat(only.pick(0.5)).as(k.code()).isEqualTo(k.index());
            assertThat(only.weight(k.index())).isEqualTo(1.0);
            assertThat(only.weights()).hasSize(Kind.count());
        }
        assertThat(Mix.only(SessionType.VIEW_SELF_PROFILE).describe()).isEqualTo("VSP 100 %");
    }

    @Test
    void pickFollowsTheWeights() {
        Mix mix = Mixes.byName("high");
        long[] counts = new long[Kind.count()];
        SplittableRandom rnd = new SplittableRandom(11);
        int n = 2_000_000;
        for (int i = 0; i < n; i++) {
            counts[mix.pick(rnd)]++;
        }
        ChiSquare.Fit fit = ChiSquare.fit(counts, mix.weights());
        assertThat(fit.pValue())
                .as("X²=%s df=%s", fit.statistic(), fit.degreesOfFreedom())
                .isGreaterThan(1e-4);
        // The same counts must be rejected against a different mix: the test can fail.
        assertThat(ChiSquare.fit(counts, Mixes.byName("low").weights()).pValue())
                .isLessThan(1e-9);
    }

    @Test
    void zeroWeightChoicesAreNeverPicked() {
        Mix mix = Mixes.byName("verylow");
        SplittableRandom rnd = new SplittableRandom(5);
        for (int i = 0; i < 1_000_000; i++) {
            int c = mix.pick(rnd);
            assertThat(mix.weight(c)).isPositive();
        }
        assertThat(mix.pick(0.0)).isBetween(0, Kind.count() - 1);
        assertThat(mix.weight(mix.pick(Math.nextDown(1.0)))).isPositive();
        assertThat(Mix.only(Action.LF).pick(0.999999)).isEqualTo(Action.LF.index());
    }

    @Test
    void pickIsAPureFunctionOfU() {
        Mix mix = Mixes.byName("cikm-high");
        for (double u = 0; u < 1; u += 0.001) {
            assertThat(mix.pick(u)).isEqualTo(mix.pick(u));
        }
    }

    @Test
    void validatesFrequencies() {
        assertThatThrownBy(() -> Mix.builder()
                        .percent(Action.VP, 60)
                        .percent(Action.LF, 30)
                        .build())
                .isInstanceOf(InvalidParameterException.class)
                .hasMessageContaining("90 %")
                .hasMessageContaining("VP 60 %")
                .hasMessageContaining("LF 30 %");
        assertThatThrownBy(() -> Mix.builder()
                        .fraction(Action.VP, 1.1)
                        .fraction(Action.LF, -0.1)
                        .build())
                .isInstanceOf(InvalidParameterException.class)
                .hasMessageContaining("LF");
        assertThatThrownBy(() -> Mix.of(Map.of(Action.VP, Double.NaN), Map.of()))
                .isInstanceOf(InvalidParameterException.class);
        // Within the tolerance the fractions are accepted and rescaled.
        Mix m = Mix.builder()
                .fraction(Action.VP, 0.5)
                .fraction(Action.LF, 0.5000004)
                .build();
        assertThat(m.weight(Action.VP) + m.weight(Action.LF)).isCloseTo(1.0, within(1e-11));
    }

    @Test
    void writeFractionCountsSessionActions() {
        assertThat(Mixes.byName("verylow").writeFraction()).isCloseTo(0.001, within(1e-12));
        assertThat(Mixes.byName("low").writeFraction()).isCloseTo(0.01, within(1e-12));
        assertThat(Mixes.byName("high").writeFraction()).isCloseTo(0.10, within(1e-12));
        assertThat(Mixes.byName("vp").writeFraction()).isZero();
        // ThawFrdship issues VP VTR LF TF LF: one write in five actions.
        Mix thaw = Mix.only(SessionType.THAW_FRIENDSHIP);
        assertThat(thaw.writeFraction()).isCloseTo(0.2, within(1e-12));
        assertThat(thaw.actionsPerRequest()).isEqualTo(5.0);
        assertThat(thaw.perRequest(Action.LF)).isEqualTo(2.0);
    }

    @Test
    void symmetryCountsSessionsToo() {
        Mix sessions = Mix.builder()
                .percent(SessionType.INVITE_FRIEND, 20)
                .percent(SessionType.ACCEPT_FRIEND_REQUEST, 10)
                .percent(SessionType.REJECT_FRIEND_REQUEST, 10)
                .percent(SessionType.THAW_FRIENDSHIP, 10)
                .percent(SessionType.VIEW_SELF_PROFILE, 50)
                .build();
        assertThat(sessions.symmetryWarnings()).isEmpty();
        assertThat(sessions.isSymmetric()).isTrue();
        Mix mixed = Mix.builder()
                .percent(Action.IF, 2)
                .percent(SessionType.ACCEPT_FRIEND_REQUEST, 1)
                .percent(Action.RFR, 1)
                .percent(Action.TF, 1)
                .percent(Action.PCR, 1)
                .percent(SessionType.DELETE_COMMENT, 1)
                .percent(Action.VP, 93)
                .build();
        assertThat(mixed.symmetryWarnings()).isEmpty();
    }

    @Test
    void asymmetricMixesSayHowTheGraphDrifts() {
        Mix cikm = Mixes.byName("cikm-low");
        assertThat(cikm.symmetryWarnings()).hasSize(2);
        assertThat(cikm.symmetryWarnings().get(0))
                .contains("IF 0.2 %")
                .contains("AFR + RFR 0.5 %")
                .contains("shrink")
                .contains("repeated experiments do not start from the same state");
        assertThat(cikm.symmetryWarnings().get(1))
                .contains("TF 0.3 %")
                .contains("AFR 0.2 %")
                .contains("shrinks");
        Mix posts = Mix.builder().percent(Action.PCR, 10).percent(Action.VP, 90).build();
        assertThat(posts.symmetryWarnings())
                .singleElement()
                .asString()
                .contains("PCR 10 %")
                .contains("accumulate")
                .contains("drifts");
    }

    @Test
    void pendingInvitationsNeededWithoutInvites() {
        assertThat(Mix.only(Action.AFR).needsPendingInvitations()).isTrue();
        assertThat(Mix.only(SessionType.REJECT_FRIEND_REQUEST).needsPendingInvitations())
                .isTrue();
        assertThat(Mixes.byName("high").needsPendingInvitations()).isFalse();
        assertThat(Mix.builder()
                        .percent(SessionType.INVITE_FRIEND, 50)
                        .percent(Action.AFR, 50)
                        .build()
                        .needsPendingInvitations())
                .isFalse();
        assertThat(Mixes.byName("vp").needsPendingInvitations()).isFalse();
    }

    @Test
    void propertiesRoundTripThroughUscKeys() {
        Mix low = Mixes.byName("low");
        Map<String, String> p = low.toProperties();
        assertThat(p)
                .hasSize(Kind.count())
                .containsEntry("ViewProfileAction", "0.4")
                .containsEntry("InviteFriendAction", "0.004")
                .containsEntry("ThawFrdshipSession", "0");
        double[] w = new double[Kind.count()];
        p.forEach((k, v) -> w[Kind.byUscKey(k).orElseThrow().index()] = Double.parseDouble(v));
        assertThat(Mix.ofWeights(w)).isEqualTo(low);
        assertThat(low.describe())
                .isEqualTo("VP 40 %, LF 5 %, VFR 5 %, IF 0.4 %, AFR 0.2 %, RFR 0.2 %, TF 0.2 %, " + "VTR 49 %");
    }
}
