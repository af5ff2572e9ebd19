package org.bgbench.cluster.rpc;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.function.Consumer;

/**
 * A worker in its own JVM for the tests that freeze or kill the worker process: listens on 127.0.0.1 (free port),
 * prints {@code PORT <n>}, and serves the stream {@code tick}, a message every 100 ms until cancelled, and the unary
 * operations {@code ping} and {@code sleep} (args: milliseconds; it prints {@code SLEEPING} as it begins).
 */
public final class TickingWorkerMain {

    private TickingWorkerMain() {}

    public static void main(String[] args) throws Exception {
        WorkerBackend backend = new WorkerBackend() {
            @Override
            public JsonNode call(String op, JsonNode a) throws InterruptedException {
                if (op.equals("sleep")) { // a long unary operation
                    // the test waits for this line before it kills the worker in the middle of the call
                    System.out.println("SLEEPING");
                    System.out.flush();
                    Thread.sleep(a.asLong());
                }
                return JsonNodeFactory.instance.textNode("pong");
            }

            @Override
            public JsonNode stream(String op, JsonNode a, Consumer<JsonNode> out) throws InterruptedException {
                for (int i = 0; ; i++) {
                    out.accept(JsonNodeFactory.instance.numberNode(i));
                    Thread.sleep(100);
                }
            }
        };
        WorkerServer server =
                WorkerServer.start(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0), args[0], backend);
        System.out.println("PORT " + server.port());
        System.out.flush();
        server.awaitTermination();
    }
}
