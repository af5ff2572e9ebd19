package org.bgbench.runner.rating;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class SearchLengthTest {
    @Test
    void climbThenHalveThenConfirm() {
        // T = 1, 2, 4, 8, 16; halving the 8..16 interval: 3 more; one confirmation
        assertEquals(5 + 3 + 1, SearchLength.experiments(16, 2, 1));
    }

    @Test
    void eachTargetIsConfirmed() {
        assertEquals(3 + 1 + 2, SearchLength.experiments(4, 2, 2));
    }

    @Test
    void oneThreadIsOneExperiment() {
        assertEquals(1, SearchLength.experiments(1, 2, 0));
    }
}
