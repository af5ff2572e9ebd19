package org.bgbench.runner;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * How a user's Ctrl-C (SIGINT) or a SIGTERM stops BG cleanly: the command line turns the signal into
 * {@link #interrupt}, which ends every running experiment early (its members finish the action they are in), so the
 * experiment still writes its result, BG's expected state and its logs, and a rating stops with what it measured.
 * Nothing here exits the process: the command returns, and its caller exits with 128 + the signal's number.
 */
public final class Interrupts {
    private static final Set<Consumer<String>> RUNNING = ConcurrentHashMap.newKeySet();
    private static volatile String reason;

    private Interrupts() {}

    /** A registration that ends when the experiment does. */
    public interface Registration extends AutoCloseable {
        @Override
        void close();
    }

    /**
     * Registers a way to end a running experiment early. If BG was interrupted already, {@code abort} runs at once,
     * so an experiment that starts after the signal does not run.
     */
    public static Registration onInterrupt(Consumer<String> abort) {
        RUNNING.add(abort);
        String why = reason;
        if (why != null) {
            abort.accept(why);
        }
        return () -> RUNNING.remove(abort);
    }

    /** Ends every running experiment early with {@code why}; later experiments end as soon as they start. */
    public static void interrupt(String why) {
        if (reason == null) {
            reason = why;
        }
        for (Consumer<String> abort : RUNNING) {
            abort.accept(why);
        }
    }

    /** Whether BG was interrupted. */
    public static boolean interrupted() {
        return reason != null;
    }

    /** Why BG was interrupted, or null. */
    public static String reason() {
        return reason;
    }

    /** Forgets an interruption (tests that run several commands in one JVM). */
    public static void reset() {
        reason = null;
    }
}
