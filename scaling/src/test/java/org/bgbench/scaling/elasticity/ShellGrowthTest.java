package org.bgbench.scaling.elasticity;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The add and settled commands as real bash processes. */
@Tag("server")
class ShellGrowthTest {
    @TempDir
    Path dir;

    private static void awaitEnd(ShellGrowth g) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (!g.ended() && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        assertThat(g.ended()).as("the add commands ended within 30 s").isTrue();
    }

    @Test
    void addCommandsRunInOrderOnTheTestsClockAndTheSettledCheckIsTheCommandsExitStatus() throws Exception {
        Path order = dir.resolve("order");
        Path settledFlag = dir.resolve("settled");
        ShellGrowth g = new ShellGrowth(
                List.of("echo first >> " + order, "echo second >> " + order),
                "test -e " + settledFlag,
                dir.resolve("x.add.log"));
        double[] clock = {100.0};
        g.begin(() -> clock[0]);
        awaitEnd(g);
        assertThat(g.failure()).isNull();
        assertThat(Files.readAllLines(order)).containsExactly("first", "second");
        assertThat(g.steps())
                .extracting(Growth.Step::command)
                .containsExactly("echo first >> " + order, "echo second >> " + order);
        assertThat(g.steps()).allSatisfy(s -> {
            assertThat(s.start()).isEqualTo(100.0);
            assertThat(s.exitCode()).isZero();
        });
        assertThat(g.settled()).isFalse();
        Files.createFile(settledFlag);
        assertThat(g.settled()).isTrue();
        assertThat(Files.readString(dir.resolve("x.add.log"))).contains("$ echo first", "$ test -e");
    }

    @Test
    void aFailingAddStopsTheRestAndNamesItsExitAndLastLine() throws Exception {
        Path never = dir.resolve("never");
        ShellGrowth g = new ShellGrowth(
                List.of("echo joining; echo node 3 refused to join >&2; exit 4", "touch " + never),
                null,
                dir.resolve("f.add.log"));
        g.begin(() -> 0);
        awaitEnd(g);
        assertThat(g.failure()).contains("exited with 4", "node 3 refused to join");
        assertThat(never).doesNotExist();
        assertThat(g.steps()).hasSize(1);
        assertThat(g.steps().get(0).exitCode()).isEqualTo(4);
        // No settled command: the store counts as settled once the adds ended.
        assertThat(g.settled()).isTrue();
    }
}
