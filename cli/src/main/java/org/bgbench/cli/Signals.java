package org.bgbench.cli;

import org.bgbench.runner.Interrupts;
import sun.misc.Signal;

/**
 * Ctrl-C (SIGINT) and SIGTERM stop BG cleanly rather than killing it: the first signal asks the running experiment or
 * rating to stop ({@link Interrupts}), which then writes its result, BG's expected state and its logs, and the command
 * returns; {@code bg} exits with 130 or 143. A second signal while it finishes ends the process at once.
 */
final class Signals {
    private static volatile int received;

    private Signals() {}

    /** Installs the handlers (in {@code bg}'s own process only, never in tests that run it in-process). */
    static void install() {
        try {
            Signal.handle(new Signal("INT"), s -> stop(2, "interrupted (Ctrl-C)"));
            Signal.handle(new Signal("TERM"), s -> stop(15, "stopped by SIGTERM"));
        } catch (IllegalArgumentException e) {
            // A platform without these signals (or a JVM that reserved them, as with -Xrs): the defaults stay.
        }
    }

    private static void stop(int signal, String why) {
        if (received != 0) {
            System.err.println("bg: stopping now, without writing what was measured since the first signal");
            // The servers a study started must not outlive it.
            StudyServer.killAll();
            Runtime.getRuntime().halt(128 + signal);
        }
        received = signal;
        System.err.println("bg: " + why + ": finishing the actions in flight and writing what was measured "
                + "(again to stop at once)");
        Interrupts.interrupt(why);
    }

    /** The command's exit code, or 128 + the signal's number when a signal stopped it. */
    static int exitCode(int commandCode) {
        return received == 0 ? commandCode : 128 + received;
    }
}
