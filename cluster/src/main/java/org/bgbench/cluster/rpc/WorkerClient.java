package org.bgbench.cluster.rpc;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import io.grpc.CallOptions;
import io.grpc.ClientCall;
import io.grpc.ConnectivityState;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.netty.shaded.io.grpc.netty.GrpcSslContexts;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.shaded.io.netty.channel.ChannelOption;
import io.grpc.netty.shaded.io.netty.handler.ssl.SslContextBuilder;
import io.grpc.netty.shaded.io.netty.handler.ssl.SslProvider;
import io.grpc.stub.ClientCallStreamObserver;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.ClientResponseObserver;
import io.grpc.stub.StreamObserver;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Base64;
import java.util.Objects;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import javax.net.ssl.SSLException;
import org.bgbench.cluster.rpc.WorkerException.Kind;
import org.bgbench.cluster.security.TlsClient;

/**
 * The coordinator's connection to one worker. Thread-safe: any number of calls and streams may run at once over the
 * one (lazily opened, automatically reopened) connection.
 *
 * <p>Nothing waits forever: a unary call has a deadline, a stream an idle and a total timeout, and connecting gives up
 * after {@value #CONNECT_TIMEOUT_MILLIS} ms (calls never wait for a worker to become ready). Every failure is a
 * {@link WorkerException} naming the worker.
 */
public final class WorkerClient implements AutoCloseable {

    /** How long a connection attempt may take before the worker counts as unreachable. */
    public static final int CONNECT_TIMEOUT_MILLIS = 3000;

    /** How often gRPC pings the worker while calls are open, and how long it waits for the answer. */
    static final Duration KEEPALIVE_TIME = Duration.ofSeconds(10);

    static final Duration KEEPALIVE_TIMEOUT = Duration.ofSeconds(5);

    /** How long a unary call may overrun its deadline before it is abandoned here regardless. */
    private static final long DEADLINE_GRACE_NANOS = TimeUnit.SECONDS.toNanos(2);

    /** How long {@link #close()} waits for the worker to confirm the end of the session. */
    private static final long END_TIMEOUT_MILLIS = 2000;

    private static final SecureRandom RANDOM = new SecureRandom();

    private final String address;
    private final byte[] secret; // null only in tests: sends no secret at all
    private final String session = newSessionId();
    private final TlsClient tls;
    private final CallFailures failures;
    private final ManagedChannel channel;
    private final AtomicBoolean used = new AtomicBoolean();

    /**
     * A client for the worker at {@code hostPort} ({@code host:port}, {@code [v6-address]:port}). Does not connect
     * yet; the first call does.
     *
     * @throws IllegalArgumentException for a malformed address or a secret shorter than 16 characters
     */
    public WorkerClient(String hostPort, String secret) {
        this(hostPort, secret, null);
    }

    /**
     * A client for the worker at {@code hostPort} over TLS, trusting the worker as {@code tls} says (null:
     * plaintext). Does not connect yet; the first call does.
     *
     * @throws IllegalArgumentException for a malformed address or a secret shorter than 16 characters
     */
    public WorkerClient(String hostPort, String secret, TlsClient tls) {
        this(hostPort, secret, tls, true);
    }

    /** With {@code sendSecret} false the calls carry no secret header (to test that workers refuse them). */
    WorkerClient(String hostPort, String secret, boolean sendSecret) {
        this(hostPort, secret, null, sendSecret);
    }

    private WorkerClient(String hostPort, String secret, TlsClient tls, boolean sendSecret) {
        HostPort target = HostPort.parse(hostPort);
        byte[] secretBytes = Protocol.secretBytes(secret);
        this.address = target.toString();
        this.secret = sendSecret ? secretBytes : null;
        this.tls = tls;
        this.failures = new CallFailures(address, tls);
        NettyChannelBuilder builder = NettyChannelBuilder.forAddress(target.host(), target.port());
        if (tls == null) {
            builder.usePlaintext();
        } else {
            try {
                builder.sslContext(GrpcSslContexts.configure(SslContextBuilder.forClient(), SslProvider.JDK)
                        .trustManager(tls.trustManager())
                        .build());
            } catch (SSLException e) {
                throw new IllegalStateException("cannot set up TLS: " + e.getMessage(), e);
            }
        }
        this.channel = builder.disableRetry() // operations such as a load are not idempotent
                // Never closes a quiet connection: the worker keeps this client's session while it is open.
                .idleTimeout(30, TimeUnit.DAYS)
                .maxInboundMessageSize(Protocol.MAX_MESSAGE_BYTES)
                .withOption(ChannelOption.CONNECT_TIMEOUT_MILLIS, CONNECT_TIMEOUT_MILLIS)
                .keepAliveTime(KEEPALIVE_TIME.toMillis(), TimeUnit.MILLISECONDS)
                .keepAliveTimeout(KEEPALIVE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
                .keepAliveWithoutCalls(false)
                .build();
    }

    /** The worker's address as {@code host:port}. */
    public String address() {
        return address;
    }

    /** Whether the connection is TLS. */
    public boolean tls() {
        return tls != null;
    }

    /**
     * Runs the unary operation {@code op} on the worker and returns its result.
     *
     * @param timeout the call's deadline (the worker's backend thread is interrupted when it passes)
     * @throws WorkerException UNREACHABLE, REFUSED_SECRET, TIMEOUT, DIED, FAILED or INTERRUPTED
     */
    public JsonNode call(String op, JsonNode args, Duration timeout) throws WorkerException {
        requireOp(op);
        long timeoutNanos = positive(timeout, "timeout").toNanos();
        used.set(true);
        reconnectIfFailed();
        ClientCall<JsonNode, JsonNode> call =
                newCall(Protocol.CALL, CallOptions.DEFAULT.withDeadlineAfter(timeoutNanos, TimeUnit.NANOSECONDS));
        Reached reached = Reached.of(call);
        CompletableFuture<JsonNode> result = new CompletableFuture<>();
        ClientCalls.asyncUnaryCall(call, Protocol.request(op, args), new StreamObserver<>() {
            @Override
            public void onNext(JsonNode value) {
                result.complete(value);
            }

            @Override
            public void onError(Throwable t) {
                result.completeExceptionally(t);
            }

            @Override
            public void onCompleted() {
                result.complete(NullNode.instance); // no-op when onNext came first
            }
        });
        try {
            return result.get(timeoutNanos + DEADLINE_GRACE_NANOS, TimeUnit.NANOSECONDS);
        } catch (ExecutionException e) {
            throw failures.failure(op, e.getCause(), false, reached.get(), timeout);
        } catch (TimeoutException e) {
            call.cancel("the coordinator gave up waiting", null);
            throw failures.timedOut(op, timeout, e);
        } catch (InterruptedException e) {
            call.cancel("the coordinator was interrupted", null);
            Thread.currentThread().interrupt();
            throw failures.interrupted(op, e);
        }
    }

    /**
     * Runs the streaming operation {@code op}: passes each message to {@code onMessage} (on the calling thread, in
     * order, heartbeats left out) as it arrives and returns the final message (which is not passed to
     * {@code onMessage}). If {@code onMessage} throws, the stream is cancelled and the exception propagates.
     *
     * @param idleTimeout longest time without any message, heartbeats included (sent every second while the worker
     *     runs the operation), before the worker counts as HUNG; must exceed 1 s
     * @param totalTimeout longest time for the whole operation (TIMEOUT)
     * @throws WorkerException UNREACHABLE, REFUSED_SECRET, TIMEOUT, HUNG, DIED, FAILED or INTERRUPTED
     */
    public JsonNode stream(
            String op, JsonNode args, Duration idleTimeout, Duration totalTimeout, Consumer<JsonNode> onMessage)
            throws WorkerException {
        requireOp(op);
        Objects.requireNonNull(onMessage, "onMessage");
        if (idleTimeout == null || idleTimeout.compareTo(Protocol.HEARTBEAT) <= 0) {
            throw new IllegalArgumentException("idleTimeout must be longer than the worker's heartbeat period ("
                    + Protocol.describe(Protocol.HEARTBEAT) + "), got " + idleTimeout);
        }
        long idleNanos = idleTimeout.toNanos();
        long totalNanos = positive(totalTimeout, "totalTimeout").toNanos();
        used.set(true);
        reconnectIfFailed();
        long start = System.nanoTime();
        ClientCall<JsonNode, JsonNode> call =
                newCall(Protocol.STREAM, CallOptions.DEFAULT.withDeadlineAfter(totalNanos, TimeUnit.NANOSECONDS));
        Reached reached = Reached.of(call);
        BlockingQueue<Object> events = new LinkedBlockingQueue<>();
        ClientCalls.asyncServerStreamingCall(
                call, Protocol.request(op, args), new ClientResponseObserver<JsonNode, JsonNode>() {
                    @Override
                    public void beforeStart(ClientCallStreamObserver<JsonNode> requestStream) {
                        // One message at a time: the worker's messages wait in gRPC's flow control, not in memory here.
                        requestStream.disableAutoRequestWithInitial(1);
                    }

                    @Override
                    public void onNext(JsonNode value) {
                        events.add(value);
                    }

                    @Override
                    public void onError(Throwable t) {
                        events.add(new Ended(t));
                    }

                    @Override
                    public void onCompleted() {
                        events.add(new Ended(null));
                    }
                });
        boolean answered = false;
        JsonNode last = null;
        try {
            while (true) {
                long remaining = totalNanos - (System.nanoTime() - start);
                Object event =
                        remaining <= 0 ? null : events.poll(Math.min(idleNanos, remaining), TimeUnit.NANOSECONDS);
                if (event == null) {
                    if (totalNanos - (System.nanoTime() - start) <= 0) {
                        call.cancel("total timeout", null);
                        throw failures.timedOut(op, totalTimeout, null);
                    }
                    call.cancel("idle timeout", null);
                    throw new WorkerException(
                            Kind.HUNG,
                            address,
                            "worker " + address + " sent nothing for "
                                    + Protocol.describe(idleTimeout) + " during '" + op
                                    + "', not even a heartbeat: the worker"
                                    + " process is frozen or overloaded, or the network to it is cut",
                            null);
                }
                if (event instanceof Ended ended) {
                    if (ended.error != null) {
                        throw failures.failure(op, ended.error, answered, reached.get(), totalTimeout);
                    }
                    if (last == null) {
                        throw new WorkerException(
                                Kind.FAILED,
                                address,
                                "worker " + address + " ended '" + op + "' without a final message",
                                null);
                    }
                    return last;
                }
                answered = true;
                call.request(1);
                JsonNode envelope = (JsonNode) event;
                JsonNode body = envelope.path(Protocol.BODY);
                switch (envelope.path(Protocol.TYPE).asText()) {
                    case Protocol.MESSAGE_TYPE -> onMessage.accept(body.isMissingNode() ? NullNode.instance : body);
                    case Protocol.END_TYPE -> last = body.isMissingNode() ? NullNode.instance : body;
                    default -> {} // heartbeats, and kinds a newer worker may add
                }
            }
        } catch (InterruptedException e) {
            call.cancel("the coordinator was interrupted", null);
            Thread.currentThread().interrupt();
            throw failures.interrupted(op, e);
        } catch (RuntimeException | Error e) {
            call.cancel("the coordinator stopped reading", e); // no-op when the call already ended
            throw e;
        }
    }

    /**
     * Ends this client's session on the worker (so another coordinator may use it at once; waits up to 2 s for the
     * worker, and not at all when it cannot be reached) and closes the connection; calls still running fail.
     */
    @Override
    public void close() {
        if (used.getAndSet(false) && !channel.isShutdown()) {
            try {
                ClientCalls.blockingUnaryCall(
                        newCall(
                                Protocol.END,
                                CallOptions.DEFAULT.withDeadlineAfter(END_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS)),
                        NullNode.instance);
            } catch (RuntimeException e) {
                // Gone, refused or slow: its session ends when its connection has been closed for a while.
            }
        }
        channel.shutdownNow();
        try {
            channel.awaitTermination(2, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Closes the connection without ending the session, as a coordinator that dies does (for tests). */
    void closeWithoutEnding() {
        used.set(false);
        close();
    }

    @Override
    public String toString() {
        return "WorkerClient[" + address + "]";
    }

    // --- helpers ------------------------------------------------------------------------------------------------

    private record Ended(Throwable error) {}

    private ClientCall<JsonNode, JsonNode> newCall(MethodDescriptor<JsonNode, JsonNode> method, CallOptions options) {
        Reached reached = new Reached();
        return new Reached.TracedCall(channel.newCall(method, options.withStreamTracerFactory(reached)), reached) {
            @Override
            public void start(Listener<JsonNode> listener, Metadata headers) {
                if (secret != null) {
                    headers.put(Protocol.SECRET_HEADER, secret);
                }
                headers.put(Protocol.SESSION_HEADER, session);
                super.start(listener, headers);
            }
        };
    }

    /**
     * After a failed connection gRPC waits (exponential backoff, up to 2 min) before trying again and fails calls
     * meanwhile; a new call should try now, so a worker that was restarted is reachable at once.
     */
    private void reconnectIfFailed() {
        if (channel.getState(false) == ConnectivityState.TRANSIENT_FAILURE) {
            channel.resetConnectBackoff();
        }
    }

    private static String newSessionId() {
        byte[] bytes = new byte[16];
        RANDOM.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    private static void requireOp(String op) {
        if (op == null || op.isBlank()) {
            throw new IllegalArgumentException("an operation name is required");
        }
    }

    private static Duration positive(Duration d, String name) {
        if (d == null || d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException(name + " must be positive, got " + d);
        }
        return d;
    }
}
