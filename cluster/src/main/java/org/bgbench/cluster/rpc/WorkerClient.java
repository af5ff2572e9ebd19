package org.bgbench.cluster.rpc;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import io.grpc.CallOptions;
import io.grpc.ClientCall;
import io.grpc.ClientStreamTracer;
import io.grpc.ConnectivityState;
import io.grpc.ForwardingClientCall;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import io.grpc.netty.shaded.io.grpc.netty.GrpcSslContexts;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.shaded.io.netty.channel.ChannelOption;
import io.grpc.netty.shaded.io.netty.handler.ssl.SslContextBuilder;
import io.grpc.netty.shaded.io.netty.handler.ssl.SslProvider;
import io.grpc.stub.ClientCallStreamObserver;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.ClientResponseObserver;
import io.grpc.stub.StreamObserver;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.PortUnreachableException;
import java.net.UnknownHostException;
import java.nio.channels.UnresolvedAddressException;
import java.security.SecureRandom;
import java.security.cert.CertificateException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.temporal.ChronoUnit;
import java.util.Base64;
import java.util.Locale;
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
        NettyChannelBuilder builder = NettyChannelBuilder.forAddress(target.host, target.port);
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
        this.channel = builder
                .disableRetry() // operations such as a load are not idempotent
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
            throw failure(op, e.getCause(), false, reached.get(), timeout);
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
        used.set(true);
        reconnectIfFailed();
        long start = System.nanoTime();
        ClientCall<JsonNode, JsonNode> call =
                newCall(Protocol.STREAM, CallOptions.DEFAULT.withDeadlineAfter(totalNanos, TimeUnit.NANOSECONDS));
        Reached reached = Reached.of(call);
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
                        throw failure(op, ended.error, answered, reached.get(), totalTimeout);
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

    /**
     * Ends this client's session on the worker (so another coordinator may use it at once; waits up to 2 s for the
     * worker, and not at all when it cannot be reached) and closes the connection; calls still running fail.
     */
    @Override
    public void close() {
        if (used.getAndSet(false) && !channel.isShutdown()) {
            try {
                ClientCalls.blockingUnaryCall(newCall(Protocol.END,
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

    /**
     * Whether a call got onto an established HTTP/2 connection (the worker's HTTP/2 settings had arrived): set by a
     * stream tracer when gRPC creates the call's stream on a ready transport.
     */
    private static final class Reached extends ClientStreamTracer.Factory {
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
                public void streamCreated(io.grpc.Attributes transportAttrs, Metadata headers) {
                    reached.set(true);
                }
            };
        }
    }

    private abstract static class TracedCall extends ForwardingClientCall.SimpleForwardingClientCall<JsonNode, JsonNode> {
        final Reached reached;

        TracedCall(ClientCall<JsonNode, JsonNode> delegate, Reached reached) {
            super(delegate);
            this.reached = reached;
        }
    }

    private ClientCall<JsonNode, JsonNode> newCall(MethodDescriptor<JsonNode, JsonNode> method, CallOptions options) {
        Reached reached = new Reached();
        return new TracedCall(channel.newCall(method, options.withStreamTracerFactory(reached)), reached) {
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

    /**
     * @param answered whether anything came back from the worker
     * @param reached whether the call got onto an established HTTP/2 connection to it
     */
    private WorkerException failure(String op, Throwable t, boolean answered, boolean reached, Duration timeout) {
        if (t instanceof WorkerException w) {
            return w;
        }
        Status status = Status.fromThrowable(t);
        String detail = status.getDescription() == null ? status.getCode().toString() : status.getDescription();
        WorkerException tlsProblem = tlsFailure(status, answered || reached, t);
        if (tlsProblem != null) {
            return tlsProblem;
        }
        Metadata trailers = Status.trailersFromThrowable(t);
        if (status.getCode() == Status.Code.FAILED_PRECONDITION && trailers != null
                && Protocol.REFUSAL_BUSY.equals(trailers.get(Protocol.REFUSAL))) {
            return busy(trailers, t);
        }
        if (status.getCode() == Status.Code.UNIMPLEMENTED || detail.startsWith("HTTP status code")) {
            // Something answered there, but not a BG worker (another gRPC server, an HTTP server, a proxy).
            return new WorkerException(Kind.UNREACHABLE, address, "worker " + address + " is unreachable: what"
                    + " answers there is not a BG worker (" + detail + "); is that the worker's port?", t);
        }
        return switch (status.getCode()) {
            case UNAUTHENTICATED -> new WorkerException(Kind.REFUSED_SECRET, address, "worker " + address
                    + " refused the secret (the coordinator and its workers must be given the same secret)"
                    + (detail.startsWith("too many") ? ": " + detail : ""), t);
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

    /** "worker 10.0.0.2:7420 is serving another coordinator (10.0.0.9, since 12:03:14); stop it or wait". */
    private WorkerException busy(Metadata trailers, Throwable t) {
        String holder = trailers.get(Protocol.HOLDER);
        String since = "";
        try {
            LocalDateTime at = LocalDateTime.ofInstant(
                    Instant.ofEpochMilli(Long.parseLong(trailers.get(Protocol.HOLDER_SINCE))), ZoneId.systemDefault());
            since = ", since " + (at.toLocalDate().equals(LocalDate.now())
                    ? at.toLocalTime().truncatedTo(ChronoUnit.SECONDS) : at.truncatedTo(ChronoUnit.SECONDS));
        } catch (RuntimeException e) {
            // an older or odd worker: say less
        }
        String gone = "";
        try {
            String g = trailers.get(Protocol.HOLDER_GONE);
            if (g != null) {
                long goneS = Long.parseLong(g) / 1000;
                long graceS = Long.parseLong(trailers.get(Protocol.HOLDER_GRACE)) / 1000;
                gone = ", disconnected " + goneS + " s ago: free in " + Math.max(1, graceS - goneS) + " s";
            }
        } catch (RuntimeException e) {
            // idem
        }
        return new WorkerException(Kind.BUSY, address, "worker " + address + " is serving another coordinator ("
                + (holder == null ? "unknown" : holder) + since + gone + "); stop it or wait", t);
    }

    /**
     * A failed TLS handshake, or a TLS/plaintext mismatch; null when the failure is something else.
     *
     * @param connected whether the call got past the HTTP/2 handshake (then it is not about TLS)
     */
    private WorkerException tlsFailure(Status status, boolean connected, Throwable t) {
        if (connected || status.getCode() != Status.Code.UNAVAILABLE) {
            return null;
        }
        SSLException ssl = null;
        CertificateException cert = null;
        for (Throwable c = status.getCause(); c != null; c = c.getCause() == c ? null : c.getCause()) {
            if (c instanceof SSLException s && ssl == null) {
                ssl = s;
            }
            if (c instanceof CertificateException ce) {
                cert = ce;
            }
        }
        String detail = status.getDescription() == null ? "" : status.getDescription();
        if (tls == null) {
            // A TLS server drops a plaintext client at its first bytes: the connection closes (or is reset) after it
            // was opened and before the HTTP/2 handshake, which a BG worker without TLS never does.
            if (ssl != null || !isConnectFailure(status)) {
                return new WorkerException(Kind.TLS, address, "worker " + address + " closed the connection before"
                        + " the HTTP/2 handshake: it probably expects TLS (give the coordinator --tls with --tls-pin or"
                        + " --tls-ca), or what listens there is not a BG worker; gRPC says: " + detail, t);
            }
            return null;
        }
        if (ssl == null) {
            return null;
        }
        String why;
        if (cert != null) {
            String m = rootMessage(cert);
            why = m.contains("PKIX path") || m.contains("unable to find valid certification path")
                    ? "its certificate is not signed by an authority trusted here (" + tls.description() + ")"
                    : m.contains("No subject alternative") || m.contains("No name matching")
                    ? "its certificate does not name " + address.substring(0, address.lastIndexOf(':'))
                            + " (" + m + "); connect by a name it carries, or pin it with --tls-pin"
                    : m;
        } else {
            String m = rootMessage(ssl);
            why = m.toLowerCase(Locale.ROOT).contains("unrecognized ssl message")
                    || m.toLowerCase(Locale.ROOT).contains("not an ssl/tls record")
                    ? "it does not speak TLS (a worker started without --tls?)"
                    : m;
        }
        return new WorkerException(Kind.TLS, address, "worker " + address + " failed the TLS handshake: " + why
                + "; nothing was sent", t);
    }

    private static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t.getMessage() == null ? t.toString() : t.getMessage();
    }

    private static String newSessionId() {
        byte[] bytes = new byte[16];
        RANDOM.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
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
