package org.bgbench.cluster.rpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.bgbench.cluster.rpc.WorkerException.Kind;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The transport over real gRPC on loopback, with workers in this JVM and, to freeze or kill them, in another. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
@Tag("server")
class WorkerTransportTest {

    private static final String SECRET = "lab-secret-42-long-enough";
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final Duration LONG = Duration.ofSeconds(20);

    private final List<AutoCloseable> toClose = new ArrayList<>();

    @AfterEach
    void closeAll() throws Exception {
        for (int i = toClose.size() - 1; i >= 0; i--) {
            toClose.get(i).close();
        }
    }

    /** A backend whose operations the tests plug in, counting every invocation. */
    private static final class TestBackend implements WorkerBackend {
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

    private WorkerServer server(String host, TestBackend backend) throws IOException {
        WorkerServer server = WorkerServer.start(new InetSocketAddress(InetAddress.getByName(host), 0), SECRET, backend);
        toClose.add(server);
        return server;
    }

    private WorkerClient client(String host, int port, String secret) {
        WorkerClient client = new WorkerClient(host + ":" + port, secret);
        toClose.add(client);
        return client;
    }

    private static ObjectNode obj(String key, int value) {
        return NODES.objectNode().put(key, value);
    }

    // --- round trips -------------------------------------------------------------------------------------------

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
        assertThat(client.call("echo", null, Duration.ofSeconds(5)).get("got").isNull()).isTrue();
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
        JsonNode last = client.stream("count", obj("n", 2000), Duration.ofSeconds(5), LONG,
                m -> received.add(m.get("i").asInt()));

        assertThat(received).hasSize(2000);
        for (int i = 0; i < received.size(); i++) {
            assertThat(received.get(i)).isEqualTo(i);
        }
        assertThat(last.get("done").asInt()).isEqualTo(2000);
        assertThat(last.get("op").asText()).isEqualTo("count");
    }

    // --- the secret ---------------------------------------------------------------------------------------------

    @Test
    void wrongSecretIsRefusedBeforeTheBackendSeesTheCall() throws Exception {
        TestBackend backend = new TestBackend();
        // Short backoffs: this test is about the answer, WorkerSecurityTest about the slowing down.
        WorkerServer server = WorkerServer.builder(new InetSocketAddress("127.0.0.1", 0), backend).secret(SECRET)
                .backoff(Duration.ofMillis(1), Duration.ofMillis(20)).start();
        toClose.add(server);
        String address = "127.0.0.1:" + server.port();

        for (String wrong : List.of("lab-secret-43-long-enough", "x".repeat(16), SECRET + "-and-more",
                SECRET.toUpperCase())) {
            WorkerClient client = client("127.0.0.1", server.port(), wrong);
            WorkerException unary = catchThrowableOfType(WorkerException.class,
                    () -> client.call("echo", obj("x", 1), Duration.ofSeconds(5)));
            assertThat(unary.kind()).isEqualTo(Kind.REFUSED_SECRET);
            assertThat(unary.worker()).isEqualTo(address);
            assertThat(unary).hasMessageContaining("worker " + address + " refused the secret");
            WorkerException stream = catchThrowableOfType(WorkerException.class,
                    () -> client.stream("count", obj("n", 1), Duration.ofSeconds(5), LONG, m -> { }));
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
                .isInstanceOfSatisfying(WorkerException.class,
                        e -> assertThat(e.kind()).isEqualTo(Kind.REFUSED_SECRET))
                .hasMessageContaining("refused the secret");
        assertThatThrownBy(() -> noSecret.stream("count", obj("n", 1), Duration.ofSeconds(5), LONG, m -> { }))
                .isInstanceOfSatisfying(WorkerException.class,
                        e -> assertThat(e.kind()).isEqualTo(Kind.REFUSED_SECRET));
        assertThat(backend.invocations).hasValue(0);
    }

    @Test
    void secretAndAddressAreValidated() {
        assertThatThrownBy(() -> new WorkerClient("127.0.0.1:7000", ""))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("secret");
        assertThatThrownBy(() -> new WorkerClient("127.0.0.1:7000", null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("secret");
        assertThatThrownBy(() -> WorkerServer.start(new InetSocketAddress("127.0.0.1", 0), "", new TestBackend()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("secret");
        // at least 16 characters (code points, not bytes), on both ends
        assertThatThrownBy(() -> new WorkerClient("127.0.0.1:7000", "x".repeat(15)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least 16 characters");
        assertThatThrownBy(() -> WorkerServer.start(new InetSocketAddress("127.0.0.1", 0), "é".repeat(15),
                new TestBackend()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least 16 characters");
        new WorkerClient("127.0.0.1:7000", "x".repeat(16)).close();
        for (String bad : List.of("", "host", "host:", ":7000", "host:0", "host:65536", "host:7x", "a b:7000",
                "::1:7000", "[::1]7000")) {
            assertThatThrownBy(() -> new WorkerClient(bad, SECRET))
                    .as(bad).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("'" + bad + "'").hasMessageContaining("--workers");
        }
        try (WorkerClient v6 = new WorkerClient("[::1]:7000", SECRET);
             WorkerClient named = new WorkerClient(" worker-3.lab:7070 ", SECRET)) {
            assertThat(v6.address()).isEqualTo("[::1]:7000");
            assertThat(named.address()).isEqualTo("worker-3.lab:7070");
        }
    }

    // --- failures of the backend ----------------------------------------------------------------------------------

    @Test
    void backendFailuresComeBackAsFailedWithTheirMessageAndTheServerGoesOn() throws Exception {
        TestBackend backend = new TestBackend();
        WorkerServer server = server("127.0.0.1", backend);
        WorkerClient client = client("127.0.0.1", server.port(), SECRET);
        String address = client.address();

        backend.unary = (op, args) -> {
            throw new IllegalStateException("disk full on /data");
        };
        WorkerException failed = catchThrowableOfType(WorkerException.class,
                () -> client.call("load", obj("x", 1), Duration.ofSeconds(5)));
        assertThat(failed.kind()).isEqualTo(Kind.FAILED);
        assertThat(failed.badInput()).isFalse();
        assertThat(failed.getMessage()).isEqualTo("worker " + address + " failed 'load': disk full on /data");

        backend.unary = (op, args) -> {
            throw new IllegalArgumentException("unknown store 'nosuch'");
        };
        WorkerException rejected = catchThrowableOfType(WorkerException.class,
                () -> client.call("load", obj("x", 1), Duration.ofSeconds(5)));
        assertThat(rejected.kind()).isEqualTo(Kind.FAILED);
        assertThat(rejected.badInput()).isTrue();
        assertThat(rejected.getMessage()).isEqualTo("worker " + address + " rejected 'load': unknown store 'nosuch'");

        backend.streaming = (op, args, out) -> {
            out.accept(obj("i", 0));
            throw new java.io.IOException("store connection lost");
        };
        List<JsonNode> got = new ArrayList<>();
        WorkerException streamFailed = catchThrowableOfType(WorkerException.class,
                () -> client.stream("run", obj("x", 1), Duration.ofSeconds(5), LONG, got::add));
        assertThat(streamFailed.kind()).isEqualTo(Kind.FAILED);
        assertThat(streamFailed).hasMessageContaining("store connection lost").hasMessageNotContaining("\tat ");
        assertThat(got).hasSize(1);

        backend.unary = (op, args) -> {
            throw new NullPointerException();
        };
        assertThat(catchThrowableOfType(WorkerException.class,
                () -> client.call("x", null, Duration.ofSeconds(5)))).hasMessageEndingWith("null pointer")
                .hasMessageNotContaining("NullPointerException");

        backend.unary = (op, args) -> NODES.textNode("still here");
        assertThat(client.call("ping", null, Duration.ofSeconds(5)).asText()).isEqualTo("still here");
    }

    // --- timeouts, heartbeats, cancellation -----------------------------------------------------------------------

    @Test
    void aLongQuietStreamIsKeptAliveByHeartbeats() throws Exception {
        TestBackend backend = new TestBackend();
        backend.streaming = (op, args, out) -> {
            out.accept(NODES.textNode("before"));
            Thread.sleep(3000);
            out.accept(NODES.textNode("after"));
            return NODES.textNode("final");
        };
        WorkerServer server = server("127.0.0.1", backend);
        WorkerClient client = client("127.0.0.1", server.port(), SECRET);

        List<String> got = new ArrayList<>();
        JsonNode last = client.stream("quiet", null, Duration.ofSeconds(2), LONG, m -> got.add(m.asText()));

        assertThat(got).containsExactly("before", "after"); // heartbeats are not passed on
        assertThat(last.asText()).isEqualTo("final");
    }

    @Test
    void totalTimeoutCancelsTheStreamAndInterruptsTheBackend() throws Exception {
        CountDownLatch interrupted = new CountDownLatch(1);
        TestBackend backend = new TestBackend();
        backend.streaming = (op, args, out) -> {
            try {
                Thread.sleep(60_000);
            } catch (InterruptedException e) {
                interrupted.countDown();
                throw e;
            }
            return null;
        };
        WorkerServer server = server("127.0.0.1", backend);
        WorkerClient client = client("127.0.0.1", server.port(), SECRET);

        long start = System.nanoTime();
        WorkerException e = catchThrowableOfType(WorkerException.class,
                () -> client.stream("run", null, Duration.ofMillis(1500), Duration.ofMillis(1800), m -> { }));
        long ms = (System.nanoTime() - start) / 1_000_000;

        assertThat(e.kind()).isEqualTo(Kind.TIMEOUT);
        assertThat(e).hasMessage("worker " + client.address() + " did not finish 'run' within 1.8s");
        assertThat(ms).isBetween(1700L, 4000L);
        assertThat(interrupted.await(3, TimeUnit.SECONDS)).as("backend thread interrupted").isTrue();
    }

    @Test
    void unaryDeadlineFailsWithTimeoutAndInterruptsTheBackend() throws Exception {
        CountDownLatch interrupted = new CountDownLatch(1);
        TestBackend backend = new TestBackend();
        backend.unary = (op, args) -> {
            try {
                Thread.sleep(60_000);
            } catch (InterruptedException e) {
                interrupted.countDown();
                throw e;
            }
            return null;
        };
        WorkerServer server = server("127.0.0.1", backend);
        WorkerClient client = client("127.0.0.1", server.port(), SECRET);

        long start = System.nanoTime();
        WorkerException e = catchThrowableOfType(WorkerException.class,
                () -> client.call("load", null, Duration.ofMillis(500)));
        long ms = (System.nanoTime() - start) / 1_000_000;

        assertThat(e.kind()).isEqualTo(Kind.TIMEOUT);
        assertThat(e).hasMessageContaining("did not finish 'load' within 500ms");
        assertThat(ms).isLessThan(2500);
        assertThat(interrupted.await(3, TimeUnit.SECONDS)).as("backend thread interrupted").isTrue();
    }

    @Test
    void aFailingMessageHandlerCancelsTheStream() throws Exception {
        CountDownLatch interrupted = new CountDownLatch(1);
        TestBackend backend = new TestBackend();
        backend.streaming = (op, args, out) -> {
            try {
                for (int i = 0; ; i++) {
                    out.accept(obj("i", i));
                    Thread.sleep(20);
                }
            } catch (InterruptedException | java.util.concurrent.CancellationException e) {
                interrupted.countDown();
                throw e;
            }
        };
        WorkerServer server = server("127.0.0.1", backend);
        WorkerClient client = client("127.0.0.1", server.port(), SECRET);

        assertThatThrownBy(() -> client.stream("run", null, Duration.ofSeconds(5), LONG, m -> {
            if (m.get("i").asInt() == 3) {
                throw new IllegalStateException("handler broke");
            }
        })).isInstanceOf(IllegalStateException.class).hasMessage("handler broke");
        assertThat(interrupted.await(3, TimeUnit.SECONDS)).as("backend stopped").isTrue();
    }

    @Test
    void closingTheServerCancelsRunningStreams() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch interrupted = new CountDownLatch(1);
        TestBackend backend = new TestBackend();
        backend.streaming = (op, args, out) -> {
            started.countDown();
            try {
                Thread.sleep(60_000);
            } catch (InterruptedException e) {
                interrupted.countDown();
                throw e;
            }
            return null;
        };
        WorkerServer server = server("127.0.0.1", backend);
        WorkerClient client = client("127.0.0.1", server.port(), SECRET);

        CompletableFuture<Throwable> outcome = CompletableFuture.supplyAsync(() -> {
            try {
                client.stream("run", null, Duration.ofSeconds(10), LONG, m -> { });
                return null;
            } catch (Throwable t) {
                return t;
            }
        });
        assertThat(started.await(5, TimeUnit.SECONDS)).isTrue();
        server.close();

        assertThat(interrupted.await(3, TimeUnit.SECONDS)).as("backend thread interrupted").isTrue();
        Throwable t = outcome.get(5, TimeUnit.SECONDS);
        assertThat(t).isInstanceOfSatisfying(WorkerException.class,
                e -> assertThat(e.kind()).isIn(Kind.DIED, Kind.FAILED));
    }

    // --- the worker process freezes or dies ------------------------------------------------------------------------

    /** A worker in a child JVM, so it can be frozen (SIGSTOP) or killed. */
    private static final class ChildWorker implements AutoCloseable {
        final Process process;
        final int port;

        ChildWorker() throws Exception {
            String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            process = new ProcessBuilder(java, "-Xmx128m", "-XX:TieredStopAtLevel=1",
                    "--enable-native-access=ALL-UNNAMED",
                    "-cp", System.getProperty("java.class.path"), TickingWorkerMain.class.getName(), SECRET)
                    .redirectError(ProcessBuilder.Redirect.INHERIT)
                    .start();
            BufferedReader out = new BufferedReader(
                    new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
            CompletableFuture<String> line = CompletableFuture.supplyAsync(() -> {
                try {
                    return out.readLine();
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
            String first;
            try {
                first = line.get(20, TimeUnit.SECONDS);
            } catch (Exception e) {
                process.destroyForcibly();
                throw e;
            }
            if (first == null || !first.startsWith("PORT ")) {
                process.destroyForcibly();
                throw new IllegalStateException("child worker did not start: " + first);
            }
            port = Integer.parseInt(first.substring(5).strip());
        }

        void signal(String signal) throws Exception {
            int rc = new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid())).inheritIO().start()
                    .waitFor();
            assertThat(rc).as("kill -" + signal).isZero();
        }

        @Override
        public void close() {
            process.destroyForcibly();
            try {
                process.waitFor(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Test
    void aFrozenWorkerIsReportedAsHungWithinTheIdleTimeout() throws Exception {
        ChildWorker child = new ChildWorker();
        toClose.add(child);
        WorkerClient client = client("127.0.0.1", child.port, SECRET);
        Duration idle = Duration.ofSeconds(2);
        AtomicLong stoppedAt = new AtomicLong();
        List<Integer> got = new CopyOnWriteArrayList<>();

        WorkerException e = catchThrowableOfType(WorkerException.class, () ->
                client.stream("tick", null, idle, LONG, m -> {
                    got.add(m.asInt());
                    if (got.size() == 3) {
                        try {
                            child.signal("STOP");
                        } catch (Exception ex) {
                            throw new IllegalStateException(ex);
                        }
                        stoppedAt.set(System.nanoTime());
                    }
                }));
        long ms = (System.nanoTime() - stoppedAt.get()) / 1_000_000;

        assertThat(e).isNotNull();
        assertThat(e.kind()).isEqualTo(Kind.HUNG);
        assertThat(e).hasMessageContaining("worker " + client.address() + " sent nothing for 2s during 'tick'");
        assertThat(ms).isBetween(1500L, idle.toMillis() + 3000);
        child.signal("KILL");
    }

    @Test
    void aWorkerKilledMidStreamIsReportedAsDied() throws Exception {
        ChildWorker child = new ChildWorker();
        toClose.add(child);
        WorkerClient client = client("127.0.0.1", child.port, SECRET);
        assertThat(client.call("ping", null, Duration.ofSeconds(5)).asText()).isEqualTo("pong");
        Duration idle = Duration.ofSeconds(5);
        AtomicLong killedAt = new AtomicLong();
        AtomicInteger got = new AtomicInteger();

        WorkerException e = catchThrowableOfType(WorkerException.class, () ->
                client.stream("tick", null, idle, LONG, m -> {
                    if (got.incrementAndGet() == 3) {
                        child.process.destroyForcibly();
                        killedAt.set(System.nanoTime());
                    }
                }));
        long ms = (System.nanoTime() - killedAt.get()) / 1_000_000;

        assertThat(e).isNotNull();
        assertThat(e.kind()).isIn(Kind.DIED, Kind.HUNG);
        assertThat(e.worker()).isEqualTo(client.address());
        assertThat(e).hasMessageContaining("worker " + client.address());
        assertThat(ms).isLessThan(idle.toMillis() + 3000);
        System.out.println("killed worker: " + e.kind() + " after " + ms + " ms: " + e.getMessage());

        // the next call finds nobody there
        WorkerException after = catchThrowableOfType(WorkerException.class,
                () -> client.call("ping", null, Duration.ofSeconds(5)));
        assertThat(after.kind()).isEqualTo(Kind.UNREACHABLE);
    }

    @Test
    void aWorkerKilledDuringAUnaryCallIsReportedAsDiedNotAsATlsProblem() throws Exception {
        ChildWorker child = new ChildWorker();
        toClose.add(child);
        WorkerClient client = client("127.0.0.1", child.port, SECRET);
        CompletableFuture<Throwable> outcome = CompletableFuture.supplyAsync(() -> catchThrowableOfType(
                WorkerException.class, () -> client.call("sleep", NODES.numberNode(20_000), LONG)));
        Thread.sleep(1000); // the call is on the worker, which has not answered
        child.process.destroyForcibly();

        Throwable t = outcome.get(15, TimeUnit.SECONDS);
        assertThat(t).isInstanceOfSatisfying(WorkerException.class,
                e -> assertThat(e.kind()).as(e.getMessage()).isEqualTo(Kind.DIED));
    }

    // --- addresses --------------------------------------------------------------------------------------------------

    private static int closedPort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            return s.getLocalPort();
        }
    }

    @Test
    void anUnreachableWorkerFailsFast() throws Exception {
        int port = closedPort();
        WorkerClient client = client("127.0.0.1", port, SECRET);

        for (int attempt = 0; attempt < 2; attempt++) {
            long start = System.nanoTime();
            WorkerException e = catchThrowableOfType(WorkerException.class,
                    () -> client.call("ping", null, Duration.ofSeconds(30)));
            long ms = (System.nanoTime() - start) / 1_000_000;
            assertThat(e.kind()).isEqualTo(Kind.UNREACHABLE);
            assertThat(e).hasMessageStartingWith("worker 127.0.0.1:" + port + " is unreachable (connection refused)");
            assertThat(ms).isLessThan(5000);
        }
        long start = System.nanoTime();
        WorkerException e = catchThrowableOfType(WorkerException.class,
                () -> client.stream("tick", null, Duration.ofSeconds(30), Duration.ofSeconds(60), m -> { }));
        assertThat(e.kind()).isEqualTo(Kind.UNREACHABLE);
        assertThat((System.nanoTime() - start) / 1_000_000).isLessThan(5000);
    }

    @Test
    void theServerListensOnlyOnTheGivenAddress() throws Exception {
        TestBackend backend = new TestBackend();
        backend.unary = (op, args) -> NODES.textNode("pong");
        WorkerServer server = server("127.0.0.2", backend);
        assertThat(server.address().getAddress().getHostAddress()).isEqualTo("127.0.0.2");

        WorkerException e = catchThrowableOfType(WorkerException.class,
                () -> client("127.0.0.1", server.port(), SECRET).call("ping", null, Duration.ofSeconds(10)));
        assertThat(e.kind()).isEqualTo(Kind.UNREACHABLE);
        assertThat(client("127.0.0.2", server.port(), SECRET).call("ping", null, Duration.ofSeconds(5)).asText())
                .isEqualTo("pong");
    }

    @Test
    void aGrpcServerThatIsNotAWorkerIsUnreachable() throws Exception {
        io.grpc.Server other = io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder
                .forAddress(new InetSocketAddress("127.0.0.1", 0)).build().start();
        toClose.add(() -> other.shutdownNow().awaitTermination(5, TimeUnit.SECONDS));
        WorkerClient client = client("127.0.0.1", other.getPort(), SECRET);

        WorkerException e = catchThrowableOfType(WorkerException.class,
                () -> client.call("ping", null, Duration.ofSeconds(5)));
        assertThat(e.kind()).isEqualTo(Kind.UNREACHABLE);
        assertThat(e).hasMessageContaining("is not a BG worker");
    }

    @Test
    void aPortInUseIsReportedClearly() throws Exception {
        WorkerServer first = server("127.0.0.1", new TestBackend());
        assertThatThrownBy(() -> WorkerServer.start(new InetSocketAddress("127.0.0.1", first.port()), SECRET,
                new TestBackend()))
                .isInstanceOf(IOException.class)
                .hasMessageStartingWith("cannot listen on 127.0.0.1:" + first.port());
    }
}
