package org.bgbench.workload.distribution;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.stream.IntStream;
import org.bgbench.model.InvalidParameterException;
import org.junit.jupiter.api.Test;

class ZipfianTest {
    @Test
    void probabilitiesMatchEquation41AndTable42() {
        // [dissertation table 4.2]: p_i(12, 0.01), its cumulative array A, and p_i(4, 0.01) of Crude with N = 3.
        double[] p12 = Zipfian.probabilities(12, 0.01);
        assertThat(p12[0]).isCloseTo(0.319014588, within(1e-9));
        assertThat(p12[1]).isCloseTo(0.160616755, within(1e-9));
        assertThat(p12[11]).isCloseTo(0.027253426, within(1e-9));
        assertThat(p12[0] + p12[1] + p12[2]).isCloseTo(0.587144224, within(1e-9));
        double[] p4 = Zipfian.probabilities(4, 0.01);
        assertThat(p4[0]).isCloseTo(0.477558748, within(1e-9));
        assertThat(p4[3]).isCloseTo(0.121056305, within(1e-9));
        assertThat(Arrays.stream(Zipfian.probabilities(100_000, 0.27)).sum()).isCloseTo(1.0, within(1e-12));
        assertThat(Zipfian.probabilities(10, 1.0)).containsOnly(0.1);
    }

    @Test
    void theta027SendsAbout62PercentToTheHottest20Percent() {
        assertThat(Zipfian.hottestShare(10_000, 0.27, 0.2)).isCloseTo(0.62, within(0.005));
        assertThat(Zipfian.hottestShare(10_000, 0.99, 0.2)).isCloseTo(0.20, within(0.005));
        // The same from draws: count draws whose member has rank ≤ 2,000.
        int m = 10_000;
        int[] perm = Zipfian.permutation(m, 99);
        boolean[] hot = new boolean[m];
        for (int r = 0; r < m / 5; r++) {
            hot[perm[r]] = true;
        }
        MemberSampler s = Zipfian.sampler(m, 0.27, 99, true);
        SplittableRandom rnd = new SplittableRandom(3);
        int n = 1_000_000;
        int inHot = 0;
        for (int i = 0; i < n; i++) {
            if (hot[s.next(rnd)]) {
                inHot++;
            }
        }
        assertThat((double) inHot / n).isCloseTo(0.6208, within(0.003));
    }

    @Test
    void drawsFitTheTheoreticalProbabilities() {
        int m = 1_000;
        MemberSampler s = Zipfian.sampler(m, 0.27, 7, true);
        int[] perm = Zipfian.permutation(m, 7);
        double[] byRank = Zipfian.probabilities(m, 0.27);
        double[] expected = new double[m];
        for (int r = 0; r < m; r++) {
            expected[perm[r]] = byRank[r];
        }
        long[] counts = Fits.counts(s, m, 2_000_000, 1234);
        ChiSquare.Fit fit = ChiSquare.fit(counts, expected);
        assertThat(fit.pValue())
                .as("X²=%s df=%s", fit.statistic(), fit.degreesOfFreedom())
                .isGreaterThan(1e-4);
        // Negative control: the same draws do not fit a slightly different θ.
        double[] other = Zipfian.probabilities(m, 0.30);
        double[] wrong = new double[m];
        for (int r = 0; r < m; r++) {
            wrong[perm[r]] = other[r];
        }
        assertThat(ChiSquare.fit(counts, wrong).pValue()).isLessThan(1e-6);
        assertThat(s.probabilities()).containsExactly(expected, within(1e-12));
    }

    @Test
    void hotMembersAreScatteredUnlessAsked() {
        int m = 10_000;
        int[] perm = Zipfian.permutation(m, 1);
        assertThat(IntStream.of(perm).sorted().toArray())
                .isEqualTo(IntStream.range(0, m).toArray());
        assertThat(Zipfian.permutation(m, 1)).isEqualTo(perm);
        assertThat(Zipfian.permutation(m, 2)).isNotEqualTo(perm);
        int[] hottest = Arrays.copyOf(perm, 20);
        Arrays.sort(hottest);
        int adjacent = 0;
        for (int i = 1; i < hottest.length; i++) {
            if (hottest[i] - hottest[i - 1] == 1) {
                adjacent++;
            }
        }
        assertThat(adjacent).isLessThanOrEqualTo(2);
        assertThat(hottest[hottest.length - 1] - hottest[0]).isGreaterThan(m / 2);

        double[] plain = Zipfian.sampler(100, 0.27, 1, false).probabilities();
        for (int i = 1; i < plain.length; i++) {
            assertThat(plain[i]).isLessThan(plain[i - 1]);
        }
    }

    @Test
    void subsetSamplerStaysInTheSubset() {
        int[] members = {5, 17, 40, 41, 99, 300};
        MemberSampler s = Zipfian.sampler(members, 0.27, 3, false);
        assertThat(s.size()).isEqualTo(6);
        assertThat(s.member(0)).isEqualTo(5);
        double[] p = Zipfian.probabilities(6, 0.27);
        assertThat(Fits.fit(s, 301, 600_000, 8, p).pValue()).isGreaterThan(1e-4);
        MemberSampler scrambled = Zipfian.sampler(members, 0.27, 3, true);
        assertThat(IntStream.range(0, 6).map(scrambled::member).sorted().toArray())
                .isEqualTo(members);
    }

    @Test
    void latestFavoursTheHighestIndexes() {
        MemberSampler s = Zipfian.latest(1_000, 0.01);
        double[] p = s.probabilities();
        assertThat(p[999]).isEqualTo(Arrays.stream(p).max().orElseThrow());
        for (int i = 1; i < p.length; i++) {
            assertThat(p[i]).isGreaterThan(p[i - 1]);
        }
        MemberSampler sub = Zipfian.latest(new int[] {3, 8, 9}, 0.27);
        assertThat(sub.member(0)).isEqualTo(9);
        assertThat(sub.probabilities()[0]).isGreaterThan(sub.probabilities()[2]);
    }

    @Test
    void thetaOutsideZeroToOneIsRejected() {
        assertThatThrownBy(() -> Zipfian.probabilities(10, 1.2))
                .isInstanceOfSatisfying(
                        InvalidParameterException.class,
                        e -> assertThat(e.parameter()).isEqualTo("zipfianmean"));
        assertThatThrownBy(() -> new DistributionSpec(DistributionKind.ZIPFIAN, -0.1, true))
                .isInstanceOf(InvalidParameterException.class);
    }
}
