package org.bgbench.runner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.bgbench.emulator.EmulatorConfig.ThreadKind;
import org.bgbench.model.InvalidParameterException;
import org.junit.jupiter.api.Test;

/** The {@code threadkind} key: platform or virtual threads (or auto), and the removed shared kind refused. */
class ThreadKindKeyTest {
    private static ThreadKind kind(String... overrides) {
        return RunKeys.threadKind(Parameters.of(List.of(), List.of(overrides)));
    }

    @Test
    void platformVirtualAndAutoAreRead() {
        assertThat(kind()).isEqualTo(ThreadKind.AUTO);
        assertThat(kind("threadkind=platform")).isEqualTo(ThreadKind.PLATFORM);
        assertThat(kind("threadkind=Virtual")).isEqualTo(ThreadKind.VIRTUAL);
        assertThat(ThreadKind.values()).containsExactly(ThreadKind.AUTO, ThreadKind.VIRTUAL, ThreadKind.PLATFORM);
    }

    /** The shared kind is gone: one line that names the key and what replaced it. */
    @Test
    void sharedIsRefusedWithWhatReplacedIt() {
        assertThatThrownBy(() -> kind("threadkind=shared"))
                .isInstanceOf(InvalidParameterException.class)
                .hasMessageStartingWith("threadkind: shared is no longer offered")
                .hasMessageContaining("platform or virtual threads")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
    }

    @Test
    void anUnknownKindIsRefused() {
        assertThatThrownBy(() -> kind("threadkind=green"))
                .isInstanceOf(InvalidParameterException.class)
                .hasMessage("threadkind: expected auto, virtual or platform, got 'green'");
    }
}
