package org.bgbench.runner.progress;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class ProgressOutputTest {
    @Test
    void aTerminalGetsTheBar() {
        assertEquals(ProgressOutput.BAR, ProgressOutput.choose(true, false));
    }

    @Test
    void otherOutputKeepsThePlainLines() {
        assertEquals(ProgressOutput.LINES, ProgressOutput.choose(false, false));
    }

    @Test
    void quietShowsNoProgressEitherWay() {
        assertEquals(ProgressOutput.NONE, ProgressOutput.choose(true, true));
        assertEquals(ProgressOutput.NONE, ProgressOutput.choose(false, true));
    }

    @Test
    void aProcessNotToldOfATerminalPrintsLines() {
        // Embedded runs (tests, Bg.run) never call useTerminal: they must keep today's lines.
        assertEquals(ProgressOutput.LINES, ProgressOutput.current());
        assertEquals(ProgressOutput.NONE, ProgressOutput.current(true));
    }
}
