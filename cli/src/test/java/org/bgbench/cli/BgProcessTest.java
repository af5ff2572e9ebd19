package org.bgbench.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.bgbench.runner.Interrupts;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Child processes of bg scale: output with a prefix, the last error line, and a stop passed on. */
@Tag("server")
class BgProcessTest {
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    @AfterEach
    void forget() {
        Interrupts.reset();
    }

    @Test
    void outputIsPrefixedAndTheLastErrorLineKept() throws Exception {
        BgProcess.Finished f = BgProcess.run(
                BgProcess.shell("echo one; echo two >&2; echo three >&2; echo; exit 4"),
                "[x] ",
                new PrintWriter(out),
                new PrintWriter(err),
                false);
        assertThat(f.exitCode()).isEqualTo(4);
        assertThat(f.lastErrorLine()).isEqualTo("three");
        assertThat(out.toString()).isEqualTo("[x] one\n[x] \n");
        assertThat(err.toString()).isEqualTo("[x] two\n[x] three\n");
        BgProcess.Finished captured = BgProcess.run(
                BgProcess.shell("echo a=1; echo b=2"), "[x] ", new PrintWriter(out), new PrintWriter(err), true);
        assertThat(captured.stdout()).isEqualTo("a=1\nb=2\n");
    }

    @Test
    void anInterruptOfThisProcessStopsTheChild() throws Exception {
        CompletableFuture<BgProcess.Finished> child = CompletableFuture.supplyAsync(() -> {
            try {
                return BgProcess.run(
                        BgProcess.shell("exec sleep 60"), "", new PrintWriter(out), new PrintWriter(err), false, true);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        // Before or after the child registered, the interrupt reaches it (a late registration is told at once).
        Interrupts.interrupt("stopped by SIGTERM");
        // SIGTERM: 128 + 15, long before the 60 s sleep ends.
        assertThat(child.get(20, TimeUnit.SECONDS).exitCode()).isEqualTo(143);
        Interrupts.reset();
        // Without the flag a child is left alone by an interrupt.
        Interrupts.interrupt("interrupted (Ctrl-C)");
        assertThat(BgProcess.run(
                                List.of("bash", "-c", "sleep 0.5; exit 7"),
                                "",
                                new PrintWriter(out),
                                new PrintWriter(err),
                                false)
                        .exitCode())
                .isEqualTo(7);
    }
}
