package org.bgbench.cluster.rpc;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import io.grpc.Grpc;
import io.grpc.Metadata;
import io.grpc.Server;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.ServerInterceptors;
import io.grpc.ServerServiceDefinition;
import io.grpc.Status;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.ServerCalls;
import io.grpc.stub.StreamObserver;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A worker's end of the transport: a gRPC server on exactly the given address that checks the shared secret on every
 * call and runs the operations on a {@link WorkerBackend}.
 *
 * <p>Every operation runs on its own daemon thread, which is interrupted when the coordinator cancels or disconnects,
 * when the call's deadline passes, or when this server closes. While a stream runs a heartbeat goes to the
 * coordinator every second, so a long quiet operation is not taken for a hang.
 */
public final class WorkerServer implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(WorkerServer.class);

    private final Server server;
    private final WorkerBackend backend;
    private final ExecutorService grpcExecutor;
    private final ScheduledExecutorService heartbeats;
    private final Set<Thread> running = ConcurrentHashMap.newKeySet();
    private final AtomicBoolean closed = new AtomicBoolean();

    private WorkerServer(InetSocketAddress listen, byte[] secret, WorkerBackend backend) throws IOException {
        this.backend = backend;
        this.grpcExecutor = Executors.newCachedThreadPool(daemon("bg-worker-grpc"));
        this.heartbeats = Executors.newSingleThreadScheduledExecutor(daemon("bg-worker-heartbeat"));
        ServerServiceDefinition service = ServerServiceDefinition.builder(Protocol.SERVICE)
                .addMethod(Protocol.CALL, ServerCalls.asyncUnaryCall(this::call))
                .addMethod(Protocol.STREAM, ServerCalls.asyncServerStreamingCall(this::stream))
                .build();
        Server built = NettyServerBuilder.forAddress(listen)
                .addService(ServerInterceptors.intercept(service, new SecretCheck(secret)))
                .executor(grpcExecutor)
                .maxInboundMessageSize(Protocol.MAX_MESSAGE_BYTES)
                .handshakeTimeout(10, TimeUnit.SECONDS)
                // Pings a quiet coordinator so a dead one is noticed (its calls are then cancelled).
                .keepAliveTime(20, TimeUnit.SECONDS)
                .keepAliveTimeout(10, TimeUnit.SECONDS)
                // Lets the coordinator ping every 10 s (WorkerClient) without being sent away.
                .permitKeepAliveTime(5, TimeUnit.SECONDS)
                .permitKeepAliveWithoutCalls(true)
                .build();
        try {
            this.server = built.start();
        } catch (IOException | RuntimeException e) {
            heartbeats.shutdownNow();
            grpcExecutor.shutdownNow();
            throw new IOException("cannot listen on " + hostPort(listen) + ": " + rootMessage(e), e);
        }
    }

    /**
     * Starts a worker server listening on exactly {@code listen} (port 0 picks a free port, see {@link #port()}).
     *
     * @param secret the shared secret every call must carry; required, non-empty
     * @throws IOException when the address cannot be bound (in use, not an address of this host)
     */
    public static WorkerServer start(InetSocketAddress listen, String secret, WorkerBackend backend)
            throws IOException {
        Objects.requireNonNull(listen, "listen");
        Objects.requireNonNull(backend, "backend");
        if (listen.isUnresolved()) {
            throw new IOException("cannot listen on " + listen.getHostString() + ":" + listen.getPort()
                    + ": unknown host");
        }
        WorkerServer server = new WorkerServer(listen, Protocol.secretBytes(secret), backend);
        log.info("worker listening on {}", server.address());
        return server;
    }

    /** The bound port (the chosen one when {@code listen} asked for port 0). */
    public int port() {
        return server.getPort();
    }

    /** The bound address. */
    public InetSocketAddress address() {
        for (SocketAddress a : server.getListenSockets()) {
            if (a instanceof InetSocketAddress inet) {
                return inet;
            }
        }
        throw new IllegalStateException("the worker server is not listening");
    }

    /** Blocks until the server has closed (by {@link #close()} from another thread). */
    public void awaitTermination() throws InterruptedException {
        server.awaitTermination();
    }

    /** Stops listening, cancels running calls (their backend threads are interrupted) and waits up to 5 s. */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        server.shutdownNow();
        running.forEach(Thread::interrupt);
        try {
            if (!server.awaitTermination(5, TimeUnit.SECONDS)) {
                log.warn("worker server on port {} did not stop within 5 s", port());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            heartbeats.shutdownNow();
            grpcExecutor.shutdownNow();
        }
    }

    // --- the two methods ---------------------------------------------------------------------------------------

    private void call(JsonNode request, StreamObserver<JsonNode> responses) {
        Op op = Op.parse(request, responses);
        if (op == null) {
            return;
        }
        Running r = new Running(op, (ServerCallStreamObserver<JsonNode>) responses);
        r.launch(() -> r.complete(backend.call(op.name, op.args), false));
    }

    private void stream(JsonNode request, StreamObserver<JsonNode> responses) {
        Op op = Op.parse(request, responses);
        if (op == null) {
            return;
        }
        Running r = new Running(op, (ServerCallStreamObserver<JsonNode>) responses);
        long period = Protocol.HEARTBEAT.toMillis();
        r.heartbeat = heartbeats.scheduleAtFixedRate(r::heartbeat, 0, period, TimeUnit.MILLISECONDS);
        r.launch(() -> r.complete(backend.stream(op.name, op.args, r::message), true));
    }

    private record Op(String name, JsonNode args) {
        static Op parse(JsonNode request, StreamObserver<JsonNode> responses) {
            JsonNode op = request.get("op");
            if (op == null || !op.isTextual() || op.asText().isBlank()) {
                responses.onError(Status.INVALID_ARGUMENT.withDescription("the request names no operation")
                        .asRuntimeException());
                return null;
            }
            JsonNode args = request.get("args");
            return new Op(op.asText(), args == null ? NullNode.instance : args);
        }
    }

    private interface Body {
        void run() throws Exception;
    }

    /** One operation in progress: its thread, its response stream and its heartbeat. */
    private final class Running {
        private final Op op;
        private final ServerCallStreamObserver<JsonNode> responses;
        private volatile boolean cancelled;
        private boolean finished; // guarded by this
        private Thread thread;
        ScheduledFuture<?> heartbeat;

        Running(Op op, ServerCallStreamObserver<JsonNode> responses) {
            this.op = op;
            this.responses = responses;
        }

        void launch(Body body) {
            thread = Thread.ofPlatform().daemon().name("bg-worker-op-" + op.name).unstarted(() -> {
                try {
                    body.run();
                } catch (Throwable e) {
                    fail(e);
                } finally {
                    stopHeartbeat();
                    running.remove(Thread.currentThread());
                }
            });
            // Must be set before this handler returns; runs when the client cancels, disconnects or its deadline
            // passes, and when the server shuts down.
            responses.setOnCancelHandler(() -> {
                cancelled = true;
                stopHeartbeat();
                thread.interrupt();
            });
            if (closed.get()) {
                responses.onError(Status.UNAVAILABLE.withDescription("the worker is shutting down").asRuntimeException());
                return;
            }
            running.add(thread);
            thread.start();
        }

        void message(JsonNode message) {
            send(Protocol.envelope(Protocol.MESSAGE_TYPE, message == null ? NullNode.instance : message));
        }

        synchronized void heartbeat() {
            if (!finished && !cancelled && responses.isReady()) {
                try {
                    responses.onNext(Protocol.envelope(Protocol.HEARTBEAT_TYPE, null));
                } catch (RuntimeException e) {
                    log.debug("heartbeat of {} not sent", op.name, e);
                }
            }
        }

        private synchronized void send(JsonNode envelope) {
            if (cancelled) {
                throw new CancellationException("the coordinator cancelled '" + op.name + "'");
            }
            if (finished) {
                throw new IllegalStateException("'" + op.name + "' already returned its final message");
            }
            responses.onNext(envelope);
        }

        synchronized void complete(JsonNode result, boolean streaming) {
            JsonNode body = result == null ? NullNode.instance : result;
            if (cancelled || finished) {
                return;
            }
            finished = true;
            stopHeartbeat();
            responses.onNext(streaming ? Protocol.envelope(Protocol.END_TYPE, body) : body);
            responses.onCompleted();
        }

        synchronized void fail(Throwable e) {
            if (cancelled || finished) {
                log.debug("'{}' ended after it was cancelled: {}", op.name, e.toString());
                return;
            }
            finished = true;
            stopHeartbeat();
            Status status;
            if (e instanceof IllegalArgumentException) {
                log.info("'{}' rejected its input: {}", op.name, e.getMessage());
                status = Status.INVALID_ARGUMENT;
            } else if (e instanceof InterruptedException && closed.get()) {
                status = Status.UNAVAILABLE.withDescription("the worker is shutting down");
                responses.onError(status.asRuntimeException());
                return;
            } else {
                log.warn("'{}' failed", op.name, e);
                status = Status.UNKNOWN;
            }
            String message = e.getMessage() == null || e.getMessage().isBlank()
                    ? e.getClass().getSimpleName() : e.getMessage();
            try {
                responses.onError(status.withDescription(Protocol.shorten(message)).asRuntimeException());
            } catch (RuntimeException sendFailure) {
                log.debug("could not report the failure of '{}'", op.name, sendFailure);
            }
        }

        private void stopHeartbeat() {
            ScheduledFuture<?> h = heartbeat;
            if (h != null) {
                h.cancel(false);
            }
        }
    }

    // --- the secret ---------------------------------------------------------------------------------------------

    /** Closes every call that does not carry the shared secret with UNAUTHENTICATED before it reaches a method. */
    private static final class SecretCheck implements ServerInterceptor {
        private final byte[] expected;

        SecretCheck(byte[] secret) {
            this.expected = sha256(secret);
        }

        @Override
        public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers,
                ServerCallHandler<Q, R> next) {
            byte[] given = headers.get(Protocol.SECRET_HEADER);
            // Comparing fixed-length digests in constant time reveals neither the secret's bytes nor its length.
            if (given != null && MessageDigest.isEqual(sha256(given), expected)) {
                return next.startCall(call, headers);
            }
            String why = given == null ? "no secret" : "wrong secret";
            log.warn("refused a call from {}: {}", call.getAttributes().get(Grpc.TRANSPORT_ATTR_REMOTE_ADDR), why);
            call.close(Status.UNAUTHENTICATED.withDescription(why), new Metadata());
            return new ServerCall.Listener<>() {};
        }

        private static byte[] sha256(byte[] bytes) {
            try {
                return MessageDigest.getInstance("SHA-256").digest(bytes);
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException("SHA-256 is missing from this JDK", e);
            }
        }
    }

    // --- helpers ------------------------------------------------------------------------------------------------

    private static ThreadFactory daemon(String name) {
        return Thread.ofPlatform().daemon().name(name + "-", 0).factory();
    }

    private static String hostPort(InetSocketAddress a) {
        String host = a.getHostString();
        return (host.contains(":") ? "[" + host + "]" : host) + ":" + a.getPort();
    }

    private static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t.getMessage() == null ? t.toString() : t.getMessage();
    }
}
