package org.bgbench.cluster.rpc;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;

/** Workers and clients over real gRPC on loopback for the transport's tests, closed after each test. */
abstract class LoopbackTransport {
    static final String SECRET = "lab-secret-42-long-enough";
    static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    static final Duration LONG = Duration.ofSeconds(20);

    final List<AutoCloseable> toClose = new ArrayList<>();

    @AfterEach
    void closeAll() throws Exception {
        for (int i = toClose.size() - 1; i >= 0; i--) {
            toClose.get(i).close();
        }
    }

    WorkerServer server(String host, TestBackend backend) throws IOException {
        WorkerServer server =
                WorkerServer.start(new InetSocketAddress(InetAddress.getByName(host), 0), SECRET, backend);
        toClose.add(server);
        return server;
    }

    WorkerClient client(String host, int port, String secret) {
        WorkerClient client = new WorkerClient(host + ":" + port, secret);
        toClose.add(client);
        return client;
    }

    static ObjectNode obj(String key, int value) {
        return NODES.objectNode().put(key, value);
    }
}
