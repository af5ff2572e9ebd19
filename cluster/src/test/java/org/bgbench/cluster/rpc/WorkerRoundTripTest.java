package org.bgbench.cluster.rpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.bgbench.cluster.rpc.WorkerException.Kind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Calls and streams over the transport: round trips, the secret, addresses, and backend failures. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class WorkerRoundTripTest extends LoopbackTransport {
    @Test
    void unaryRoundTrip() throws Exception {
        TestBackend backend = new TestBackend();
        backend.unary = (op, args) -> NODES.objectNode().put("op", op).set("got", args);
        WorkerServer server = server("127.0.0.1", backend);
        WorkerClient client = client("127.0.0.1", server.port(), SECRET);

        JsonNode answer = client.call("echo", NODES.objectNode().put("x", 7).put("s", "é ✓"), Duration.ofSeconds(5));

        assertThat(answer.get("op").asText()).isEqualTo("echo");
        assertThat(answer.get("got").get("x").asInt()).isEqualTo(7);
        assertThat(answer.get("got").get("s").asText()).isEqualTo("é ✓");
        assertThat(client.call("echo", null, Duration.ofSeconds(5)).get("got").isNull())
                .isTrue();
        assertThat(client.address()).isEqualTo("127.0.0.1:" + server.port());
    }

    @Test
    void streamDeliversManyMessagesInOrderThenTheFinalOne() throws Exception {
        TestBackend backend = new TestBackend();
        backend.streaming = (op, args, out) -> {
            int n = args.get("n").asInt();
            for (int i = 0; i < n; i++) {
                out.accept(obj("i", i));
            }
            return NODES.objectNode().put("done", n).put("op", op);
        };
        WorkerServer server = server("127.0.0.1", backend);
        WorkerClient client = client("127.0.0.1", server.port(), SECRET);

        List<Integer> received = new ArrayList<>();
        JsonNode last = client.stream(
                "count",
                obj("n", 2000),
                Duration.ofSeconds(5),
                LONG,
                m -> received.add(m.get("i").asInt()));

        assertThat(received).hasSize(2000);
        for (int i = 0; i < received.size(); i++) {
            assertThat(received.get(i)).isEqualTo(i);
        }
        assertThat(last.get("done").asInt()).isEqualTo(2000);
        assertThat(last.get("op").asText()).isEqualTo("count");
    }

    @Test
    void wrongSecretIsRefusedBeforeTheBackendSeesTheCall() throws Exception {
        TestBackend backend = new TestBackend();
        // Short backoffs: this test is about the answer, WorkerSecurityTest about the slowing down.
        WorkerServer server = WorkerServer.builder(new InetSocketAddress("127.0.0.1", 0), backend)
                .secret(SECRET)
                .backoff(Duration.ofMillis(1), Duration.ofMillis(20))
                .start();
        toClose.add(server);
        String address = "127.0.0.1:" + server.port();

        for (String wrong :
                List.of("lab-secret-43-long-enough", "x".repeat(16), SECRET + "-and-more", SECRET.toUpperCase())) {
            WorkerClient client = client("127.0.0.1", server.port(), wrong);
            WorkerException unary = catchThrowableOfType(
                    WorkerException.class, () -> client.call("echo", obj("x", 1), Duration.ofSeconds(5)));
            assertThat(unary.kind()).isEqualTo(Kind.REFUSED_SECRET);
            assertThat(unary.worker()).isEqualTo(address);
            assertThat(unary).hasMessageContaining("worker " + address + " refused the secret");
            WorkerException stream = catchThrowableOfType(
                    WorkerException.class,
                    () -> client.stream("count", obj("n", 1), Duration.ofSeconds(5), LONG, m -> {}));
            assertThat(stream.kind()).isEqualTo(Kind.REFUSED_SECRET);
        }
        assertThat(backend.invocations).hasValue(0);
        // and the right one still works
        client("127.0.0.1", server.port(), SECRET).call("echo", obj("x", 1), Duration.ofSeconds(5));
        assertThat(backend.invocations).hasValue(1);
    }

    @Test
    void missingSecretIsRefused() throws Exception {
        TestBackend backend = new TestBackend();
        WorkerServer server = server("127.0.0.1", backend);
        WorkerClient noSecret = new WorkerClient("127.0.0.1:" + server.port(), SECRET, false);
        toClose.add(noSecret);

        assertThatThrownBy(() -> noSecret.call("echo", obj("x", 1), Duration.ofSeconds(5)))
                .isInstanceOfSatisfying(
                        WorkerException.class, e -> assertThat(e.kind()).isEqualTo(Kind.REFUSED_SECRET))
                .hasMessageContaining("refused the secret");
        assertThatThrownBy(() -> noSecret.stream("count", obj("n", 1), Duration.ofSeconds(5), LONG, m -> {}))
                .isInstanceOfSatisfying(
                        WorkerException.class, e -> assertThat(e.kind()).isEqualTo(Kind.REFUSED_SECRET));
        assertThat(backend.invocations).hasValue(0);
    }

    @Test
    void secretAndAddressAreValidated() {
        assertThatThrownBy(() -> new WorkerClient("127.0.0.1:7000", ""))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("secret");
        assertThatThrownBy(() -> new WorkerClient("127.0.0.1:7000", null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("secret");
        assertThatThrownBy(() -> WorkerServer.start(new InetSocketAddress("127.0.0.1", 0), "", new TestBackend()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("secret");
        // at least 16 characters (code points, not bytes), on both ends
        assertThatThrownBy(() -> new WorkerClient("127.0.0.1:7000", "x".repeat(15)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at least 16 characters");
        assertThatThrownBy(() ->
                        WorkerServer.start(new InetSocketAddress("127.0.0.1", 0), "é".repeat(15), new TestBackend()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at least 16 characters");
        new WorkerClient("127.0.0.1:7000", "x".repeat(16)).close();
        for (String bad : List.of(
                "", "host", "host:", ":7000", "host:0", "host:65536", "host:7x", "a b:7000", "::1:7000", "[::1]7000")) {
            assertThatThrownBy(() -> new WorkerClient(bad, SECRET))
                    .as(bad)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("'" + bad + "'")
                    .hasMessageContaining("--workers");
        }
        try (WorkerClient v6 = new WorkerClient("[::1]:7000", SECRET);
                WorkerClient named = new WorkerClient(" worker-3.lab:7070 ", SECRET)) {
            assertThat(v6.address()).isEqualTo("[::1]:7000");
            assertThat(named.address()).isEqualTo("worker-3.lab:7070");
        }
    }

    @Test
    void backendFailuresComeBackAsFailedWithTheirMessageAndTheServerGoesOn() throws Exception {
        TestBackend backend = new TestBackend();
        WorkerServer server = server("127.0.0.1", backend);
        WorkerClient client = client("127.0.0.1", server.port(), SECRET);
        String address = client.address();

        backend.unary = (op, args) -> {
            throw new IllegalStateException("disk full on /data");
        };
        WorkerException failed = catchThrowableOfType(
                WorkerException.class, () -> client.call("load", obj("x", 1), Duration.ofSeconds(5)));
        assertThat(failed.kind()).isEqualTo(Kind.FAILED);
        assertThat(failed.badInput()).isFalse();
        assertThat(failed.getMessage()).isEqualTo("worker " + address + " failed 'load': disk full on /data");

        backend.unary = (op, args) -> {
            throw new IllegalArgumentException("unknown store 'nosuch'");
        };
        WorkerException rejected = catchThrowableOfType(
                WorkerException.class, () -> client.call("load", obj("x", 1), Duration.ofSeconds(5)));
        assertThat(rejected.kind()).isEqualTo(Kind.FAILED);
        assertThat(rejected.badInput()).isTrue();
        assertThat(rejected.getMessage()).isEqualTo("worker " + address + " rejected 'load': unknown store 'nosuch'");

        backend.streaming = (op, args, out) -> {
            out.accept(obj("i", 0));
            throw new IOException("store connection lost");
        };
        List<JsonNode> got = new ArrayList<>();
        WorkerException streamFailed = catchThrowableOfType(
                WorkerException.class, () -> client.stream("run", obj("x", 1), Duration.ofSeconds(5), LONG, got::add));
        assertThat(streamFailed.kind()).isEqualTo(Kind.FAILED);
        assertThat(streamFailed).hasMessageContaining("store connection lost").hasMessageNotContaining("\tat ");
        assertThat(got).hasSize(1);

        backend.unary = (op, args) -> {
            throw new NullPointerException();
        };
        assertThat(catchThrowableOfType(WorkerException.class, () -> client.call("x", null, Duration.ofSeconds(5))))
                .hasMessageEndingWith("null pointer")
                .hasMessageNotContaining("NullPointerException");

        backend.unary = (op, args) -> NODES.textNode("still here");
        assertThat(client.call("ping", null, Duration.ofSeconds(5)).asText()).isEqualTo("still here");
    }
}
