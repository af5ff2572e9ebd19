package org.bgbench.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.opentest4j.TestAbortedException;

/** The replica tests fail under CI instead of being skipped when the servers' binaries are missing. */
class ReplicaPairTest {
    @Test
    void missingBinariesFailUnderCiAndSkipOtherwise() {
        assertThatThrownBy(() -> ReplicaPair.require(false, "postgresql is missing", true))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("postgresql is missing")
                .hasMessageContaining("CI is set");
        assertThatThrownBy(() -> ReplicaPair.require(false, "postgresql is missing", false))
                .isInstanceOf(TestAbortedException.class);
        ReplicaPair.require(true, "unused", true);
        assertThat(ReplicaPair.ciSet("true")).isTrue();
        assertThat(ReplicaPair.ciSet("1")).isTrue();
        assertThat(ReplicaPair.ciSet(null)).isFalse();
        assertThat(ReplicaPair.ciSet("false")).isFalse();
        assertThat(ReplicaPair.ciSet("0")).isFalse();
    }
}
