package org.bgbench.emulator;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.UncheckedIOException;
import java.nio.channels.ClosedChannelException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;

/** A store's failure reaches the report, the refused-seconds reason and the abort in words, not class names. */
class StoreErrorsTest {
    private static final String CLASS_NAME = "\\b[A-Z]\\w*(Exception|Error)\\b";

    @Test
    void aFailureWithoutWordsOfItsOwnGetsAPhraseNotItsClassName() {
        List<String> aborts = new ArrayList<>();
        StoreErrors errors = new StoreErrors(2, aborts::add);
        // As a driver wraps a closed channel or a timeout: the wrapper's message is only the cause's class name.
        errors.failed("AFR", new UncheckedIOException(new ClosedChannelException()));
        assertThat(errors.lastFailure()).isEqualTo("the connection was closed");
        errors.failed("VP", new RuntimeException(new TimeoutException()));
        assertThat(errors.lastFailure()).isEqualTo("timed out");
        assertThat(errors.samples()).containsExactly("AFR: the connection was closed", "VP: timed out");
        assertThat(aborts).containsExactly("the store failed 2 actions in a row; last error: timed out");
        assertThat(String.join("\n", aborts) + errors.samples()).doesNotContainPattern(CLASS_NAME);
    }
}
