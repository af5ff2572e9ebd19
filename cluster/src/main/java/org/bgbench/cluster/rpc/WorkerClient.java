package org.bgbench.cluster.rpc;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import io.grpc.CallOptions;
import io.grpc.ClientCall;
import io.grpc.ConnectivityState;
import io.grpc.ForwardingClientCall;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.shaded.io.netty.channel.ChannelOption;
import io.grpc.stub.ClientCallStreamObserver;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.ClientResponseObserver;
import io.grpc.stub.StreamObserver;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.PortUnreachableException;
import java.net.UnknownHostException;
import java.nio.channels.UnresolvedAddressException;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import org.bgbench.cluster.rpc.WorkerException.Kind;

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

    private final String address;
    private final byte[] secret; // null only in tests: sends no secret at all
    private final ManagedChannel channel;

    /**
     * A client for the worker at {@code hostPort} ({@code host:port}, {@code [v6-address]:port}). Does not connect
     * yet; the first call does.
     *
     * @throws IllegalArgumentException for a malformed address or an empty secret
     */
    public WorkerClient(String hostPort, String secret) {
        this(hostPort, secret, true);
    }

    /** With {@code sendSecret} false the calls carry no secret header (to test that workers refuse them). */
    WorkerClient(String hostPort, String secret, boolean sendSecret) {
        HostPort target = HostPort.parse(hostPort);
        byte[] secretBytes = Protocol.secretBytes(secret);
        this.address = target.toString();
        this.secret = sendSecret ? secretBytes : null;
        this.channel = NettyChannelBuilder.forAddress(target.host, target.port)
                .usePlaintext()
                .disableRetry() // operations such as a load are not idempotent
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

    /**
     * Runs the unary operation {@code op} on the worker and returns its result.
     *
     * @param timeout the call's deadline (the worker's backend thread is interrupted when it passes)
     * @throws WorkerException UNREACHABLE, REFUSED_SECRET, TIMEOUT, DIED, FAILED or INTERRUPTED
     */
    public JsonNode call(String op, JsonNode args, Duration timeout) throws WorkerException {
        requireOp(op);
        long timeoutNanos = positive(timeout, "timeout").toNanos();
        reconnectIfFailed();
        ClientCall<JsonNode, JsonNode> call =
                newCall(Protocol.CALL, CallOptions.DEFAULT.withDeadlineAfter(timeoutNanos, TimeUnit.NANOSECONDS));
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
            throw failure(op, e.getCause(), false, timeout);
        } catch (TimeoutException e) {
            call.cancel("the coordinator gave up waiting", null);
            throw timedOut(op, timeout, e);
        } catch (InterruptedException e) {
            call.cancel("the coordinator was interrupted", null);
            Thread.currentThread().interrupt();
            throw interrupted(op, e);
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
    public JsonNode stream(String op, JsonNode args, Duration idleTimeout, Duration totalTimeout,
            Consumer<JsonNode> onMessage) throws WorkerException {
        requireOp(op);
        Objects.requireNonNull(onMessage, "onMessage");
        if (idleTimeout == null || idleTimeout.compareTo(Protocol.HEARTBEAT) <= 0) {
            throw new IllegalArgumentException("idleTimeout must be longer than the worker's heartbeat period ("
                    + Protocol.describe(Protocol.HEARTBEAT) + "), got " + idleTimeout);
        }
        long idleNanos = idleTimeout.toNanos();
        long totalNanos = positive(totalTimeout, "totalTimeout").toNanos();
        reconnectIfFailed();
        long start = System.nanoTime();
        ClientCall<JsonNode, JsonNode> call =
                newCall(Protocol.STREAM, CallOptions.DEFAULT.withDeadlineAfter(totalNanos, TimeUnit.NANOSECONDS));
        BlockingQueue<Object> events = new LinkedBlockingQueue<>();
        ClientCalls.asyncServerStreamingCall(call, Protocol.request(op, args),
                new ClientResponseObserver<JsonNode, JsonNode>() {
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
                Object event = remaining <= 0 ? null : events.poll(Math.min(idleNanos, remaining), TimeUnit.NANOSECONDS);
                if (event == null) {
                    if (totalNanos - (System.nanoTime() - start) <= 0) {
                        call.cancel("total timeout", null);
                        throw timedOut(op, totalTimeout, null);
                    }
                    call.cancel("idle timeout", null);
                    throw new WorkerException(Kind.HUNG, address, "worker " + address + " sent nothing for "
                            + Protocol.describe(idleTimeout) + " during '" + op + "', not even a heartbeat: the worker"
                            + " process is frozen or overloaded, or the network to it is cut", null);
                }
                if (event instanceof Ended ended) {
                    if (ended.error != null) {
                        throw failure(op, ended.error, answered, totalTimeout);
                    }
                    if (last == null) {
                        throw new WorkerException(Kind.FAILED, address, "worker " + address + " ended '" + op
                                + "' without a final message", null);
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
                    default -> { } // heartbeats, and kinds a newer worker may add
                }
            }
        } catch (InterruptedException e) {
            call.cancel("the coordinator was interrupted", null);
            Thread.currentThread().interrupt();
            throw interrupted(op, e);
        } catch (RuntimeException | Error e) {
            call.cancel("the coordinator stopped reading", e); // no-op when the call already ended
            throw e;
        }
    }

    /** Closes the connection; calls still running fail. */
    @Override
    public void close() {
        channel.shutdownNow();
        try {
            channel.awaitTermination(2, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public String toString() {
        return "WorkerClient[" + address + "]";
    }

    // --- helpers ------------------------------------------------------------------------------------------------

    private record Ended(Throwable error) {}

    private ClientCall<JsonNode, JsonNode> newCall(MethodDescriptor<JsonNode, JsonNode> method, CallOptions options) {
        return new ForwardingClientCall.SimpleForwardingClientCall<>(channel.newCall(method, options)) {
            @Override
            public void start(Listener<JsonNode> listener, Metadata headers) {
                if (secret != null) {
                    headers.put(Protocol.SECRET_HEADER, secret);
                }
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

    private WorkerException failure(String op, Throwable t, boolean answered, Duration timeout) {
        if (t instanceof WorkerException w) {
            return w;
        }
        Status status = Status.fromThrowable(t);
        String detail = status.getDescription() == null ? status.getCode().toString() : status.getDescription();
        if (status.getCode() == Status.Code.UNIMPLEMENTED || detail.startsWith("HTTP status code")) {
            // Something answered there, but not a BG worker (another gRPC server, an HTTP server, a proxy).
            return new WorkerException(Kind.UNREACHABLE, address, "worker " + address + " is unreachable: what"
                    + " answers there is not a BG worker (" + detail + "); is that the worker's port?", t);
        }
        return switch (status.getCode()) {
            case UNAUTHENTICATED -> new WorkerException(Kind.REFUSED_SECRET, address, "worker " + address
                    + " refused the secret (the coordinator and its workers must be given the same secret)", t);
            case DEADLINE_EXCEEDED -> timedOut(op, timeout, t);
            case UNAVAILABLE -> {
                if (!answered && isConnectFailure(status)) {
                    yield new WorkerException(Kind.UNREACHABLE, address, "worker " + address + " is unreachable ("
                            + connectProblem(status) + "): is a worker running there, listening on that address?", t);
                }
                if (detail.toLowerCase(Locale.ROOT).contains("keepalive")) {
                    yield new WorkerException(Kind.HUNG, address, "worker " + address + " stopped answering"
                            + " keepalive pings during '" + op + "': the worker process is frozen or the network to"
                            + " it is cut", t);
                }
                yield new WorkerException(Kind.DIED, address, "worker " + address + " went away during '" + op
                        + "': the connection broke (the worker process died or shut down, or the network failed;"
                        + " gRPC says: " + detail + ")", t);
            }
            case INVALID_ARGUMENT -> new WorkerException(Kind.FAILED, address,
                    "worker " + address + " rejected '" + op + "': " + detail, t, true);
            default -> new WorkerException(Kind.FAILED, address,
                    "worker " + address + " failed '" + op + "': " + detail, t);
        };
    }

    private WorkerException timedOut(String op, Duration timeout, Throwable cause) {
        return new WorkerException(Kind.TIMEOUT, address, "worker " + address + " did not finish '" + op
                + "' within " + Protocol.describe(timeout), cause);
    }

    private WorkerException interrupted(String op, Throwable cause) {
        return new WorkerException(Kind.INTERRUPTED, address, "the call of '" + op + "' on worker " + address
                + " was interrupted and cancelled", cause);
    }

    private static boolean isConnectFailure(Status status) {
        for (Throwable t = status.getCause(); t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof ConnectException || t instanceof UnknownHostException
                    || t instanceof NoRouteToHostException || t instanceof PortUnreachableException
                    || t instanceof UnresolvedAddressException) {
                return true;
            }
        }
        String d = status.getDescription();
        return d != null && d.startsWith("Unable to resolve host");
    }

    private static String connectProblem(Status status) {
        Throwable root = status.getCause();
        while (root != null && root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        if (root instanceof UnknownHostException) {
            return "unknown host " + root.getMessage();
        }
        if (root != null && root.getMessage() != null) {
            String message = root.getMessage().toLowerCase(Locale.ROOT);
            if (message.contains("refused")) {
                return "connection refused";
            }
            if (message.contains("no route")) {
                return "no route to host";
            }
            if (message.contains("timed out")) {
                return "no answer within " + CONNECT_TIMEOUT_MILLIS / 1000 + " s";
            }
            return root.getMessage();
        }
        return status.getDescription() == null ? "connection failed" : status.getDescription();
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

    /** A validated {@code host:port}. */
    private record HostPort(String host, int port) {
        static HostPort parse(String text) {
            String s = text == null ? "" : text.strip();
            String host;
            String port;
            if (s.startsWith("[")) {
                int close = s.indexOf("]:");
                host = close < 0 ? "" : s.substring(1, close);
                port = close < 0 ? "" : s.substring(close + 2);
            } else {
                int colon = s.lastIndexOf(':');
                host = colon < 0 || s.indexOf(':') != colon ? "" : s.substring(0, colon);
                port = colon < 0 ? "" : s.substring(colon + 1);
            }
            int p = -1;
            if (!port.isEmpty() && port.length() <= 5 && port.chars().allMatch(c -> c >= '0' && c <= '9')) {
                p = Integer.parseInt(port);
            }
            if (host.isBlank() || host.chars().anyMatch(Character::isWhitespace) || p < 1 || p > 65535) {
                throw new IllegalArgumentException("bad worker address '" + text + "': expected host:port with a"
                        + " port from 1 to 65535, e.g. 10.0.0.7:7070 or [fe80::1]:7070 (--workers takes a"
                        + " comma-separated list of them)");
            }
            return new HostPort(host, p);
        }

        @Override
        public String toString() {
            return (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
        }
    }
}
