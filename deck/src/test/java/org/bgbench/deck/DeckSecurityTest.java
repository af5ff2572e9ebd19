package org.bgbench.deck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.bgbench.deck.jobs.Job;
import org.bgbench.store.StoreRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The deck against a hostile browser and a hostile page: a DNS-rebinding page's Host, no token, wrong tokens, jobs
 * naming code or files from elsewhere, secrets in the job list, links out of the runs directory and files that are
 * not JSON. A real deck on loopback and a real HTTP client (java.net.http, allowed to set Host by the module's pom).
 */
@Tag("server")
class DeckSecurityTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    Path runs;
    Deck deck;
    HttpClient http;

    @BeforeEach
    void start() throws Exception {
        runs = Files.createDirectories(dir.resolve("runs"));
        // a null token: the deck makes one; "true" stands in for bg, so a job that is started ends at once
        deck = Deck.start(
                new Deck.Config(new InetSocketAddress("127.0.0.1", 0), null, runs, dir, List.of("true")),
                StoreRegistry.discover());
        http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    }

    @AfterEach
    void stop() {
        http.shutdownNow();
        deck.close();
    }

    private URI at(Deck d, String path) {
        return URI.create("http://127.0.0.1:" + d.port() + path);
    }

    private HttpResponse<String> send(HttpRequest.Builder b) throws Exception {
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> get(String path) throws Exception {
        return send(HttpRequest.newBuilder(at(deck, path)).header("Authorization", "Bearer " + deck.token()));
    }

    private HttpResponse<String> job(Deck d, Map<String, Object> request) throws Exception {
        return send(HttpRequest.newBuilder(at(d, "/api/jobs"))
                .header("Authorization", "Bearer " + d.token())
                .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(request))));
    }

    private static String error(HttpResponse<String> r) throws Exception {
        return JSON.readTree(r.body()).path("error").asText();
    }

    @Test
    void aPageOfAnotherHostCannotDriveTheDeckEvenWithItsOrigin() throws Exception {
        String rebound = "attacker.example:" + deck.port();
        HttpResponse<String> list = send(HttpRequest.newBuilder(at(deck, "/api/jobs"))
                .header("Host", rebound)
                .header("Origin", "http://" + rebound)
                .header("Authorization", "Bearer " + deck.token()));
        assertThat(list.statusCode()).isEqualTo(403);
        assertThat(error(list)).startsWith("Host: 'attacker.example:").contains("--allow-host");
        HttpResponse<String> started = send(HttpRequest.newBuilder(at(deck, "/api/jobs"))
                .header("Host", rebound)
                .header("Origin", "http://" + rebound)
                .header("Authorization", "Bearer " + deck.token())
                .POST(HttpRequest.BodyPublishers.ofString("{\"command\":\"load\",\"store\":\"memory\"}")));
        assertThat(started.statusCode()).isEqualTo(403);
        assertThat(deck.jobs().all()).isEmpty();

        // the deck's own addresses, and a name given to it, are served
        for (String host : List.of("127.0.0.1:" + deck.port(), "localhost:" + deck.port(), "127.0.0.1:9000")) {
            assertThat(send(HttpRequest.newBuilder(at(deck, "/api/runs"))
                                    .header("Host", host)
                                    .header("Authorization", "Bearer " + deck.token()))
                            .statusCode())
                    .as(host)
                    .isEqualTo(200);
        }
        for (String host : List.of(
                "127.0.0.2:" + deck.port(),
                "bench.example:" + deck.port(),
                "localhost.:1",
                "127.0.0.1:x",
                "[::1]:" + deck.port())) {
            assertThat(send(HttpRequest.newBuilder(at(deck, "/api/runs"))
                                    .header("Host", host)
                                    .header("Authorization", "Bearer " + deck.token()))
                            .statusCode())
                    .as(host)
                    .isEqualTo(403);
        }
        try (Deck named = Deck.start(
                new Deck.Config(new InetSocketAddress("127.0.0.1", 0), null, runs, dir, List.of("true")),
                new Deck.Allow(List.of("Bench.Example"), false),
                StoreRegistry.discover())) {
            assertThat(send(HttpRequest.newBuilder(at(named, "/api/runs"))
                                    .header("Host", "bench.example:80")
                                    .header("Authorization", "Bearer " + named.token()))
                            .statusCode())
                    .isEqualTo(200);
            assertThat(send(HttpRequest.newBuilder(at(named, "/api/runs"))
                                    .header("Host", "other.example")
                                    .header("Authorization", "Bearer " + named.token()))
                            .statusCode())
                    .isEqualTo(403);
        }
    }

    @Test
    void aLoopbackDeckNeedsATokenItPrintsOnceAndRefusesShortOnes() throws Exception {
        assertThat(deck.token()).hasSizeGreaterThanOrEqualTo(DeckToken.MIN_LENGTH);
        assertThat(deck.uri().toString()).isEqualTo("http://127.0.0.1:" + deck.port() + "/?token=" + deck.token());
        HttpResponse<String> none = send(HttpRequest.newBuilder(at(deck, "/api/runs")));
        assertThat(none.statusCode()).isEqualTo(401);
        assertThat(error(none)).contains("token");
        assertThat(send(HttpRequest.newBuilder(at(deck, "/api/jobs"))
                                .POST(HttpRequest.BodyPublishers.ofString(
                                        "{\"command\":\"load\",\"store\":\"memory\"}")))
                        .statusCode())
                .isEqualTo(401);
        assertThat(deck.jobs().all()).isEmpty();

        // the printed address sets the cookie and sends the browser on without the token in its address bar
        HttpResponse<String> page = send(HttpRequest.newBuilder(deck.uri()));
        assertThat(page.statusCode()).isEqualTo(303);
        assertThat(page.headers().firstValue("Location")).contains("/");
        String cookie = page.headers().firstValue("Set-Cookie").orElseThrow();
        assertThat(cookie)
                .contains("=" + deck.token() + ";")
                .contains("HttpOnly")
                .contains("SameSite=Strict");
        String pair = cookie.substring(0, cookie.indexOf(';'));
        assertThat(send(HttpRequest.newBuilder(at(deck, "/")).header("Cookie", pair))
                        .statusCode())
                .isEqualTo(200);
        // a POST with the cookie alone (a form another page submits) is refused; the page's header lets it through
        HttpRequest.Builder mix = HttpRequest.newBuilder(at(deck, "/api/mix"))
                .header("Cookie", pair)
                .POST(HttpRequest.BodyPublishers.ofString("{\"VP\":100}"));
        assertThat(send(mix).statusCode()).isEqualTo(403);
        assertThat(send(mix.header(Gate.HEADER, "1")).statusCode()).isEqualTo(200);

        for (String token : new String[] {"fifteen-chars-x", "", "sixteen characters"}) {
            assertThatThrownBy(() ->
                            new Deck.Config(new InetSocketAddress("127.0.0.1", 0), token, runs, dir, List.of("true")))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith("--token:");
        }
        assertThatThrownBy(() -> new Deck.Config(
                        new InetSocketAddress("127.0.0.1", 0), "fifteen-chars-x", runs, dir, List.of("true")))
                .hasMessageContaining("has 15 characters; at least 16 are needed");
    }

    @Test
    void wrongTokensFromAnAddressAreThrottledOthersAreNot() throws Exception {
        try (Deck slow = Deck.start(
                new Deck.Config(new InetSocketAddress("127.0.0.1", 0), null, runs, dir, List.of("true")),
                Deck.Allow.NONE,
                StoreRegistry.discover(),
                Duration.ofMinutes(10))) {
            HttpResponse<String> wrong = send(
                    HttpRequest.newBuilder(at(slow, "/api/runs")).header("Authorization", "Bearer " + "x".repeat(32)));
            assertThat(wrong.statusCode()).isEqualTo(401);
            assertThat(error(wrong)).startsWith("wrong token");
            // within the backoff the address's requests are not looked at, not even one with the right token
            HttpResponse<String> next = send(
                    HttpRequest.newBuilder(at(slow, "/api/runs")).header("Authorization", "Bearer " + slow.token()));
            assertThat(next.statusCode()).isEqualTo(429);
            assertThat(next.headers().firstValue("Retry-After")).contains("600");
            assertThat(error(next)).contains("127.0.0.1").contains("600 s");
            // another address is not held up
            assertThat(rawFrom("127.0.0.2", slow, "/api/runs", slow.token())).startsWith("HTTP/1.1 200");
        }
    }

    @Test
    void aJobNamingCodeOrFilesFromElsewhereIsRefusedInOneLine() throws Exception {
        Path outside = Files.createDirectories(dir.resolve("outside"));
        Files.createSymbolicLink(runs.resolve("link"), outside);
        Map<String, String> refused = new LinkedHashMap<>();
        refused.put("jdbc.driver-maven", "com.h2database:h2:2.2.224");
        refused.put("jdbc.maven-repo", "http://attacker.example/maven2");
        refused.put("jdbc.driver-jar", outside.resolve("evil.jar").toString());
        refused.put("jdbc.dialect", outside.resolve("dialect.properties").toString());
        refused.put("jdbc.url", "jdbc:postgresql://127.0.0.1/bg?socketFactory=org.example.Evil&socketFactoryArg=x");
        refused.put("sqlite.file", outside.resolve("bg.sqlite").toString());
        for (Map.Entry<String, String> e : refused.entrySet()) {
            String store = e.getKey().substring(0, e.getKey().indexOf('.'));
            HttpResponse<String> r =
                    job(deck, Map.of("command", "load", "store", store, "settings", Map.of(e.getKey(), e.getValue())));
            assertThat(r.statusCode()).as(e.getKey()).isEqualTo(400);
            assertThat(error(r))
                    .as(e.getKey())
                    .startsWith(e.getKey() + ": ")
                    .contains("--allow-external")
                    .doesNotContain("\n");
            assertThat(JSON.readTree(r.body()).path("field").asText()).isEqualTo(e.getKey());
        }
        for (String file : List.of("../outside/bg.sqlite", "link/bg.sqlite", "runs/link/bg.sqlite")) {
            HttpResponse<String> r =
                    job(deck, Map.of("command", "load", "store", "sqlite", "settings", Map.of("sqlite.file", file)));
            assertThat(r.statusCode()).as(file).isEqualTo(400);
            assertThat(error(r))
                    .as(file)
                    .startsWith("sqlite.file: '" + file + "' ")
                    .containsAnyOf("is outside the runs directory", "leads out of the runs directory");
        }
        HttpResponse<String> workload =
                job(deck, Map.of("command", "run", "store", "memory", "workload", "/etc/passwd"));
        assertThat(error(workload)).startsWith("--workload: '/etc/passwd' is outside the runs directory");
        HttpResponse<String> key = job(
                deck,
                Map.of("command", "load", "store", "memory", "graph", Map.of("usercount=1 -p jdbc.driver-jar", "x")));
        assertThat(error(key)).startsWith("graph: 'usercount=1 -p jdbc.driver-jar' is not a key");
        assertThat(deck.jobs().all()).isEmpty();

        // what stays under the runs directory, a built-in dialect and a named mix are passed on
        HttpResponse<String> inside = job(
                deck,
                Map.of(
                        "command",
                        "run",
                        "store",
                        "sqlite",
                        "workload",
                        "high",
                        "settings",
                        Map.of("sqlite.file", "runs/bg.sqlite")));
        assertThat(inside.statusCode()).as(inside.body()).isEqualTo(200);
        HttpResponse<String> jdbc = job(
                deck,
                Map.of(
                        "command",
                        "run",
                        "store",
                        "jdbc",
                        "workload",
                        "high",
                        "settings",
                        Map.of("jdbc.url", "jdbc:sqlite:runs/bg.sqlite", "jdbc.dialect", "sqlite")));
        assertThat(jdbc.statusCode()).as(jdbc.body()).isEqualTo(200);
        HttpResponse<String> unknown = job(
                deck, Map.of("command", "run", "store", "sqlite", "settings", Map.of("sqlite.fille", "runs/x.sqlite")));
        assertThat(error(unknown)).startsWith("sqlite.fille: the sqlite store declares no such setting");
        try (Deck open = Deck.start(
                new Deck.Config(new InetSocketAddress("127.0.0.1", 0), null, runs, dir, List.of("true")),
                new Deck.Allow(List.of(), true),
                StoreRegistry.discover())) {
            HttpResponse<String> allowed = job(
                    open,
                    Map.of(
                            "command",
                            "load",
                            "store",
                            "jdbc",
                            "settings",
                            Map.of("jdbc.driver-maven", "com.h2database:h2:2.2.224", "sqlite.file", "../outside/x")));
            assertThat(allowed.statusCode()).as(allowed.body()).isEqualTo(200);
            assertThat(JSON.readTree(allowed.body()).path("args").toString())
                    .contains("jdbc.driver-maven=com.h2database:h2:2.2.224");
        }
    }

    @Test
    void theJobListNeverShowsPasswordsSecretsOrTokens() throws Exception {
        // bash stands in for bg and prints its arguments, as a command echoing its input would
        try (Deck echo = Deck.start(
                new Deck.Config(
                        new InetSocketAddress("127.0.0.1", 0),
                        null,
                        runs,
                        dir,
                        List.of("bash", "-c", "echo \"$@\"", "bg")),
                StoreRegistry.discover())) {
            Map<String, String> settings = new LinkedHashMap<>();
            settings.put("postgres.password", "hunter2-pass");
            settings.put("postgres.read-urls", "jdbc:postgresql://bg:uri-pass-9@127.0.0.1:5433/bg");
            settings.put("postgres.url", "jdbc:postgresql://127.0.0.1/bg?user=bg&password=url-pass-7");
            HttpResponse<String> r = job(
                    echo,
                    Map.of(
                            "command",
                            "run",
                            "store",
                            "postgres",
                            "settings",
                            settings,
                            "options",
                            Map.of("--secret", "sixteen-secret-chars")));
            assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
            Job j = echo.jobs().get(JSON.readTree(r.body()).path("id").asInt());
            long deadline = System.nanoTime() + 20_000_000_000L;
            while (j.exitCode() == null && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertThat(String.join(" ", j.lines())).contains("hunter2-pass"); // the command got the real values
            String list = send(HttpRequest.newBuilder(at(echo, "/api/jobs"))
                            .header("Authorization", "Bearer " + echo.token()))
                    .body();
            for (String secret : List.of("hunter2-pass", "uri-pass-9", "url-pass-7", "sixteen-secret-chars")) {
                assertThat(list).doesNotContain(secret);
                assertThat(r.body()).doesNotContain(secret);
            }
            JsonNode args = JSON.readTree(list).get(0).path("args");
            assertThat(args.toString())
                    .contains("postgres.password=****")
                    .contains("postgresql://bg:****@127.0.0.1")
                    .contains("password=****")
                    .contains("--secret=****");
        }
    }

    @Test
    void aLinkOutOfTheRunsDirectoryIsNotFollowed() throws Exception {
        Path outside = Files.createDirectories(dir.resolve("outside"));
        Files.writeString(
                outside.resolve("run.json"),
                "{\"total\":{},\"series\":[{\"second\":1}]," + "\"store\":{\"name\":\"OUTSIDE-SECRET\"}}");
        Files.writeString(outside.resolve("rating.json"), "{\"store\":\"OUTSIDE-SECRET\"}");
        Files.createSymbolicLink(runs.resolve("out.json"), outside.resolve("run.json"));
        Files.createSymbolicLink(runs.resolve("rate-out"), outside);
        Files.createDirectories(runs.resolve("rate-in"));
        Files.createSymbolicLink(runs.resolve("rate-in/rating.json"), outside.resolve("rating.json"));
        for (String path : List.of(
                "/files/out.json",
                "/files/rate-out/run.json",
                "/api/result?path=out.json",
                "/api/csv?path=out.json",
                "/api/result?path=rate-out",
                "/api/result?path=rate-in",
                "/files/rate-in/rating.json")) {
            HttpResponse<String> r = get(path);
            assertThat(r.statusCode()).as(path).isIn(400, 404);
            assertThat(r.body()).as(path).doesNotContain("OUTSIDE-SECRET");
        }
        HttpResponse<String> list = get("/api/runs");
        assertThat(list.statusCode()).isEqualTo(200);
        assertThat(list.body())
                .doesNotContain("OUTSIDE-SECRET")
                .doesNotContain("out.json")
                .doesNotContain("rate-out");
    }

    @Test
    void aFileThatIsNotJsonIsRefusedWithoutItsContent() throws Exception {
        Files.writeString(runs.resolve("notes.json"), "PRIVATE-LINE of a file that is not JSON\n");
        Files.writeString(runs.resolve("key.txt"), "PRIVATE-KEY-TEXT");
        Files.createDirectories(runs.resolve("rate-x"));
        Files.writeString(runs.resolve("rate-x/rating.json"), "PRIVATE-RATING {");
        for (String path : List.of(
                "/api/result?path=notes.json",
                "/api/csv?path=notes.json",
                "/api/result?path=key.txt",
                "/api/csv?path=key.txt",
                "/api/result?path=rate-x")) {
            HttpResponse<String> r = get(path);
            assertThat(r.statusCode()).as(path).isEqualTo(400);
            assertThat(error(r)).as(path).startsWith("path: ").contains("is not a JSON file BG wrote");
            assertThat(r.body()).as(path).doesNotContain("PRIVATE");
        }
        HttpResponse<String> list = get("/api/runs");
        assertThat(list.statusCode()).isEqualTo(200);
        assertThat(list.body()).contains("rate-x").doesNotContain("PRIVATE");
    }

    /** A request from source address {@code from} (any 127.x reaches a loopback deck); the response as text. */
    private static String rawFrom(String from, Deck d, String path, String token) throws Exception {
        try (Socket s = new Socket(InetAddress.getByName("127.0.0.1"), d.port(), InetAddress.getByName(from), 0)) {
            s.setSoTimeout(20_000);
            OutputStream o = s.getOutputStream();
            o.write(("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1:" + d.port() + "\r\nAuthorization: Bearer " + token
                            + "\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            o.flush();
            return new String(s.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
