package org.bgbench.cluster.rpc;

import java.util.Objects;

/**
 * A call to a worker that did not succeed. The message names the worker's address and says what happened in plain
 * words; {@link #kind()} says which of the ways it went wrong.
 */
public final class WorkerException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** How a call to a worker went wrong. */
    public enum Kind {
        /** Could not connect (nothing listens there, host unknown, no route, connect timeout). */
        UNREACHABLE,
        /** The worker is running but refused the coordinator's secret. */
        REFUSED_SECRET,
        /** The worker is serving another coordinator (one session at a time); the message names it and since when. */
        BUSY,
        /**
         * The TLS handshake failed: the worker's certificate is not pinned or not trusted, or one side speaks TLS and
         * the other does not. Nothing was sent, the secret included.
         */
        TLS,
        /** A unary call missed its deadline, or a stream its total timeout. */
        TIMEOUT,
        /** Nothing at all, not even a heartbeat, arrived for the idle timeout: the worker is frozen or the network cut. */
        HUNG,
        /** The connection broke during the call: the worker process died or the network failed. */
        DIED,
        /** The worker ran the operation and it failed (or rejected its input; see {@link #badInput()}). */
        FAILED,
        /** The calling thread was interrupted; the call was cancelled and the interrupt flag is set again. */
        INTERRUPTED
    }

    private final Kind kind;
    private final String worker;
    private final boolean badInput;

    public WorkerException(Kind kind, String worker, String message, Throwable cause) {
        this(kind, worker, message, cause, false);
    }

    WorkerException(Kind kind, String worker, String message, Throwable cause, boolean badInput) {
        super(message, cause);
        this.kind = Objects.requireNonNull(kind, "kind");
        this.worker = Objects.requireNonNull(worker, "worker");
        this.badInput = badInput;
    }

    public Kind kind() {
        return kind;
    }

    /** The worker's address, {@code host:port}. */
    public String worker() {
        return worker;
    }

    /** True when the kind is FAILED because the backend rejected the input ({@link IllegalArgumentException}). */
    public boolean badInput() {
        return badInput;
    }
}
