package org.bgbench.cluster.rpc;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import io.grpc.Server;
import io.grpc.ServerInterceptors;
import io.grpc.ServerServiceDefinition;
import io.grpc.Status;
import io.grpc.netty.shaded.io.grpc.netty.GrpcSslContexts;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.netty.shaded.io.netty.handler.ssl.SslContextBuilder;
import io.grpc.netty.shaded.io.netty.handler.ssl.SslProvider;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.ServerCalls;
import io.grpc.stub.StreamObserver;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.security.cert.X509Certificate;
import java.time.Duration;
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
import java.util.function.Consumer;
import javax.net.ssl.SSLException;
import org.bgbench.cluster.security.TlsServer;
import org.bgbench.runner.guard.Throttle;
import org.bgbench.store.ErrorText;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A worker's end of the transport: a gRPC server on exactly the given address that checks the shared secret on every
 * call and runs the operations on a {@link WorkerBackend}.
 *
 * <p>Every operation runs on its own daemon thread, which is interrupted when the coordinator cancels or disconnects,
 * when the call's deadline passes, or when this server closes. While a stream runs a heartbeat goes to the
 * coordinator every second, so a long quiet operation is not taken for a hang.
 *
 * <p>Before a call reaches the backend ({@link Gate}): a source address that presented a wrong secret waits before
 * its next call is looked at (from {@value #BACKOFF_BASE_MILLIS} ms, doubling up to {@value #BACKOFF_MAX_MILLIS} ms);
 * the secret is compared in constant time; and the worker serves one coordinator session at a time (another one is
 * refused, {@link WorkerException.Kind#BUSY}, until the first ends or has been disconnected for
 * {@link #SESSION_GRACE}). With {@link Builder#tls} the connection is TLS.
 */
public final class WorkerServer implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(WorkerServer.class);

    /** First wait of a source address after a wrong secret; doubles with each further one. */
    public static final long BACKOFF_BASE_MILLIS = 100;
    /** Longest wait of a source address after wrong secrets. */
    public static final long BACKOFF_MAX_MILLIS = 5000;
    /**
     * How long a coordinator whose connections all closed keeps its session (so it may reconnect), as long as the
     * coordinator's own heartbeat timeout.
     */
    public static final Duration SESSION_GRACE = Duration.ofSeconds(10);

    private final Server server;
    private final WorkerBackend backend;
    private final ExecutorService grpcExecutor;
    private final ScheduledExecutorService heartbeats;
    private final Set<Thread> running = ConcurrentHashMap.newKeySet();
    private final AtomicBoolean closed = new AtomicBoolean();
    private final Sessions sessions;
    private final TlsServer tls;

    private WorkerServer(Builder b, byte[] secret) throws IOException {
        this.backend = b.backend;
        this.tls = b.tls;
        this.grpcExecutor = Executors.newCachedThreadPool(daemon("bg-worker-grpc"));
        this.heartbeats = Executors.newSingleThreadScheduledExecutor(daemon("bg-worker-heartbeat"));
        Consumer<String> warn = b.messages != null ? b.messages : log::warn;
        Consumer<String> info = b.messages != null ? b.messages : log::info;
        Throttle throttle = new Throttle(b.backoffBase, b.backoffMax, Throttle.MAX_SOURCES, "secret", warn);
        this.sessions = new Sessions(b.sessionGrace, info);
        Gate gate = new Gate(secret, throttle, sessions, heartbeats);
        ServerServiceDefinition service = ServerServiceDefinition.builder(Protocol.SERVICE)
                .addMethod(Protocol.CALL, ServerCalls.asyncUnaryCall(this::call))
                .addMethod(Protocol.STREAM, ServerCalls.asyncServerStreamingCall(this::stream))
                .addMethod(Protocol.END, ServerCalls.asyncUnaryCall((request, responses) -> {
                    responses.onNext(NullNode.instance); // the Gate ended the session
                    responses.onCompleted();
                }))
                .build();
        NettyServerBuilder builder = NettyServerBuilder.forAddress(b.listen)
                .addService(ServerInterceptors.intercept(service, gate))
                .addTransportFilter(gate.connections())
                .executor(grpcExecutor)
                .maxInboundMessageSize(Protocol.MAX_MESSAGE_BYTES)
                .handshakeTimeout(10, TimeUnit.SECONDS)
                // Pings a quiet coordinator so a dead one is noticed (its calls are then cancelled).
                .keepAliveTime(20, TimeUnit.SECONDS)
                .keepAliveTimeout(10, TimeUnit.SECONDS)
                // Lets the coordinator ping every 10 s (WorkerClient) without being sent away.
                .permitKeepAliveTime(5, TimeUnit.SECONDS)
                .permitKeepAliveWithoutCalls(true);
        if (tls != null) {
            try {
                builder.sslContext(GrpcSslContexts.configure(
                                SslContextBuilder.forServer(
                                        tls.privateKey(), tls.chain().toArray(X509Certificate[]::new)),
                                SslProvider.JDK)
                        .build());
            } catch (SSLException | RuntimeException e) {
                heartbeats.shutdownNow();
                grpcExecutor.shutdownNow();
                throw new IOException("cannot set up TLS with " + tls + ": " + rootMessage(e), e);
            }
        }
        try {
            this.server = builder.build().start();
        } catch (IOException | RuntimeException e) {
            heartbeats.shutdownNow();
            grpcExecutor.shutdownNow();
            throw new IOException("cannot listen on " + hostPort(b.listen) + ": " + rootMessage(e), e);
        }
        long sweep = Throttle.REPORT_EVERY.toMillis() / 4;
        heartbeats.scheduleWithFixedDelay(() -> throttle.sweep(System.nanoTime()), sweep, sweep, TimeUnit.MILLISECONDS);
        if (b.listen.getAddress().isAnyLocalAddress()) {
            warn.accept("listening on every interface of this host ("
                    + hostPort(new InetSocketAddress(b.listen.getAddress(), server.getPort())) + "): any host that"
                    + " reaches it may try the secret; give the address that faces the coordinator instead");
        }
    }

    /**
     * Starts a worker server listening on exactly {@code listen} (port 0 picks a free port, see {@link #port()}),
     * plaintext, with the default backoff and session grace.
     *
     * @param secret the shared secret every call must carry; required, at least 16 characters
     * @throws IOException when the address cannot be bound (in use, not an address of this host)
     */
    public static WorkerServer start(InetSocketAddress listen, String secret, WorkerBackend backend)
            throws IOException {
        return builder(listen, backend).secret(secret).start();
    }

    /** A server to configure before {@link Builder#start()}: secret (required), TLS, where its messages go. */
    public static Builder builder(InetSocketAddress listen, WorkerBackend backend) {
        return new Builder(listen, backend);
    }

    /** Options of a {@link WorkerServer}. */
    public static final class Builder {
        private final InetSocketAddress listen;
        private final WorkerBackend backend;
        private String secret;
        private TlsServer tls;
        private Consumer<String> messages;
        private Duration sessionGrace = SESSION_GRACE;
        private Duration backoffBase = Duration.ofMillis(BACKOFF_BASE_MILLIS);
        private Duration backoffMax = Duration.ofMillis(BACKOFF_MAX_MILLIS);

        private Builder(InetSocketAddress listen, WorkerBackend backend) {
            this.listen = Objects.requireNonNull(listen, "listen");
            this.backend = Objects.requireNonNull(backend, "backend");
        }

        /** The shared secret every call must carry; required, at least 16 characters. */
        public Builder secret(String secret) {
            this.secret = secret;
            return this;
        }

        /** Serve TLS with this identity (null: plaintext). */
        public Builder tls(TlsServer tls) {
            this.tls = tls;
            return this;
        }

        /**
         * Where the server's security messages go, one line each: listening on every interface, refused secrets
         * (once per source address, then counts), which coordinator it serves and refuses. Default: this class's
         * logger.
         */
        public Builder messages(Consumer<String> messages) {
            this.messages = messages;
            return this;
        }

        /** How long a disconnected coordinator keeps its session (default {@link #SESSION_GRACE}). */
        public Builder sessionGrace(Duration grace) {
            if (grace == null || grace.isNegative()) {
                throw new IllegalArgumentException("the session grace must be zero or more, got " + grace);
            }
            this.sessionGrace = grace;
            return this;
        }

        /** The backoff after wrong secrets, for tests that must not wait seconds. */
        Builder backoff(Duration base, Duration max) {
            this.backoffBase = base;
            this.backoffMax = max;
            return this;
        }

        /**
         * Starts listening.
         *
         * @throws IllegalArgumentException for a missing or short secret
         * @throws IOException when the address cannot be bound (in use, not an address of this host, unknown host)
         */
        public WorkerServer start() throws IOException {
            if (listen.isUnresolved()) {
                throw new IOException(
                        "cannot listen on " + listen.getHostString() + ":" + listen.getPort() + ": unknown host");
            }
            WorkerServer server = new WorkerServer(this, Protocol.secretBytes(secret));
            log.info("worker listening on {}{}", server.address(), tls == null ? "" : " (TLS, " + tls + ")");
            return server;
        }
    }

    /** The TLS identity it serves, or null (plaintext). */
    public TlsServer tls() {
        return tls;
    }

    /** The IP address of the coordinator it serves, or null when it serves none. */
    public String coordinator() {
        return sessions.holder();
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
                responses.onError(Status.INVALID_ARGUMENT
                        .withDescription("the request names no operation")
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
            thread = Thread.ofPlatform()
                    .daemon()
                    .name("bg-worker-op-" + op.name)
                    .unstarted(() -> {
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
                responses.onError(Status.UNAVAILABLE
                        .withDescription("the worker is shutting down")
                        .asRuntimeException());
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
            String message = ErrorText.of(e);
            try {
                responses.onError(
                        status.withDescription(Protocol.shorten(message)).asRuntimeException());
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
