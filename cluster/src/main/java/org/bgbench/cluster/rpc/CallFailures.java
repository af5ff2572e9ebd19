package org.bgbench.cluster.rpc;

import io.grpc.Metadata;
import io.grpc.Status;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.PortUnreachableException;
import java.net.UnknownHostException;
import java.nio.channels.UnresolvedAddressException;
import java.security.cert.CertificateException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import javax.net.ssl.SSLException;
import org.bgbench.cluster.rpc.WorkerException.Kind;
import org.bgbench.cluster.security.TlsClient;

/**
 * What went wrong with a call to one worker, as the {@link WorkerException} that names it: gRPC's status, the
 * transport's failure (refused connection, unknown host, keepalive, TLS handshake or a TLS/plaintext mismatch) and
 * the worker's own refusals (the secret, another coordinator's session) turned into one {@link Kind} and one line.
 */
final class CallFailures {
    private final String address;
    /** How the client trusts the worker, or null for plaintext. */
    private final TlsClient tls;

    CallFailures(String address, TlsClient tls) {
        this.address = address;
        this.tls = tls;
    }

    /**
     * @param answered whether anything came back from the worker
     * @param reached whether the call got onto an established HTTP/2 connection to it
     */
    WorkerException failure(String op, Throwable t, boolean answered, boolean reached, Duration timeout) {
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
        if (status.getCode() == Status.Code.FAILED_PRECONDITION
                && trailers != null
                && Protocol.REFUSAL_BUSY.equals(trailers.get(Protocol.REFUSAL))) {
            return busy(trailers, t);
        }
        if (status.getCode() == Status.Code.UNIMPLEMENTED || detail.startsWith("HTTP status code")) {
            // Something answered there, but not a BG worker (another gRPC server, an HTTP server, a proxy).
            return new WorkerException(
                    Kind.UNREACHABLE,
                    address,
                    "worker " + address + " is unreachable: what" + " answers there is not a BG worker (" + detail
                            + "); is that the worker's port?",
                    t);
        }
        return switch (status.getCode()) {
            case UNAUTHENTICATED ->
                new WorkerException(
                        Kind.REFUSED_SECRET,
                        address,
                        "worker " + address
                                + " refused the secret (the coordinator and its workers must be given the same secret)"
                                + (detail.startsWith("too many") ? ": " + detail : ""),
                        t);
            case DEADLINE_EXCEEDED -> timedOut(op, timeout, t);
            case UNAVAILABLE -> {
                if (!answered && isConnectFailure(status)) {
                    yield new WorkerException(
                            Kind.UNREACHABLE,
                            address,
                            "worker " + address + " is unreachable (" + connectProblem(status)
                                    + "): is a worker running there, listening on that address?",
                            t);
                }
                if (detail.toLowerCase(Locale.ROOT).contains("keepalive")) {
                    yield new WorkerException(
                            Kind.HUNG,
                            address,
                            "worker " + address + " stopped answering"
                                    + " keepalive pings during '" + op
                                    + "': the worker process is frozen or the network to"
                                    + " it is cut",
                            t);
                }
                yield new WorkerException(
                        Kind.DIED,
                        address,
                        "worker " + address + " went away during '" + op
                                + "': the connection broke (the worker process died or shut down, or the network failed;"
                                + " gRPC says: " + detail + ")",
                        t);
            }
            case INVALID_ARGUMENT ->
                new WorkerException(
                        Kind.FAILED, address, "worker " + address + " rejected '" + op + "': " + detail, t, true);
            default ->
                new WorkerException(Kind.FAILED, address, "worker " + address + " failed '" + op + "': " + detail, t);
        };
    }

    /** "worker 10.0.0.2:7420 is serving another coordinator (10.0.0.9, since 12:03:14); stop it or wait". */
    private WorkerException busy(Metadata trailers, Throwable t) {
        String holder = trailers.get(Protocol.HOLDER);
        String since = "";
        try {
            LocalDateTime at = LocalDateTime.ofInstant(
                    Instant.ofEpochMilli(Long.parseLong(trailers.get(Protocol.HOLDER_SINCE))), ZoneId.systemDefault());
            // an explicit pattern: LocalTime.toString drops the seconds when they are zero
            since = ", since "
                    + at.format(DateTimeFormatter.ofPattern(
                            at.toLocalDate().equals(LocalDate.now()) ? "HH:mm:ss" : "yyyy-MM-dd HH:mm:ss"));
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
        return new WorkerException(
                Kind.BUSY,
                address,
                "worker " + address + " is serving another coordinator (" + (holder == null ? "unknown" : holder)
                        + since + gone + "); stop it or wait",
                t);
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
                return new WorkerException(
                        Kind.TLS,
                        address,
                        "worker " + address + " closed the connection before"
                                + " the HTTP/2 handshake: it probably expects TLS (give the coordinator --tls with --tls-pin or"
                                + " --tls-ca), or what listens there is not a BG worker; gRPC says: " + detail,
                        t);
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
                            ? "its certificate does not name " + address.substring(0, address.lastIndexOf(':')) + " ("
                                    + m + "); connect by a name it carries, or pin it with --tls-pin"
                            : m;
        } else {
            String m = rootMessage(ssl);
            why = m.toLowerCase(Locale.ROOT).contains("unrecognized ssl message")
                            || m.toLowerCase(Locale.ROOT).contains("not an ssl/tls record")
                    ? "it does not speak TLS (a worker started without --tls?)"
                    : m;
        }
        return new WorkerException(
                Kind.TLS, address, "worker " + address + " failed the TLS handshake: " + why + "; nothing was sent", t);
    }

    private static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t.getMessage() == null ? t.toString() : t.getMessage();
    }

    WorkerException timedOut(String op, Duration timeout, Throwable cause) {
        return new WorkerException(
                Kind.TIMEOUT,
                address,
                "worker " + address + " did not finish '" + op + "' within " + Protocol.describe(timeout),
                cause);
    }

    WorkerException interrupted(String op, Throwable cause) {
        return new WorkerException(
                Kind.INTERRUPTED,
                address,
                "the call of '" + op + "' on worker " + address + " was interrupted and cancelled",
                cause);
    }

    private static boolean isConnectFailure(Status status) {
        for (Throwable t = status.getCause(); t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof ConnectException
                    || t instanceof UnknownHostException
                    || t instanceof NoRouteToHostException
                    || t instanceof PortUnreachableException
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
                return "no answer within " + WorkerClient.CONNECT_TIMEOUT_MILLIS / 1000 + " s";
            }
            return root.getMessage();
        }
        return status.getDescription() == null ? "connection failed" : status.getDescription();
    }
}
