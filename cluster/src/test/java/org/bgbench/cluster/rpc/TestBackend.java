package org.bgbench.cluster.rpc;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/** A backend whose operations the tests plug in, counting every invocation. */
final class TestBackend implements WorkerBackend {
    final AtomicInteger invocations = new AtomicInteger();
    volatile Unary unary = (op, args) -> args;
    volatile Streaming streaming = (op, args, out) -> args;

    interface Unary {
        JsonNode call(String op, JsonNode args) throws Exception;
    }

    interface Streaming {
        JsonNode stream(String op, JsonNode args, Consumer<JsonNode> out) throws Exception;
    }

    @Override
    public JsonNode call(String op, JsonNode args) throws Exception {
        invocations.incrementAndGet();
        return unary.call(op, args);
    }

    @Override
    public JsonNode stream(String op, JsonNode args, Consumer<JsonNode> out) throws Exception {
        invocations.incrementAndGet();
        return streaming.stream(op, args, out);
    }
}
