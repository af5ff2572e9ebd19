package org.bgbench.metrics;

import io.prometheus.metrics.exporter.httpserver.HTTPServer;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import org.bgbench.model.InvalidParameterException;
import org.bgbench.runner.observe.Observers;

/**
 * The HTTP endpoint of {@code --metrics HOST:PORT}: serves {@link BgMetrics} at {@code /metrics} in the Prometheus
 * text format, or OpenMetrics when the scraper asks for it, and follows every experiment of this process until
 * closed. The data is read-only; any address may be bound.
 */
public final class MetricsEndpoint implements AutoCloseable {
    /** What {@code --metrics} accepts, for error messages. */
    public static final String ACCEPTED =
            "expected HOST:PORT, e.g. 127.0.0.1:9464 or [::1]:9464 (port 0 picks a free" + " one)";

    private final HTTPServer server;
    private final Observers.Registration registration;
    private final BgMetrics metrics;
    private final String host;

    private MetricsEndpoint(HTTPServer server, Observers.Registration registration, BgMetrics metrics, String host) {
        this.server = server;
        this.registration = registration;
        this.metrics = metrics;
        this.host = host;
    }

    /**
     * {@code HOST:PORT} as an address to bind; bad input (no port, a port outside 0..65535, an unknown host) is an
     * {@link InvalidParameterException} naming {@code option}.
     */
    public static InetSocketAddress parse(String option, String value) {
        String v = value == null ? "" : value.trim();
        int colon = v.lastIndexOf(':');
        if (colon <= 0 || colon == v.length() - 1) {
            throw new InvalidParameterException(option, ACCEPTED + ", got '" + value + "'");
        }
        String host = v.substring(0, colon);
        if (host.startsWith("[") != host.endsWith("]") || (!host.startsWith("[") && host.contains(":"))) {
            throw new InvalidParameterException(
                    option, ACCEPTED + " (an IPv6 address goes in brackets), got '" + value + "'");
        }
        host = host.replaceAll("^\\[|]$", "");
        int port;
        try {
            port = Integer.parseInt(v.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw new InvalidParameterException(option, "the port must be a number 0..65535, got '" + value + "'");
        }
        if (port < 0 || port > 65535) {
            throw new InvalidParameterException(option, "the port must be 0..65535 (0 picks a free one), got " + port);
        }
        try {
            return new InetSocketAddress(InetAddress.getByName(host), port);
        } catch (UnknownHostException e) {
            throw new InvalidParameterException(option, "unknown host '" + host + "' (" + ACCEPTED + ")");
        }
    }

    /**
     * Starts serving at {@code address} (from {@link #parse}) and registers the observer, every metric labelled
     * {@code worker=worker}. An address that cannot be bound is an {@link InvalidParameterException} naming
     * {@code option}.
     */
    public static MetricsEndpoint start(String option, InetSocketAddress address, String worker) {
        PrometheusRegistry registry = new PrometheusRegistry();
        BgMetrics metrics = new BgMetrics(worker, registry);
        HTTPServer server;
        try {
            server = HTTPServer.builder()
                    .inetAddress(address.getAddress())
                    .port(address.getPort())
                    .registry(registry)
                    .buildAndStart();
        } catch (IOException | RuntimeException e) {
            throw new InvalidParameterException(
                    option,
                    "cannot listen on " + format(address.getAddress(), address.getPort()) + ": "
                            + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()) + " (" + ACCEPTED
                            + ")");
        }
        return new MetricsEndpoint(
                server,
                Observers.register(metrics),
                metrics,
                format(address.getAddress(), server.getPort()).replaceAll(":\\d+$", ""));
    }

    private static String format(InetAddress address, int port) {
        String h = address.getHostAddress();
        return (h.contains(":") ? "[" + h + "]" : h) + ":" + port;
    }

    /** The port served (the one picked when 0 was asked for). */
    public int port() {
        return server.getPort();
    }

    /** Where the metrics are, {@code http://HOST:PORT/metrics}. */
    public String url() {
        return "http://" + host + ":" + port() + "/metrics";
    }

    public BgMetrics metrics() {
        return metrics;
    }

    /** Stops following experiments and serving. */
    @Override
    public void close() {
        registration.close();
        server.close();
    }
}
