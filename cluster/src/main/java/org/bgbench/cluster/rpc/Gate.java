package org.bgbench.cluster.rpc;

import io.grpc.Attributes;
import io.grpc.Context;
import io.grpc.Grpc;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.ServerTransportFilter;
import io.grpc.Status;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.bgbench.runner.guard.Throttle;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What every call passes before it reaches a method: the {@link Throttle} of its source address (a source that
 * presented a wrong secret waits before its next call is looked at), the secret (compared in constant time), and the
 * {@link Sessions} (one coordinator at a time). A refused call is closed before the backend sees it.
 */
final class Gate implements ServerInterceptor {

    private static final Logger log = LoggerFactory.getLogger(Gate.class);

    private final byte[] expected;
    private final Throttle throttle;
    private final Sessions sessions;
    private final ScheduledExecutorService timer;

    Gate(byte[] secret, Throttle throttle, Sessions sessions, ScheduledExecutorService timer) {
        this.expected = sha256(secret);
        this.throttle = throttle;
        this.sessions = sessions;
        this.timer = timer;
    }

    /** Follows the connections, for the sessions. */
    ServerTransportFilter connections() {
        return new ServerTransportFilter() {
            @Override
            public Attributes transportReady(Attributes attributes) {
                sessions.opened(attributes.get(Grpc.TRANSPORT_ATTR_REMOTE_ADDR));
                return attributes;
            }

            @Override
            public void transportTerminated(Attributes attributes) {
                if (attributes != null) {
                    sessions.closed(attributes.get(Grpc.TRANSPORT_ATTR_REMOTE_ADDR), System.nanoTime());
                }
            }
        };
    }

    @Override
    public <Q, R> ServerCall.Listener<Q> interceptCall(
            ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next) {
        SocketAddress remote = call.getAttributes().get(Grpc.TRANSPORT_ATTR_REMOTE_ADDR);
        InetAddress from = remote instanceof InetSocketAddress inet ? inet.getAddress() : null;
        long wait = throttle.delay(from, System.nanoTime());
        if (wait == 0) {
            return decide(call, headers, next, remote, from);
        }
        if (!throttle.enqueue(from)) {
            close(
                    call,
                    Status.UNAUTHENTICATED.withDescription("too many calls from " + Throttle.name(from)
                            + " are waiting after refused secrets; not checked"),
                    new Metadata());
            return new ServerCall.Listener<>() {};
        }
        // Its turn comes later: hold the call (gRPC delivers no message before the method asks for one).
        Deferred<Q> deferred = new Deferred<>();
        Context context = Context.current();
        schedule(
                new Runnable() {
                    @Override
                    public void run() {
                        if (deferred.cancelled()) {
                            throttle.dequeue(from);
                            return;
                        }
                        long again = throttle.delay(from, System.nanoTime());
                        if (again > 0) { // another call of the same source was refused meanwhile
                            if (!schedule(this, again)) {
                                throttle.dequeue(from);
                            }
                            return;
                        }
                        throttle.dequeue(from);
                        ServerCall.Listener<Q> listener;
                        Context previous = context.attach();
                        try {
                            listener = decide(call, headers, next, remote, from);
                        } catch (RuntimeException e) {
                            log.warn("a call could not start", e);
                            close(
                                    call,
                                    Status.INTERNAL.withDescription("the worker could not start the call"),
                                    new Metadata());
                            listener = new ServerCall.Listener<>() {};
                        } finally {
                            context.detach(previous);
                        }
                        deferred.start(listener);
                    }
                },
                wait);
        return deferred;
    }

    private boolean schedule(Runnable r, long nanos) {
        try {
            timer.schedule(r, nanos, TimeUnit.NANOSECONDS);
            return true;
        } catch (RejectedExecutionException e) { // the server is closing
            return false;
        }
    }

    private <Q, R> ServerCall.Listener<Q> decide(
            ServerCall<Q, R> call,
            Metadata headers,
            ServerCallHandler<Q, R> next,
            SocketAddress remote,
            InetAddress from) {
        byte[] given = headers.get(Protocol.SECRET_HEADER);
        // Comparing fixed-length digests in constant time reveals neither the secret's bytes nor its length.
        if (given == null || !MessageDigest.isEqual(sha256(given), expected)) {
            String why = given == null ? "no secret" : "wrong secret";
            throttle.refused(from, why, System.nanoTime());
            close(call, Status.UNAUTHENTICATED.withDescription(why), new Metadata());
            return new ServerCall.Listener<>() {};
        }
        throttle.accepted(from, System.nanoTime());
        String session = headers.get(Protocol.SESSION_HEADER);
        if (session == null || session.isBlank()) {
            session = "connection " + remote; // a client without sessions: each connection is one
        } else if (session.length() > Protocol.MAX_SESSION_CHARS) {
            session = session.substring(0, Protocol.MAX_SESSION_CHARS);
        }
        if (call.getMethodDescriptor().getFullMethodName().equals(Protocol.END.getFullMethodName())) {
            sessions.end(session);
            return next.startCall(call, headers);
        }
        Sessions.Busy busy = sessions.admit(session, remote, System.nanoTime(), System.currentTimeMillis());
        if (busy != null) {
            Metadata trailers = new Metadata();
            trailers.put(Protocol.REFUSAL, Protocol.REFUSAL_BUSY);
            trailers.put(Protocol.HOLDER, busy.holder());
            trailers.put(Protocol.HOLDER_SINCE, Long.toString(busy.sinceMillis()));
            if (busy.goneMillis() >= 0) {
                trailers.put(Protocol.HOLDER_GONE, Long.toString(busy.goneMillis()));
            }
            trailers.put(Protocol.HOLDER_GRACE, Long.toString(busy.graceMillis()));
            close(
                    call,
                    Status.FAILED_PRECONDITION.withDescription("this worker is serving another coordinator ("
                            + busy.holder() + ", since " + Instant.ofEpochMilli(busy.sinceMillis()) + ")"),
                    trailers);
            return new ServerCall.Listener<>() {};
        }
        return next.startCall(call, headers);
    }

    private static void close(ServerCall<?, ?> call, Status status, Metadata trailers) {
        try {
            call.close(status, trailers);
        } catch (RuntimeException e) {
            log.debug("could not close a refused call", e); // already cancelled
        }
    }

    static byte[] sha256(byte[] bytes) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(bytes);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JDK", e);
        }
    }

    /**
     * The listener of a call whose secret is checked later: records what gRPC reports meanwhile (a cancel, mostly)
     * and hands it to the real listener once there is one.
     */
    static final class Deferred<Q> extends ServerCall.Listener<Q> {
        private ServerCall.Listener<Q> delegate; // guarded by this
        private final List<Consumer<ServerCall.Listener<Q>>> pending = new ArrayList<>(); // guarded by this
        private boolean cancelled; // guarded by this

        synchronized boolean cancelled() {
            return cancelled;
        }

        synchronized void start(ServerCall.Listener<Q> listener) {
            delegate = listener;
            for (Consumer<ServerCall.Listener<Q>> event : pending) {
                event.accept(listener);
            }
            pending.clear();
        }

        private synchronized void deliver(Consumer<ServerCall.Listener<Q>> event) {
            if (delegate != null) {
                event.accept(delegate);
            } else {
                pending.add(event);
            }
        }

        @Override
        public void onMessage(Q message) {
            deliver(l -> l.onMessage(message));
        }

        @Override
        public void onHalfClose() {
            deliver(ServerCall.Listener::onHalfClose);
        }

        @Override
        public void onCancel() {
            synchronized (this) {
                cancelled = true;
            }
            deliver(ServerCall.Listener::onCancel);
        }

        @Override
        public void onComplete() {
            deliver(ServerCall.Listener::onComplete);
        }

        @Override
        public void onReady() {
            deliver(ServerCall.Listener::onReady);
        }
    }
}
