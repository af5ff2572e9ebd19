package org.bgbench.measurement.resource;

import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/**
 * Reads one store host's counters from its Prometheus node exporter ({@code http://HOST:PORT/metrics}; Debian's
 * {@code prometheus-node-exporter} listens on port 9100). Every request has a {@link #TIMEOUT}: a slow or unreachable
 * host fails the request, and the caller leaves a gap. Uses the JDK's HTTP client; thread-safe.
 */
public final class NodeExporterClient implements AutoCloseable {
    /** The node exporter's registered port. */
    public static final int DEFAULT_PORT = 9100;
    /** Longest wait for one answer (connecting included): half a sampling second. */
    public static final Duration TIMEOUT = Duration.ofMillis(500);

    private static final Set<String> WANTED = Set.of(
            "node_cpu_seconds_total",
            "node_memory_MemTotal_bytes",
            "node_memory_MemAvailable_bytes",
            "node_network_receive_bytes_total",
            "node_network_transmit_bytes_total",
            "node_disk_read_bytes_total",
            "node_disk_written_bytes_total",
            "node_disk_io_time_seconds_total");

    private final String address;
    private final URI uri;
    private final HttpClient http;

    /** A client of the node exporter at {@code address} ({@code HOST} or {@code HOST:PORT}, see {@link #address}). */
    public NodeExporterClient(String address) {
        this.address = address(address);
        this.uri = URI.create("http://" + this.address + "/metrics");
        this.http = HttpClient.newBuilder()
                .connectTimeout(TIMEOUT)
                .followRedirects(HttpClient.Redirect.NEVER)
                .build();
    }

    /** The address as {@code HOST:PORT}. */
    public String address() {
        return address;
    }

    /**
     * A node exporter's address in the form {@code HOST:PORT}: {@code HOST} alone gets port {@value #DEFAULT_PORT};
     * an IPv6 address goes in brackets ({@code [::1]:9100}).
     *
     * @throws IllegalArgumentException naming what is accepted, for an empty host or a port that is not 1..65535
     */
    public static String address(String text) {
        String t = text == null ? "" : text.strip();
        String host;
        String port;
        if (t.startsWith("[")) {
            int close = t.indexOf(']');
            if (close < 0) {
                throw bad(text, "an IPv6 address needs its closing ']'");
            }
            host = t.substring(0, close + 1);
            String rest = t.substring(close + 1);
            if (!rest.isEmpty() && !rest.startsWith(":")) {
                throw bad(text, "expected ':PORT' after ']'");
            }
            port = rest.isEmpty() ? null : rest.substring(1);
            if (host.length() <= 2) {
                throw bad(text, "the host is empty");
            }
        } else {
            int colon = t.lastIndexOf(':');
            if (colon >= 0 && t.indexOf(':') != colon) {
                throw bad(text, "put an IPv6 address in brackets, as [::1]:9100");
            }
            host = colon < 0 ? t : t.substring(0, colon);
            port = colon < 0 ? null : t.substring(colon + 1);
            if (host.isEmpty()) {
                throw bad(text, "the host is empty");
            }
            if (!host.matches("[A-Za-z0-9._-]+")) {
                throw bad(text, "'" + host + "' is not a host name or address");
            }
        }
        int p = DEFAULT_PORT;
        if (port != null) {
            try {
                p = Integer.parseInt(port);
            } catch (NumberFormatException e) {
                p = -1;
            }
            if (p < 1 || p > 65535) {
                throw bad(text, "the port must be a number 1..65535, got '" + port + "'");
            }
        }
        return host + ":" + p;
    }

    private static IllegalArgumentException bad(String text, String why) {
        return new IllegalArgumentException(
                "expected HOST or HOST:PORT (port 1..65535, default " + DEFAULT_PORT + "), got '" + text + "': " + why);
    }

    /** Asks for the counters now; completes with them, or exceptionally after at most {@link #TIMEOUT}. */
    public CompletableFuture<NodeReading> fetch() {
        HttpRequest request = HttpRequest.newBuilder(uri).timeout(TIMEOUT).GET().build();
        return http.sendAsync(request, HttpResponse.BodyHandlers.ofString()).thenApply(response -> {
            long arrived = System.nanoTime();
            if (response.statusCode() != 200) {
                throw new IllegalStateException(uri + " answered HTTP " + response.statusCode());
            }
            return reading(address, arrived, ExpositionParser.parse(response.body(), WANTED::contains));
        });
    }

    /** {@link #fetch()} and wait for it (at most about {@link #TIMEOUT}). */
    public NodeReading fetchNow() throws IOException {
        try {
            return fetch().get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while reading " + uri, e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            throw new IOException("cannot read " + uri + ": " + describe(cause), cause);
        }
    }

    /** A failure in a few words (the JDK's timeouts and refusals often carry no message). */
    public static String describe(Throwable t) {
        while (t instanceof CompletionException && t.getCause() != null) {
            t = t.getCause();
        }
        if (t instanceof HttpTimeoutException) {
            return "no answer within " + TIMEOUT.toMillis() + " ms";
        }
        if (t instanceof ConnectException) {
            return "connection refused or unreachable";
        }
        return t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
    }

    /**
     * The node's counters from a node exporter's samples: CPU from node_cpu_seconds_total (busy: every mode but idle
     * and iowait; CPUs: distinct {@code cpu} labels), memory from MemTotal and MemAvailable, the network summed over
     * all devices but lo (lo apart), the disks summed over whole disks ({@link NodeReading#wholeDisk}).
     */
    static NodeReading reading(String name, long nanoTime, List<ExpositionParser.Sample> samples) {
        Set<String> cpus = new HashSet<>();
        double busy = 0;
        double total = 0;
        double memTotal = -1;
        double memAvailable = -1;
        double rx = -1;
        double tx = -1;
        double lo = -1;
        double read = -1;
        double written = -1;
        Map<String, Double> io = new HashMap<>();
        for (ExpositionParser.Sample s : samples) {
            double v = s.value();
            switch (s.name()) {
                case "node_cpu_seconds_total" -> {
                    String mode = s.label("mode");
                    cpus.add(String.valueOf(s.label("cpu")));
                    total += v;
                    if (!"idle".equals(mode) && !"iowait".equals(mode)) {
                        busy += v;
                    }
                }
                case "node_memory_MemTotal_bytes" -> memTotal = v;
                case "node_memory_MemAvailable_bytes" -> memAvailable = v;
                case "node_network_receive_bytes_total" -> {
                    if ("lo".equals(s.label("device"))) {
                        lo = Math.max(lo, 0) + v;
                    } else {
                        rx = Math.max(rx, 0) + v;
                    }
                }
                case "node_network_transmit_bytes_total" -> {
                    if (!"lo".equals(s.label("device"))) {
                        tx = Math.max(tx, 0) + v;
                    }
                }
                case "node_disk_read_bytes_total" -> {
                    if (NodeReading.wholeDisk(String.valueOf(s.label("device")))) {
                        read = Math.max(read, 0) + v;
                    }
                }
                case "node_disk_written_bytes_total" -> {
                    if (NodeReading.wholeDisk(String.valueOf(s.label("device")))) {
                        written = Math.max(written, 0) + v;
                    }
                }
                case "node_disk_io_time_seconds_total" -> {
                    String device = String.valueOf(s.label("device"));
                    if (NodeReading.wholeDisk(device)) {
                        io.put(device, v);
                    }
                }
                default -> {}
            }
        }
        return NodeReading.builder()
                .name(name)
                .role(NodeReading.STORE)
                .nanoTime(nanoTime)
                .cpus(cpus.size())
                .cpuBusySeconds(cpus.isEmpty() ? -1 : busy)
                .cpuTotalSeconds(cpus.isEmpty() ? -1 : total)
                .memTotalBytes(memTotal)
                .memUsedBytes(memTotal >= 0 && memAvailable >= 0 ? memTotal - memAvailable : -1)
                .netRxBytes(rx)
                .netTxBytes(tx)
                .loRxBytes(lo)
                .diskReadBytes(read)
                .diskWriteBytes(written)
                .diskIoSeconds(io)
                .build();
    }

    /** Drops any request still out without waiting for it. */
    @Override
    public void close() {
        http.shutdownNow();
    }
}
