package org.bgbench.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import org.bgbench.workload.distribution.ChiSquare;
import org.bgbench.workload.distribution.DZipfian;
import org.junit.jupiter.api.Test;

class ChiSquareLineTest {
    /** A two-worker run over M = 10,000 members that completed 2,857,143 actions, as a cluster run's config holds it. */
    @Test
    void theClusterLineCarriesTheNoiseFloorBgDzipfPrints() {
        long requests = 2_857_143;
        Map<String, Object> config = new HashMap<>();
        config.put("chi_square_measured", 0.0102);
        config.put("chi_square_planned", 2.4e-15);
        config.put("chi_square_noise_floor", ChiSquare.noiseFloor(10_000, requests));
        config.put("chi_square_requests", requests);
        assertThat(ChiSquareLine.of(2, config))
                .isEqualTo("Workers  2, χ² of the global distribution vs the centralised one: 0.01020 (planned"
                        + " 2.400e-15); noise floor (M−1)/O 0.003500 for O = 2,857,143 requests: sampling noise"
                        + " alone gives about that much");
    }

    /** bg dzipf's noise floor is the same computation. */
    @Test
    void bgDzipfsNoiseFloorIsTheSameComputation() {
        DZipfian.Sample s = DZipfian.homogeneous(10_000, 0.27, 2, 7).sample(50_000, 7);
        assertThat(s.noiseFloor())
                .isEqualTo(ChiSquare.noiseFloor(10_000, 50_000))
                .isEqualTo(9_999.0 / 50_000);
    }

    /** A result of an older BG has no noise floor: the line is as it was, with nothing invented. */
    @Test
    void withoutTheFloorTheLineSaysOnlyWhatItHas() {
        Map<String, Object> config = new HashMap<>();
        config.put("chi_square_measured", 0.0102);
        config.put("chi_square_planned", null);
        assertThat(ChiSquareLine.of(2, config))
                .isEqualTo("Workers  2, χ² of the global distribution vs the centralised one: 0.01020 (planned -)");
    }
}
