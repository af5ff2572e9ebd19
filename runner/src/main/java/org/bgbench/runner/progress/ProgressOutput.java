package org.bgbench.runner.progress;

import java.io.Console;
import java.lang.reflect.Method;

/**
 * How long work (a load, a rating, a sweep) shows its progress: a bar redrawn in place on a terminal, the plain lines
 * scripts and tests read otherwise, nothing with {@code --quiet}.
 */
public enum ProgressOutput {
    BAR,
    LINES,
    NONE;

    /** What this process uses; only {@code bg}'s own main switches it to bars, so embedded runs keep the lines. */
    private static volatile ProgressOutput current = LINES;

    /** The choice: a bar only when the output is a terminal, and no progress at all when quiet. */
    public static ProgressOutput choose(boolean terminal, boolean quiet) {
        if (quiet) {
            return NONE;
        }
        return terminal ? BAR : LINES;
    }

    /** The process's choice when not quiet. */
    public static ProgressOutput current() {
        return current;
    }

    /** The process's choice with the command's {@code --quiet}. */
    public static ProgressOutput current(boolean quiet) {
        return quiet ? NONE : current;
    }

    /** Sets the process's choice from whether its output is a terminal. */
    public static void useTerminal(boolean terminal) {
        current = choose(terminal, false);
    }

    /**
     * Whether this process talks to a terminal: a console, and on JDK 22 and later one the console itself says is a
     * terminal (there {@link System#console()} is present even when the output is redirected).
     */
    public static boolean terminal() {
        Console c = System.console();
        if (c == null) {
            return false;
        }
        try {
            Method isTerminal = Console.class.getMethod("isTerminal");
            return (Boolean) isTerminal.invoke(c);
        } catch (NoSuchMethodException e) {
            return true;
        } catch (ReflectiveOperationException e) {
            return false;
        }
    }
}
