package org.bgbench.scaling.speedup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.bgbench.model.InvalidParameterException;
import org.junit.jupiter.api.Test;

class ScaleModeTest {
    @Test
    void idealRatios() {
        // E.2.1: N nodes should give N times the one-node SoAR; from a 2-node baseline, 6 nodes should give 3 times.
        assertThat(ScaleMode.SPEEDUP.ideal(3, 1)).isEqualTo(3.0);
        assertThat(ScaleMode.SPEEDUP.ideal(6, 2)).isEqualTo(3.0);
        // E.2.2: the same SoAR whatever the size.
        assertThat(ScaleMode.SCALEUP.ideal(12, 1)).isEqualTo(1.0);
    }

    @Test
    void scaleupGrowsTheMembersAndPagesOnly() {
        Map<String, String> keys =
                Map.of("usercount", "1000", "friendcountperuser", "10", "resourcecountperuser", "5", "pagecount", "20");
        Map<String, String> three = ScaleMode.SCALEUP.graphKeys(keys, 3, 1, 10_000);
        assertThat(three)
                .containsEntry("usercount", "3000")
                .containsEntry("pagecount", "60")
                .containsEntry("friendcountperuser", "10")
                .containsEntry("resourcecountperuser", "5");
        // Speedup: one graph for every configuration.
        assertThat(ScaleMode.SPEEDUP.graphKeys(keys, 3, 1, 10_000)).isEqualTo(keys);
        // No usercount given: BG's default M is scaled.
        assertThat(ScaleMode.SCALEUP.graphKeys(Map.of(), 2, 1, 10_000)).containsEntry("usercount", "20000");
        assertThat(ScaleMode.SCALEUP.graphKeys(Map.of("usercount", "1000"), 3, 2, 10_000))
                .containsEntry("usercount", "1500");
    }

    @Test
    void badInput() {
        assertThatThrownBy(() -> ScaleMode.SCALEUP.graphKeys(Map.of("usercount", "1001"), 3, 2, 10_000))
                .isInstanceOf(InvalidParameterException.class)
                .hasMessageStartingWith("-p usercount: scaleup needs");
        assertThatThrownBy(() -> ScaleMode.parse("--mode", "speedy"))
                .isInstanceOf(InvalidParameterException.class)
                .hasMessage("--mode: expected speedup or scaleup, got 'speedy'");
        assertThat(ScaleMode.parse("--mode", "ScaleUp")).isEqualTo(ScaleMode.SCALEUP);
    }
}
