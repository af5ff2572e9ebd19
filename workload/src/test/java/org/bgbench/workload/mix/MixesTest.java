package org.bgbench.workload.mix;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.bgbench.model.Action;
import org.bgbench.model.InvalidParameterException;
import org.junit.jupiter.api.Test;

class MixesTest {
    @Test
    void everyNamedMixSumsToOne() {
        assertThat(Mixes.all()).hasSizeGreaterThanOrEqualTo(8);
        for (Mixes.NamedMix m : Mixes.all()) {
            double sum = 0;
            for (double w : m.mix().weights()) {
                sum += w;
            }
            assertThat(sum).as(m.name()).isCloseTo(1.0, within(1e-12));
            assertThat(m.description()).isNotBlank();
            assertThat(m.source()).startsWith("[");
        }
        assertThat(Mixes.names())
                .doesNotHaveDuplicates()
                .contains("vp", "lf", "verylow", "low", "high", "cikm-verylow", "cikm-low", "cikm-high");
    }

    @Test
    void dissertationTable41MixesAreSymmetric() {
        for (String name :
                List.of("verylow", "low", "high", "vp", "lf", "gurevich-verylow", "gurevich-low", "gurevich-high")) {
            assertThat(Mixes.byName(name).symmetryWarnings()).as(name).isEmpty();
        }
    }

    @Test
    void cikmMixesAreNotSymmetric() {
        for (String name : List.of("cikm-verylow", "cikm-low", "cikm-high")) {
            assertThat(Mixes.byName(name).isSymmetric()).as(name).isFalse();
        }
    }

    @Test
    void table41Percentages() {
        Mix vl = Mixes.byName("verylow");
        assertThat(vl.weight(Action.VP)).isCloseTo(0.40, within(1e-12));
        assertThat(vl.weight(Action.IF)).isCloseTo(0.0004, within(1e-12));
        assertThat(vl.weight(Action.VTR)).isCloseTo(0.499, within(1e-12));
        Mix high = Mixes.byName("high");
        assertThat(high.weight(Action.VP)).isCloseTo(0.35, within(1e-12));
        assertThat(high.weight(Action.VTR)).isCloseTo(0.45, within(1e-12));
        assertThat(high.weight(Action.AFR)).isCloseTo(0.02, within(1e-12));
        Mix cikmHigh = Mixes.byName("cikm-high");
        assertThat(cikmHigh.weight(Action.RFR)).isCloseTo(0.03, within(1e-12));
        assertThat(cikmHigh.weight(Action.VCR)).isCloseTo(0.10, within(1e-12));
        assertThat(cikmHigh.writeFraction()).isCloseTo(0.10, within(1e-12));
        assertThat(Mixes.byName("cikm-verylow").writeFraction()).isCloseTo(0.001, within(1e-12));
        assertThat(Mixes.byName("VP").weight(Action.VP)).isEqualTo(1.0);
    }

    @Test
    void unknownNameListsTheNames() {
        assertThatThrownBy(() -> Mixes.byName("medium"))
                .isInstanceOf(InvalidParameterException.class)
                .hasMessageContaining("mix")
                .hasMessageContaining("'medium'")
                .hasMessageContaining("verylow")
                .hasMessageContaining("cikm-high");
        assertThat(Mixes.find("nope")).isEmpty();
    }
}
