package org.bgbench.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A released watch ends its watchdog without running the script (BG stopped the server itself). */
class DeathWatchTest {
    @TempDir
    Path dir;

    @Test
    void aReleasedWatchDoesNotRunItsScript() throws Exception {
        Path ran = dir.resolve("ran");
        DeathWatch w = DeathWatch.start("touch \"$1\"", ran.toString());
        assertThat(w.process().isAlive()).as("waiting for this JVM to end").isTrue();
        w.release();
        w.process().onExit().get(10, TimeUnit.SECONDS);
        assertThat(ran).doesNotExist();
    }
}
