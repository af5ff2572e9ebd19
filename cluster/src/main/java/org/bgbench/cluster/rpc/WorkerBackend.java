package org.bgbench.cluster.rpc;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.function.Consumer;

/**
 * What a worker does; implemented by the layer above and served by {@link WorkerServer}.
 *
 * <p>Each call runs on its own daemon thread, so an operation may take minutes. When the coordinator cancels, its
 * deadline passes, it disconnects or the server closes, that thread is interrupted: long operations should let
 * {@link InterruptedException} out (or check {@link Thread#interrupted()}) and stop.
 */
public interface WorkerBackend {

    /**
     * Unary operation; the returned node is sent back. Throw {@link IllegalArgumentException} for bad input (the
     * client sees {@link WorkerException.Kind#FAILED} with the message and {@link WorkerException#badInput()} true),
     * anything else for a failure (FAILED with the message; the stack trace stays in the worker's log).
     */
    JsonNode call(String op, JsonNode args) throws Exception;

    /**
     * Server-streaming operation: send any number of messages through {@code out} (in order, from any thread), return
     * the final message (also delivered, as the client's return value). Exceptions are reported as for
     * {@link #call}. After the stream was cancelled {@code out} throws {@link java.util.concurrent.CancellationException}.
     * The transport adds heartbeats while this runs; the backend need not send anything to look alive.
     */
    JsonNode stream(String op, JsonNode args, Consumer<JsonNode> out) throws Exception;
}
