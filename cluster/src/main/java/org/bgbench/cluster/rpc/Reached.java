package org.bgbench.cluster.rpc;

import com.fasterxml.jackson.databind.JsonNode;
import io.grpc.Attributes;
import io.grpc.ClientCall;
import io.grpc.ClientStreamTracer;
import io.grpc.ForwardingClientCall;
import io.grpc.Metadata;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Whether a call got onto an established HTTP/2 connection (the worker's HTTP/2 settings had arrived): set by a
 * stream tracer when gRPC creates the call's stream on a ready transport.
 */
final class Reached extends ClientStreamTracer.Factory {
    private final AtomicBoolean reached = new AtomicBoolean();

    static Reached of(ClientCall<?, ?> call) {
        return ((TracedCall) call).reached;
    }

    boolean get() {
        return reached.get();
    }

    @Override
    public ClientStreamTracer newClientStreamTracer(ClientStreamTracer.StreamInfo info, Metadata headers) {
        return new ClientStreamTracer() {
            @Override
            public void streamCreated(Attributes transportAttrs, Metadata headers) {
                reached.set(true);
            }
        };
    }

    /** A call that carries the tracer that watches it. */
    abstract static class TracedCall extends ForwardingClientCall.SimpleForwardingClientCall<JsonNode, JsonNode> {
        final Reached reached;

        TracedCall(ClientCall<JsonNode, JsonNode> delegate, Reached reached) {
            super(delegate);
            this.reached = reached;
        }
    }
}
