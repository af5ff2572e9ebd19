package org.bgbench.deck;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import org.bgbench.deck.forms.Forms;
import org.bgbench.deck.jobs.Job;
import org.bgbench.deck.jobs.JobInputs;
import org.bgbench.deck.jobs.JobRequest;
import org.bgbench.deck.jobs.Jobs;
import org.bgbench.deck.live.LiveFeed;
import org.bgbench.deck.results.Results;
import org.bgbench.runner.guard.Throttle;
import org.bgbench.store.StoreRegistry;

/**
 * BG's visualization deck (dissertation appendix B): a local web server with the set-up forms, the live view and the
 * results browser. It binds to 127.0.0.1 unless told otherwise, and on every address each request must carry the
 * token and name the deck's own address ({@link Gate}), since it can start runs against databases. Built on the JDK's
 * own HTTP server: the deck serves a handful of JSON endpoints and one event stream, which needs no framework.
 */
public final class Deck implements AutoCloseable {
    /** uPlot's WebJar, served under {@code /uplot/}. */
    static final String UPLOT = "META-INF/resources/webjars/uplot/1.6.30/dist/";

    private static final String WEB = "org/bgbench/deck/web/";
    private final HttpServer server;
    private final String token;
    private final Gate gate;
    private final JobInputs inputs;
    private final Jobs jobs;
    private final Results results;
    private final LiveFeed live;
    private final StoreRegistry stores;

    /**
     * What the deck needs.
     *
     * @param bind    address and port (port 0: any free one)
     * @param token   required on every request; null: the deck generates one (see {@link #uri()})
     * @param runs    the results directory (the commands' default {@code runs/})
     * @param workDir where started commands run
     * @param bg      how to start BG: the command and arguments before the subcommand
     */
    public record Config(InetSocketAddress bind, String token, Path runs, Path workDir, List<String> bg) {
        public Config {
            if (token != null) {
                DeckToken.check(token);
            }
        }
    }

    /**
     * What the deck accepts beyond its defaults.
     *
     * @param hosts    names a request's {@code Host} may give besides the addresses the deck listens on
     * @param external whether jobs may name code or files from elsewhere ({@link JobInputs})
     */
    public record Allow(List<String> hosts, boolean external) {
        /** Only the deck's own addresses, no code or files from elsewhere. */
        public static final Allow NONE = new Allow(List.of(), false);

        public Allow {
            hosts = List.copyOf(hosts);
        }
    }

    private Deck(Config c, Allow allow, StoreRegistry stores, Throttle throttle) throws IOException {
        this.token = c.token() == null ? DeckToken.generate() : c.token();
        this.gate = new Gate(c.bind().getAddress(), token, Set.copyOf(allow.hosts()), throttle);
        this.stores = stores;
        this.results = new Results(c.runs());
        this.inputs = new JobInputs(stores, c.workDir(), results.root(), allow.external());
        this.jobs = new Jobs(c.bg(), c.workDir(), results.root());
        this.live = new LiveFeed(
                results.root(), () -> jobs.all().stream().map(Jobs::summary).toList());
        this.server = HttpServer.create(c.bind(), 64);
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        server.createContext("/", this::handle);
        server.start();
    }

    /** A deck that accepts only its own addresses and refuses code and files from elsewhere. */
    public static Deck start(Config c, StoreRegistry stores) throws IOException {
        return start(c, Allow.NONE, stores);
    }

    public static Deck start(Config c, Allow allow, StoreRegistry stores) throws IOException {
        return new Deck(
                c, allow, stores, new Throttle(Throttle.BASE, Throttle.MAX, Throttle.MAX_SOURCES, "token", line -> {}));
    }

    /** A deck whose backoff after a wrong token is {@code backoff}, for tests that must not depend on timing. */
    static Deck start(Config c, Allow allow, StoreRegistry stores, Duration backoff) throws IOException {
        return new Deck(c, allow, stores, new Throttle(backoff, backoff, Throttle.MAX_SOURCES, "token", line -> {}));
    }

    /** The address to open, with the token (printed once by {@code bg deck}). */
    public URI uri() {
        InetSocketAddress a = server.getAddress();
        String host = a.getAddress().isAnyLocalAddress()
                ? "127.0.0.1"
                : a.getAddress().getHostAddress();
        if (host.contains(":")) {
            host = "[" + host + "]";
        }
        return URI.create(
                "http://" + host + ":" + a.getPort() + "/?token=" + URLEncoder.encode(token, StandardCharsets.UTF_8));
    }

    /** The token every request must carry. */
    public String token() {
        return token;
    }

    public int port() {
        return server.getAddress().getPort();
    }

    private void handle(HttpExchange ex) throws IOException {
        try (ex) {
            // No other site may frame the page, read a download's type differently or learn the address from a link.
            ex.getResponseHeaders().set("X-Frame-Options", "DENY");
            ex.getResponseHeaders().set("Content-Security-Policy", "frame-ancestors 'none'");
            ex.getResponseHeaders().set("X-Content-Type-Options", "nosniff");
            ex.getResponseHeaders().set("Referrer-Policy", "no-referrer");
            Gate.Refusal refused = gate.check(ex);
            if (refused != null) {
                Http.error(ex, refused.status(), refused.message());
                return;
            }
            String path = ex.getRequestURI().getPath();
            String method = ex.getRequestMethod();
            if (!method.equals("GET") && !method.equals("POST")) {
                Http.error(ex, 405, "GET or POST");
                return;
            }
            if (method.equals("GET")
                    && (path.equals("/") || path.equals("/index.html"))
                    && Http.query(ex).containsKey("token")) {
                // the cookie is set: the token leaves the address bar and the browser's history
                ex.getResponseHeaders().set("Location", "/");
                Http.send(ex, 303, "text/plain; charset=utf-8", new byte[0]);
                return;
            }
            try {
                route(ex, method, path);
            } catch (IllegalArgumentException e) {
                Http.error(ex, 400, e.getMessage());
            } catch (JsonProcessingException e) {
                Http.error(ex, 400, "the request is not the JSON the deck expects: " + e.getOriginalMessage());
            } catch (RuntimeException e) {
                Http.error(ex, 500, "the deck failed: " + e);
            }
        }
    }

    private void route(HttpExchange ex, String method, String path) throws IOException {
        switch (path) {
            case "/", "/index.html" -> resource(ex, WEB + "index.html", "text/html; charset=utf-8");
            case "/deck.js" -> resource(ex, WEB + "deck.js", "text/javascript; charset=utf-8");
            case "/deck.css" -> resource(ex, WEB + "deck.css", "text/css; charset=utf-8");
            case "/uplot/uPlot.iife.min.js" -> resource(ex, UPLOT + "uPlot.iife.min.js", "text/javascript");
            case "/uplot/uPlot.min.css" -> resource(ex, UPLOT + "uPlot.min.css", "text/css");
            case "/api/forms" -> Http.json(ex, 200, Forms.describe(stores));
            case "/api/mix" -> {
                Map<String, Double> mix = new LinkedHashMap<>();
                Http.body(ex, Map.class)
                        .forEach((k, v) -> mix.put(
                                String.valueOf(k),
                                v instanceof Number n
                                        ? n.doubleValue()
                                        : v == null || String.valueOf(v).isBlank() ? null : parse(k, v)));
                Http.json(ex, 200, Forms.checkMix(mix));
            }
            case "/api/jobs" -> {
                if (method.equals("POST")) {
                    JobRequest request = Http.body(ex, JobRequest.class);
                    try {
                        inputs.check(request);
                    } catch (IllegalArgumentException e) {
                        // one line naming the setting or option the deck does not pass on, marked on the form
                        String field = e.getMessage()
                                .substring(0, Math.max(0, e.getMessage().indexOf(": ")));
                        Http.json(ex, 400, Map.of("error", e.getMessage(), "field", field));
                        return;
                    }
                    Job j = jobs.start(request);
                    Http.json(ex, 200, Jobs.summary(j));
                } else {
                    Http.json(ex, 200, jobs.all().stream().map(Jobs::summary).toList());
                }
            }
            case "/api/jobs/stop" -> {
                Job j = jobs.get(Integer.parseInt(Http.query(ex).getOrDefault("id", "-1")));
                if (j == null) {
                    Http.error(ex, 404, "id: no such job");
                } else {
                    j.stop();
                    Http.json(ex, 200, Jobs.summary(j));
                }
            }
            case "/api/runs" -> Http.json(ex, 200, results.list());
            case "/api/result" -> Http.json(ex, 200, results.open(Http.query(ex).get("path")));
            case "/api/csv" -> {
                String p = Http.query(ex).get("path");
                String csv = results.csv(p); // refuses a missing path or one outside the runs directory
                ex.getResponseHeaders()
                        .set(
                                "Content-Disposition",
                                "attachment; filename=\""
                                        + Results.sibling(Path.of(p).getFileName(), ".csv")
                                                .getFileName() + "\"");
                Http.text(ex, 200, "text/csv; charset=utf-8", csv);
            }
            case "/api/live" -> {
                ex.getResponseHeaders().set("Content-Type", "text/event-stream; charset=utf-8");
                ex.getResponseHeaders().set("Cache-Control", "no-store");
                ex.sendResponseHeaders(200, 0);
                try (OutputStream out = ex.getResponseBody()) {
                    live.serve(out);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            default -> {
                if (path.startsWith("/files/")) {
                    file(ex, path.substring("/files/".length()));
                } else {
                    Http.error(ex, 404, "no such page: " + path);
                }
            }
        }
    }

    private static Double parse(Object key, Object value) {
        try {
            return Double.parseDouble(String.valueOf(value));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + ": a percentage, got '" + value + "'");
        }
    }

    /**
     * A file of the runs directory, as a download (JSON, CSV, HdrHistogram logs); {@code relative} is decoded already
     * (the request's path), so a '+' or '%' in a name is itself.
     */
    private void file(HttpExchange ex, String relative) throws IOException {
        Path p = results.resolve(relative);
        if (!Files.isRegularFile(p)) {
            Http.error(ex, 404, "no such file: " + relative);
            return;
        }
        String name = p.getFileName().toString();
        String type = name.endsWith(".json") ? "application/json" : "text/plain; charset=utf-8";
        ex.getResponseHeaders().set("Content-Disposition", "attachment; filename=\"" + name + "\"");
        ex.getResponseHeaders().set("Content-Type", type);
        ex.sendResponseHeaders(200, Files.size(p) == 0 ? -1 : Files.size(p));
        try (OutputStream out = ex.getResponseBody()) {
            Files.copy(p, out);
        }
    }

    private static void resource(HttpExchange ex, String name, String type) throws IOException {
        try (InputStream in = Deck.class.getClassLoader().getResourceAsStream(name)) {
            if (in == null) {
                Http.error(ex, 404, "missing resource " + name);
                return;
            }
            Http.send(ex, 200, type, in.readAllBytes());
        }
    }

    @Override
    public void close() {
        live.close();
        server.stop(0);
    }

    public Jobs jobs() {
        return jobs;
    }

    public LiveFeed live() {
        return live;
    }
}
