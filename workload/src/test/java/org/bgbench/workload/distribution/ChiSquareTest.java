package org.bgbench.workload.distribution;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class ChiSquareTest {
    @Test
    void pValuesMatchTables() {
        assertThat(ChiSquare.pValue(3.841458820694124, 1)).isCloseTo(0.05, within(1e-9));
        assertThat(ChiSquare.pValue(18.307038053275146, 10)).isCloseTo(0.05, within(1e-9));
        assertThat(ChiSquare.pValue(124.34211340400407, 100)).isCloseTo(0.05, within(1e-9));
        assertThat(ChiSquare.pValue(6.634896601021214, 1)).isCloseTo(0.01, within(1e-9));
        assertThat(ChiSquare.pValue(0.0, 5)).isEqualTo(1.0);
        assertThat(ChiSquare.pValue(1e6, 5)).isLessThan(1e-100);
        // Large df, as with M = 10,000 members: P(X ≥ df) is just under one half.
        assertThat(ChiSquare.pValue(9999, 9999)).isCloseTo(0.4981, within(1e-4)); // Wilson–Hilferty: 0.49812
        assertThat(ChiSquare.lnGamma(5)).isCloseTo(Math.log(24), within(1e-13));
        assertThat(ChiSquare.lnGamma(0.5)).isCloseTo(0.5 * Math.log(Math.PI), within(1e-13));
    }

    @Test
    void distanceIsTheDissertationsStatistic() {
        double[] p = {0.5, 0.25, 0.25};
        assertThat(ChiSquare.distance(p, p)).isZero();
        assertThat(ChiSquare.distance(new double[] {0.25, 0.5, 0.25}, p))
                .isCloseTo(0.0625 / 0.5 + 0.0625 / 0.25, within(1e-15));
    }

    @Test
    void fitRejectsWrongCountsAndAcceptsRightOnes() {
        double[] p = {0.5, 0.25, 0.25};
        assertThat(ChiSquare.fit(new long[] {5000, 2500, 2500}, p).pValue()).isEqualTo(1.0);
        assertThat(ChiSquare.fit(new long[] {5000, 3000, 2000}, p).pValue()).isLessThan(1e-20);
        assertThat(ChiSquare.fit(new long[] {1, 0, 0}, new double[] {0, 0.5, 0.5})
                        .pValue())
                .isZero();
        assertThat(ChiSquare.fit(new long[] {5000, 2500, 2500}, p).degreesOfFreedom())
                .isEqualTo(2);
    }
}
