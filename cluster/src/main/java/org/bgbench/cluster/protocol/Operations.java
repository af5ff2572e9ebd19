package org.bgbench.cluster.protocol;

/**
 * The operations a coordinator sends its workers, carried as JSON over the transport ({@link Messages} are their
 * arguments and answers). In a rating: {@code hello} each, {@code open} each with the plan, then per experiment
 * {@code check} on all (before the store is marked) and {@code run} on all at once, and {@code reset} between
 * experiments; {@code bg load} sends {@code create-schema} to
 * worker 0 (to every worker for stores of their own), {@code load} to all, {@code finish-load} to worker 0.
 */
public final class Operations {
    /**
     * The protocol version, bumped when an operation's arguments or answer change incompatibly. A coordinator sends
     * it with {@code hello} ({@link Messages.Greeting}) and the worker answers with its own ({@link Messages.Hello}):
     * each end refuses the other unless they are equal. Version 5 sends each kind's figures of a streamed second as
     * named properties ({@link Messages.KindSecond}); version 6 adds {@code held-graph}.
     */
    public static final int VERSION = 6;

    public static final String HELLO = "hello";
    public static final String OPEN = "open";
    /**
     * The graph the worker's store records with its last completed load ({@link Messages.HeldGraph}), asked before
     * {@code open} so a command that names no graph key runs on the store's graph; it leaves the worker's plan and
     * state as they are.
     */
    public static final String HELD_GRAPH = "held-graph";

    public static final String CREATE_SCHEMA = "create-schema";
    public static final String LOAD = "load";
    public static final String FINISH_LOAD = "finish-load";
    /**
     * Whether the worker can run its share of an experiment ({@link Messages.Checked}): asked of every worker before
     * the store is marked as being written, so an experiment a worker refuses leaves no mark behind.
     */
    public static final String CHECK = "check";

    public static final String RUN = "run";
    public static final String RESET = "reset";
    public static final String SAVE_IMAGE = "save-image";
    public static final String VERIFY = "verify";
    /** Adopt (and maybe write into the store) a state mark: see {@link Messages.Mark}. */
    public static final String MARK = "mark";

    public static final String CLOSE = "close";
    /** Close the store and end the worker process. */
    public static final String SHUTDOWN = "shutdown";
    /** End the running experiment early; its stream then ends with what was measured. */
    public static final String STOP = "stop";
    /** Close the store but keep the plan and state; the next operation opens it again. */
    public static final String RELEASE = "release";

    private Operations() {}
}
