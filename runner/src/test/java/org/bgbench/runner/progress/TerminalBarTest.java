package org.bgbench.runner.progress;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class TerminalBarTest {
    /** The bar's last drawing: what follows the last line clear. */
    private static String lastDrawing(StringWriter w) {
        String s = w.toString();
        return s.substring(s.lastIndexOf("\033[K") + 3);
    }

    @Test
    void showsElapsedAndRemainingForAState() {
        StringWriter w = new StringWriter();
        // A quarter done after an hour: three hours left at that rate.
        try (TerminalBar bar = TerminalBar.open(
                new TerminalBar.Start("load", "rows", 1_000_000, 250_000, Duration.ofHours(1)), new PrintWriter(w))) {
            bar.refresh();
        }
        String drawn = lastDrawing(w);
        assertTrue(drawn.contains("25%"), drawn);
        assertTrue(drawn.contains("250,000/1,000,000 rows"), drawn);
        // elapsed / remaining, as h:mm:ss (the test's own milliseconds may add a second at most)
        assertTrue(
                Pattern.compile("\\(1:00:0\\d / 3:00:\\d\\d\\)").matcher(drawn).find(), drawn);
    }

    @Test
    void linesAboveTheBarClearItFirst() {
        StringWriter w = new StringWriter();
        PrintWriter terminal = new PrintWriter(w);
        try (TerminalBar bar = TerminalBar.open(TerminalBar.Start.of("sweep", "points", 4), terminal)) {
            PrintWriter above = bar.above(terminal);
            above.println("     1          123");
            above.flush();
            bar.stepTo(1);
        }
        String s = w.toString();
        int line = s.indexOf("     1          123");
        assertTrue(line > 0 && s.substring(0, line).endsWith("\r\033[K"), s);
    }

    @Test
    void aTotalExceededRaisesTheEstimate() {
        StringWriter w = new StringWriter();
        try (TerminalBar bar = TerminalBar.open(TerminalBar.Start.of("rate", "experiments", 3), new PrintWriter(w))) {
            bar.stepTo(5);
        }
        assertTrue(lastDrawing(w).contains("5/5 experiments"), w.toString());
    }
}
