package org.bgbench.cli;

/**
 * The operations a coordinator sends its workers [SPEC §14], carried as JSON over the cluster module's gRPC
 * transport. In a rating: {@code hello} each, {@code open} each with the plan, then per experiment {@code run} on all at
 * once, and {@code reset} between experiments; {@code bg load} sends {@code create-schema} to worker 0, {@code load} to
 * all, {@code finish-load} to worker 0.
 */
final class ClusterProtocol {
    /** Bumped when an operation's arguments or answer change incompatibly. */
    static final int VERSION = 1;

    static final String HELLO = "hello";
    static final String OPEN = "open";
    static final String CREATE_SCHEMA = "create-schema";
    static final String LOAD = "load";
    static final String FINISH_LOAD = "finish-load";
    static final String RUN = "run";
    static final String RESET = "reset";
    static final String SAVE_IMAGE = "save-image";
    static final String VERIFY = "verify";
    static final String CLOSE = "close";
    /** Close the store and end the worker process. */
    static final String SHUTDOWN = "shutdown";
    /** End the running experiment early; its stream then ends with what was measured. */
    static final String STOP = "stop";
    /** Close the store but keep the plan and state; the next operation opens it again. */
    static final String RELEASE = "release";

    private ClusterProtocol() {
    }
}
