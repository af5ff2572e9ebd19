package org.bgbench.rating;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class BreakEvenTest {
    /**
     * CIKM 2013 section H's example: Q̄ = 150 ms, Ū = 1.4 ms, u = 0.4 %, X = 8.6. Equation 3 gives
     * 7.6/8.6 · 0.996/0.004 · 150/1.4 + 1 = 23,577.4; the paper prints 23,381 (and 26,185 for X = 100, 26,423 for
     * X = 1000, each 0.8–0.9 % below equation 3's value: the paper's arithmetic, not the formula, differs).
     */
    @Test
    void paperExample() {
        BreakEven be = new BreakEven(150, 1.4, 0.004, 8.6);
        assertThat(be.tolerableSlowdown()).isCloseTo(7.6 / 8.6 * 249 * (150 / 1.4) + 1, within(1e-6));
        assertThat(be.tolerableSlowdown()).isCloseTo(23_577.4, within(0.1));
        assertThat(new BreakEven(150, 1.4, 0.004, 100).tolerableSlowdown()).isCloseTo(26_412.8, within(0.1));
        assertThat(new BreakEven(150, 1.4, 0.004, 1000).tolerableSlowdown()).isCloseTo(26_652.9, within(0.1));
    }

    /** At Y the two designs' mean service times (equations 1 and 2) are equal; below it the new one is faster. */
    @Test
    void equationsMeetAtTheBreakEvenPoint() {
        BreakEven be = new BreakEven(2.0, 0.5, 0.1, 3.0);
        double y = be.tolerableSlowdown();
        // (2/3)·9·4 + 1 = 25
        assertThat(y).isCloseTo(25.0, within(1e-9));
        assertThat(be.newServiceMs(y)).isCloseTo(be.basicServiceMs(), within(1e-12));
        assertThat(be.newServiceMs(y * 0.9)).isLessThan(be.basicServiceMs());
        assertThat(be.newServiceMs(y * 1.1)).isGreaterThan(be.basicServiceMs());
    }

    /** Halving u almost doubles Y (observation 3); no speed-up tolerates no slow-down; slower reads need faster writes. */
    @Test
    void observations() {
        double y1 = new BreakEven(1, 1, 0.01, 2).tolerableSlowdown();
        double y2 = new BreakEven(1, 1, 0.005, 2).tolerableSlowdown();
        assertThat((y2 - 1) / (y1 - 1)).isCloseTo(2 * 0.995 / 0.99, within(1e-9));
        assertThat(new BreakEven(1, 1, 0.01, 1).tolerableSlowdown()).isEqualTo(1.0);
        assertThat(new BreakEven(1, 1, 0.01, 0.5).tolerableSlowdown()).isLessThan(1.0);
        assertThat(new BreakEven(1, 1, 0, 2).tolerableSlowdown()).isEqualTo(Double.POSITIVE_INFINITY);
    }

    /**
     * Reads 30 times slower with writes a tenth of the time: Y = (1 − 30)·9·10 + 1 = −2609. Even writes taking no time
     * (S' = 0.9·30 = 27 against S = 0.1 + 0.9 = 1) cannot break even, so the model gives no Y.
     */
    @Test
    void readsMuchSlowerHaveNoBreakEvenPoint() {
        BreakEven be = new BreakEven(1, 0.1, 0.1, 1.0 / 30);
        assertThat(be.tolerableSlowdown()).isCloseTo(-2609, within(1e-6));
        assertThat(be.breaksEven()).isFalse();
        assertThat(be.newServiceMs(0)).isGreaterThan(be.basicServiceMs());
        // Slightly slower reads still break even, with writes that got faster (0 < Y < 1).
        BreakEven slower = new BreakEven(1, 1, 0.5, 0.9);
        assertThat(slower.breaksEven()).isTrue();
        assertThat(slower.tolerableSlowdown()).isBetween(0.0, 1.0);
        assertThat(new BreakEven(2, 0.5, 0.1, 3).breaksEven()).isTrue();
    }

    @Test
    void refusesNonsense() {
        assertThatThrownBy(() -> new BreakEven(1, 1, 1.5, 2)).hasMessageContaining("write fraction");
        assertThatThrownBy(() -> new BreakEven(0, 1, 0.1, 2)).hasMessageContaining("positive");
        assertThatThrownBy(() -> new BreakEven(1, 1, Double.NaN, 2)).hasMessageContaining("write fraction");
    }
}
