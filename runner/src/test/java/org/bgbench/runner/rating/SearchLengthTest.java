package org.bgbench.runner.rating;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class SearchLengthTest {
    @Test
    void climbThenHalveThenConfirm() {
        // T = 1, 2, 4, 8, 16; halving the 8..16 interval: 3 more; one confirmation
        assertEquals(5 + 3 + 1, SearchLength.experiments(16, 2, true));
    }

    @Test
    void oneThreadIsOneExperiment() {
        assertEquals(1, SearchLength.experiments(1, 2, false));
    }
}
