package org.bgbench.scaling.elasticity;

import java.util.List;
import java.util.function.DoubleSupplier;

/** How the store grows under load: the user's add-node commands, and optionally the store's own "data settled" check. */
public interface Growth {
    /**
     * Starts adding the nodes; returns at once (the commands run while the request sets go on).
     *
     * @param now seconds since the test began (after its warm-up): the clock of the steps' times
     */
    void begin(DoubleSupplier now);

    /** Whether every add command has ended. */
    boolean ended();

    /** Why adding failed (a command's exit status and last line), or null. */
    String failure();

    /**
     * Whether the store reports its data transfers done (the elasticity paper needed "the tools provided by the
     * databases" for that, its section 4.5.1); true when no such check was given. Asked after each point once
     * {@link #ended()}.
     */
    boolean settled();

    /** Each add command: when it started and ended (seconds since the test began) and how. */
    List<Step> steps();

    /** One add command's run. */
    record Step(String command, double start, double end, Integer exitCode) {}
}
