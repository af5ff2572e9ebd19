package org.bgbench.workload.distribution;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.Arrays;
import java.util.stream.IntStream;
import org.bgbench.model.InvalidParameterException;
import org.junit.jupiter.api.Test;

class DZipfianTest {
    private static final int M = 10_000;
    private static final long SEED = 42;

    @Test
    void assignmentPartitionsTheMembers() {
        DZipfian d = DZipfian.homogeneous(M, 0.27, 7, SEED);
        boolean[] seen = new boolean[M];
        int total = 0;
        for (int k = 0; k < d.workers(); k++) {
            int[] mine = d.membersOf(k);
            assertThat(mine).hasSize(d.size(k)).isSorted();
            for (int member : mine) {
                assertThat(seen[member]).as("member %s owned twice", member).isFalse();
                seen[member] = true;
                assertThat(d.workerOf(member)).isEqualTo(k);
            }
            total += mine.length;
        }
        assertThat(total).isEqualTo(M);
        assertThat(DZipfian.homogeneous(M, 0.27, 7, SEED).membersOf(3)).isEqualTo(d.membersOf(3));
    }

    @Test
    void everyWorkerGetsAboutOneNthForOneToSixteenWorkers() {
        for (int n = 1; n <= 16; n++) {
            DZipfian d = DZipfian.homogeneous(M, 0.27, n, SEED);
            for (int k = 0; k < n; k++) {
                assertThat(d.mass(k)).as("N=%d worker %d", n, k).isCloseTo(1.0 / n, within(1e-4));
                assertThat(d.quota(k)).isEqualTo(1.0 / n);
            }
            assertThat(d.chiSquare()).as("χ² for N=%d", n).isLessThan(1e-7);
        }
        assertThat(DZipfian.homogeneous(M, 0.27, 1, SEED).chiSquare()).isLessThan(1e-25);
    }

    @Test
    void oneWorkerIsTheCentralisedZipfian() {
        DZipfian d = DZipfian.homogeneous(1_000, 0.27, 1, SEED);
        double[] central = Zipfian.sampler(1_000, 0.27, SEED, true).probabilities();
        assertThat(d.centralised().probabilities()).containsExactly(central, within(1e-15));
        MemberSampler s = d.sampler(0);
        double[] bySlot = s.probabilities();
        for (int slot = 0; slot < s.size(); slot++) {
            assertThat(bySlot[slot]).isCloseTo(central[s.member(slot)], within(1e-15));
        }
    }

    @Test
    void workerSamplerRenormalisesLocally() {
        DZipfian d = DZipfian.homogeneous(M, 0.27, 4, SEED);
        MemberSampler s = d.sampler(2);
        assertThat(s.size()).isEqualTo(d.size(2));
        double[] expected = new double[s.size()];
        for (int slot = 0; slot < s.size(); slot++) {
            expected[slot] = d.probability(s.member(slot)) / d.mass(2); // eq. 4.3
        }
        assertThat(s.probabilities()).containsExactly(expected, within(1e-15));
        ChiSquare.Fit fit = Fits.fit(s, M, 3_000_000, 17, expected);
        assertThat(fit.pValue())
                .as("X²=%s df=%s", fit.statistic(), fit.degreesOfFreedom())
                .isGreaterThan(1e-4);
        assertThat(d.globalProbability(s.member(0), d.quotas())).isCloseTo(d.probability(s.member(0)), within(1e-6));
    }

    @Test
    void table43HeterogeneousRatesWithHomogeneousClusters() {
        // [dissertation table 4.3]: N = 4, M = 10,000, θ = 0.27; clusters for 1/N, workers issuing at rates R_k.
        DZipfian d = DZipfian.homogeneous(M, 0.27, 4, SEED);
        assertThat(d.chiSquare(new double[] {1, 1, 2, 2})).isCloseTo(0.11, within(0.005));
        assertThat(d.chiSquare(new double[] {1, 1.25, 1.5, 2})).isCloseTo(0.07, within(0.005));
        assertThat(d.chiSquare(new double[] {1, 2, 2, 2})).isCloseTo(0.06, within(0.005));
        assertThat(d.chiSquare(new double[] {1, 1, 1, 2})).isCloseTo(0.12, within(0.005));
        assertThat(d.chiSquare(new double[] {1, 4, 4, 4})).isCloseTo(0.16, within(0.005));
    }

    @Test
    void table44ClustersSizedByRate() {
        // [dissertation table 4.4]: the refined D-Zipfian brings χ² to between 1.2e-10 and 1.9e-8.
        double[][] rates = {{1, 1, 2, 2}, {1, 1.25, 1.5, 2}, {1, 2, 2, 2}, {1, 1, 1, 2}, {1, 4, 4, 4}};
        for (double[] r : rates) {
            DZipfian d = DZipfian.heterogeneous(M, 0.27, r, SEED);
            double total = Arrays.stream(r).sum();
            for (int k = 0; k < r.length; k++) {
                assertThat(d.mass(k)).isCloseTo(r[k] / total, within(1e-4));
            }
            assertThat(d.chiSquare()).as(Arrays.toString(r)).isLessThan(1e-7);
            assertThat(d.chiSquare(d.eq44Shares())).as("eq. 4.4").isLessThan(1e-20);
        }
    }

    @Test
    void figure48MoreWorkersHurtTheMostSkewedDistribution() {
        // [dissertation fig. 4.8]: extremely small for N ≤ 8; with tens of workers χ² grows, most for θ = 0.01.
        for (int n = 2; n <= 8; n++) {
            assertThat(DZipfian.homogeneous(M, 0.01, n, SEED).chiSquare())
                    .as("N=%d", n)
                    .isLessThan(1e-8);
        }
        double at16 = DZipfian.homogeneous(M, 0.01, 16, SEED).chiSquare();
        double at32 = DZipfian.homogeneous(M, 0.01, 32, SEED).chiSquare();
        assertThat(at16).isGreaterThan(1e-3);
        assertThat(at32).isGreaterThan(at16);
        assertThat(DZipfian.homogeneous(M, 0.27, 32, SEED).chiSquare()).isLessThan(at32);
    }

    @Test
    void figure49MoreMembersShrinkTheError() {
        // [dissertation fig. 4.9]: θ = 0.01, χ² falls towards 0 as M grows.
        double small = DZipfian.homogeneous(1_000, 0.01, 32, SEED).chiSquare();
        double mid = DZipfian.homogeneous(10_000, 0.01, 32, SEED).chiSquare();
        double large = DZipfian.homogeneous(100_000, 0.01, 32, SEED).chiSquare();
        assertThat(small).isGreaterThan(mid);
        assertThat(mid).isGreaterThan(large);
    }

    @Test
    void figure410SampledChiSquareFallsWithTheNumberOfRequests() {
        DZipfian d = DZipfian.homogeneous(M, 0.27, 8, SEED);
        DZipfian.Sample few = d.sample(100_000, 1);
        DZipfian.Sample many = d.sample(1_000_000, 1);
        assertThat(many.chiSquare()).isLessThan(few.chiSquare());
        for (DZipfian.Sample s : new DZipfian.Sample[] {few, many}) {
            // Pure sampling noise: the expected χ² of O exact draws is (M−1)/O, with a relative sd of √(2/M).
            assertThat(s.chiSquare()).isCloseTo(s.noiseFloor() + s.analytic(), within(0.1 * s.noiseFloor()));
            assertThat(s.fit().pValue()).isGreaterThan(1e-4);
            assertThat(s.fit().degreesOfFreedom()).isEqualTo(M - 1);
            assertThat(s.fit().statistic()).isCloseTo(s.chiSquare() * s.requests(), within(1e-6 * M));
        }
        assertThat(d.sample(100_000, 1)).isEqualTo(few);
    }

    @Test
    void sampleDetectsWorkersIssuingTheWrongShares() {
        // Clusters for 1/N, rates 1,1,2,2: the generated requests must fail the fit against the centralised Zipfian.
        DZipfian d = DZipfian.homogeneous(M, 0.27, 4, SEED);
        DZipfian.Sample s = d.sample(1_000_000, new double[] {1, 1, 2, 2}, 3);
        assertThat(s.analytic()).isCloseTo(0.111, within(0.005));
        assertThat(s.chiSquare()).isCloseTo(s.analytic() + s.noiseFloor(), within(0.005));
        assertThat(s.fit().pValue()).isLessThan(1e-12);
    }

    @Test
    void ownersKeepTheirMembersAndStillGetTheirQuota() {
        // 16 contiguous fragments of 625 members; worker k owns fragments k, k+4, k+8, k+12.
        int[][] owned = new int[4][];
        for (int k = 0; k < 4; k++) {
            int kk = k;
            owned[k] = IntStream.range(0, 16)
                    .filter(f -> f % 4 == kk)
                    .flatMap(f -> IntStream.range(f * 625, (f + 1) * 625))
                    .toArray();
        }
        DZipfian d = DZipfian.ofOwners(0.27, owned, new double[] {1, 1, 1, 1}, SEED);
        for (int k = 0; k < 4; k++) {
            assertThat(d.membersOf(k)).isEqualTo(owned[k]);
            assertThat(d.mass(k)).isCloseTo(0.25, within(1e-6));
        }
        assertThat(d.chiSquare()).isLessThan(1e-9);
        int[] hottest = IntStream.range(0, M).filter(m -> d.rankOf(m) <= 4).toArray();
        assertThat(IntStream.of(hottest).map(d::workerOf).distinct().count()).isEqualTo(4);

        int[][] uneven = {
            IntStream.range(0, 2_000).toArray(), IntStream.range(2_000, M).toArray()
        };
        DZipfian u = DZipfian.ofOwners(0.27, uneven, new double[] {1, 2}, SEED);
        assertThat(u.mass(0)).isCloseTo(1 / 3.0, within(1e-6));
        assertThat(u.chiSquare()).isLessThan(1e-9);

        assertThatThrownBy(() -> DZipfian.ofOwners(0.27, new int[][] {{0, 1}, {1, 2}}, new double[] {1, 1}, SEED))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("owned twice");
    }

    @Test
    void badInputNamesTheParameter() {
        assertThatThrownBy(() -> DZipfian.homogeneous(3, 0.27, 4, SEED))
                .isInstanceOfSatisfying(
                        InvalidParameterException.class,
                        e -> assertThat(e.parameter()).isEqualTo("usercount"));
        assertThatThrownBy(() -> DZipfian.heterogeneous(100, 0.27, new double[] {1, 0}, SEED))
                .isInstanceOfSatisfying(
                        InvalidParameterException.class,
                        e -> assertThat(e.parameter()).isEqualTo("probs"));
        assertThatThrownBy(() -> DZipfian.homogeneous(100, 2, 4, SEED))
                .isInstanceOfSatisfying(
                        InvalidParameterException.class,
                        e -> assertThat(e.parameter()).isEqualTo("zipfianmean"));
        assertThatThrownBy(() -> DZipfian.homogeneous(100, 0.27, 0, SEED))
                .isInstanceOfSatisfying(
                        InvalidParameterException.class,
                        e -> assertThat(e.parameter()).isEqualTo("numclients"));
    }

    @Test
    void reportForTheCli() {
        DZipfian.Report r = DZipfian.homogeneous(M, 0.27, 4, SEED).report(200_000, 9);
        assertThat(r.workers()).hasSize(4);
        assertThat(r.chiSquareEq44()).isLessThan(1e-20);
        assertThat(r.format())
                .contains("M=10000")
                .contains("N=4")
                .contains("figs 4.8-4.9")
                .contains("200000 generated requests");
        assertThat(DZipfian.homogeneous(M, 0.27, 4, SEED).report(0, 9).sample()).isNull();
    }
}
