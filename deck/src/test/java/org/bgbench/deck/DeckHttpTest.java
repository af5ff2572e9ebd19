package org.bgbench.deck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.InputStream;
import java.io.OutputStream;
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
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.assertj.core.data.Offset;
import org.bgbench.deck.jobs.Job;
import org.bgbench.model.Kind;
import org.bgbench.store.StoreProvider;
import org.bgbench.store.StoreRegistry;
import org.bgbench.store.StoreSetting;
import org.bgbench.workload.mix.Mix;
import org.bgbench.workload.mix.Mixes;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The deck's HTTP surface without a browser: the token, the origin check, the forms, the mix check, bad requests. */
@Tag("server")
class DeckHttpTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String TOKEN = "s3cret-token-of-this-test";

    @TempDir
    Path dir;

    Path runs;
    Deck deck;
    HttpClient http;

    @BeforeEach
    void start() throws Exception {
        runs = Files.createDirectories(dir.resolve("runs"));
        Files.writeString(runs.resolve("inside.txt"), "inside the runs directory");
        Files.writeString(dir.resolve("secret.txt"), "OUTSIDE-SECRET");
        // no backoff after a wrong token: these tests send wrong tokens and then the right one (DeckSecurityTest
        // tests the backoff)
        deck = Deck.start(
                new Deck.Config(new InetSocketAddress("0.0.0.0", 0), TOKEN, runs, dir, List.of("true")),
                Deck.Allow.NONE,
                StoreRegistry.discover(),
                Duration.ofNanos(1));
        http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    }

    @AfterEach
    void stop() {
        http.shutdownNow();
        deck.close();
    }

    private String base() {
        return "http://127.0.0.1:" + deck.port();
    }

    private HttpResponse<String> get(String path, String... headers) throws Exception {
        HttpRequest.Builder b =
                HttpRequest.newBuilder(URI.create(base() + path)).GET();
        if (headers.length > 0) {
            b.headers(headers);
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> post(String path, String body, String... headers) throws Exception {
        HttpRequest.Builder b =
                HttpRequest.newBuilder(URI.create(base() + path)).POST(HttpRequest.BodyPublishers.ofString(body));
        if (!List.of(headers).contains("Authorization")) {
            b.header("Authorization", "Bearer " + TOKEN);
        }
        if (headers.length > 0) {
            b.headers(headers);
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void aDeckOnAnyAddressHasAToken() throws Exception {
        for (String token : new String[] {"", "  "}) {
            assertThatThrownBy(() ->
                            new Deck.Config(new InetSocketAddress("0.0.0.0", 0), token, runs, dir, List.of("true")))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith("--token:");
        }
        // none given: the deck makes one, on a loopback address too
        try (Deck d = Deck.start(
                new Deck.Config(new InetSocketAddress("127.0.0.1", 0), null, runs, dir, List.of("true")),
                StoreRegistry.discover())) {
            assertThat(d.token()).hasSizeGreaterThanOrEqualTo(DeckToken.MIN_LENGTH);
            assertThat(d.uri().getQuery()).isEqualTo("token=" + d.token());
        }
    }

    @Test
    void everyRequestNeedsTheToken() throws Exception {
        assertThat(deck.uri().toString()).isEqualTo(base() + "/?token=" + TOKEN);
        for (String path : List.of("/", "/api/forms", "/api/runs", "/files/inside.txt", "/nowhere")) {
            HttpResponse<String> r = get(path);
            assertThat(r.statusCode()).as(path).isEqualTo(401);
            assertThat(r.body()).doesNotContain("inside the runs directory");
        }
        HttpResponse<String> wrong = get("/api/runs?token=wrong");
        assertThat(wrong.statusCode()).isEqualTo(401);
        assertThat(wrong.headers().firstValue("Set-Cookie"))
                .as("no cookie for a wrong token")
                .isEmpty();
        assertThat(get("/api/runs", "Authorization", "Bearer wrong").statusCode())
                .isEqualTo(401);
        assertThat(get("/api/runs", "Cookie", "bg_deck_token=wrong").statusCode())
                .isEqualTo(401);
        assertThat(post("/api/mix", "{}", "Authorization", "Basic " + TOKEN).statusCode())
                .isEqualTo(401);

        HttpResponse<String> withQuery = get("/?token=" + TOKEN);
        assertThat(withQuery.statusCode()).isEqualTo(303); // on to the page, the token out of the address bar
        String cookie = withQuery.headers().firstValue("Set-Cookie").orElseThrow();
        assertThat(cookie).startsWith("bg_deck_").contains("=" + TOKEN + ";").contains("HttpOnly");
        assertThat(get("/", "Cookie", cookie.substring(0, cookie.indexOf(';'))).body())
                .containsIgnoringCase("<html");
        // the page's later requests carry the cookie only
        assertThat(get("/api/runs", "Cookie", cookie.substring(0, cookie.indexOf(';')))
                        .statusCode())
                .isEqualTo(200);
        assertThat(get("/api/runs", "Cookie", "other=1; " + cookie.substring(0, cookie.indexOf(';')))
                        .statusCode())
                .isEqualTo(200);
        assertThat(get("/api/runs", "Authorization", "Bearer " + TOKEN).statusCode())
                .isEqualTo(200);
        assertThat(get("/files/inside.txt", "Authorization", "Bearer " + TOKEN).body())
                .isEqualTo("inside the runs directory");
    }

    @Test
    void thePageAndWhatItLoadsAreServed() throws Exception {
        HttpResponse<String> page = get("/", "Authorization", "Bearer " + TOKEN);
        assertThat(page.statusCode()).isEqualTo(200);
        // every script and style sheet the page names is served with its type
        Matcher m = Pattern.compile("(?:src|href)=\"(/[^\"]+)\"").matcher(page.body());
        List<String> loaded = new ArrayList<>();
        while (m.find()) {
            loaded.add(m.group(1));
        }
        assertThat(loaded).contains("/deck.js", "/deck.css", "/uplot/uPlot.iife.min.js", "/uplot/uPlot.min.css");
        for (String path : loaded) {
            HttpResponse<String> r = get(path, "Authorization", "Bearer " + TOKEN);
            assertThat(r.statusCode()).as(path).isEqualTo(200);
            assertThat(r.body()).as(path).isNotBlank();
            assertThat(r.headers().firstValue("Content-Type").orElseThrow())
                    .as(path)
                    .startsWith(path.endsWith(".js") ? "text/javascript" : "text/css");
        }
    }

    @Test
    void aPostFromAnotherSiteIsRefused() throws Exception {
        String job = "{\"command\":\"load\",\"store\":\"memory\"}";
        HttpResponse<String> foreign = post("/api/jobs", job, "Origin", "http://evil.example");
        assertThat(foreign.statusCode()).isEqualTo(403);
        assertThat(JSON.readTree(foreign.body()).path("error").asText()).isNotBlank();
        assertThat(post("/api/jobs", job, "Origin", "http://127.0.0.1:" + (deck.port() + 1))
                        .statusCode())
                .isEqualTo(403);
        assertThat(deck.jobs().all()).isEmpty();

        HttpResponse<String> own = post("/api/jobs", job, "Origin", base());
        assertThat(own.statusCode()).as(own.body()).isEqualTo(200);
        JsonNode started = JSON.readTree(own.body());
        assertThat(started.path("command").asText()).isEqualTo("load");
        assertThat(started.path("args")).extracting(JsonNode::asText).containsExactly("load", "--store=memory");
        assertThat(deck.jobs().all()).hasSize(1);
        // no Origin: not a browser's cross-site request
        assertThat(post("/api/jobs", job).statusCode()).isEqualTo(200);
        assertThat(deck.jobs().all()).hasSize(2);
    }

    @Test
    void aJobRunsInTheWorkDirectoryAndStopsOnRequest() throws Exception {
        // bash stands in for bg: it prints where it runs, then waits until SIGTERM, which it reports like BG's Ctrl-C
        try (Deck d = Deck.start(
                new Deck.Config(
                        new InetSocketAddress("127.0.0.1", 0),
                        null,
                        runs,
                        dir,
                        List.of(
                                "bash",
                                "-c",
                                "trap 'kill $s; echo stopping; exit 130' TERM; pwd; sleep 60 >/dev/null 2>&1 & s=$!; "
                                        + "echo ready; wait")),
                StoreRegistry.discover())) {
            String at = "http://127.0.0.1:" + d.port();
            String bearer = "Bearer " + d.token();
            HttpResponse<String> started = http.send(
                    HttpRequest.newBuilder(URI.create(at + "/api/jobs"))
                            .header("Authorization", bearer)
                            .POST(HttpRequest.BodyPublishers.ofString("{\"command\":\"run\",\"store\":\"memory\"}"))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(started.statusCode()).as(started.body()).isEqualTo(200);
            int id = JSON.readTree(started.body()).path("id").asInt();
            Job job = d.jobs().get(id);
            long deadline = System.nanoTime() + 20_000_000_000L;
            while (!job.lines().contains("ready") && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertThat(job.lines()).startsWith(dir.toRealPath().toString(), "ready");
            assertThat(job.exitCode()).isNull();
            JsonNode running = JSON.readTree(http.send(
                            HttpRequest.newBuilder(URI.create(at + "/api/jobs"))
                                    .header("Authorization", bearer)
                                    .build(),
                            HttpResponse.BodyHandlers.ofString())
                    .body());
            assertThat(running).hasSize(1);
            assertThat(running.get(0).path("running").asBoolean()).isTrue();

            HttpResponse<String> none = http.send(
                    HttpRequest.newBuilder(URI.create(at + "/api/jobs/stop?id=" + (id + 1)))
                            .header("Authorization", bearer)
                            .POST(HttpRequest.BodyPublishers.noBody())
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(none.statusCode()).isEqualTo(404);
            assertThat(job.exitCode()).isNull();
            HttpResponse<String> stop = http.send(
                    HttpRequest.newBuilder(URI.create(at + "/api/jobs/stop?id=" + id))
                            .header("Authorization", bearer)
                            .POST(HttpRequest.BodyPublishers.noBody())
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(stop.statusCode()).isEqualTo(200);
            while (job.exitCode() == null && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertThat(job.exitCode()).isEqualTo(130);
            assertThat(job.lines()).endsWith("stopping");
            assertThat(job.error()).isNull();
        }
    }

    @Test
    void theFormsListEveryRegisteredStoreWithItsSettings() throws Exception {
        HttpResponse<String> r = get("/api/forms", "Authorization", "Bearer " + TOKEN);
        assertThat(r.statusCode()).isEqualTo(200);
        JsonNode forms = JSON.readTree(r.body());
        List<StoreProvider> registered = StoreRegistry.discover().all();
        assertThat(registered).extracting(StoreProvider::name).contains("memory");
        assertThat(forms.path("stores"))
                .extracting(s -> s.path("name").asText())
                .containsExactlyElementsOf(
                        registered.stream().map(StoreProvider::name).toList());
        for (StoreProvider p : registered) {
            JsonNode s = null;
            for (JsonNode x : forms.path("stores")) {
                if (x.path("name").asText().equals(p.name())) {
                    s = x;
                }
            }
            List<String> keys = new ArrayList<>();
            List<String> defaults = new ArrayList<>();
            s.path("settings").forEach(f -> {
                keys.add(f.path("key").asText());
                defaults.add(
                        f.path("default").isNull() ? null : f.path("default").asText());
            });
            assertThat(keys)
                    .as(p.name())
                    .containsExactlyElementsOf(
                            p.settings().stream().map(StoreSetting::key).toList());
            assertThat(defaults)
                    .as(p.name())
                    .containsExactlyElementsOf(p.settings().stream()
                            .map(StoreSetting::defaultValue)
                            .toList());
        }
        JsonNode memory = forms.path("stores")
                .get(registered.stream().map(StoreProvider::name).toList().indexOf("memory"));
        assertThat(memory.path("name").asText()).isEqualTo("memory");
        assertThat(memory.path("settings"))
                .isNotEmpty()
                .allSatisfy(f -> assertThat(f.path("description").asText()).isNotBlank());
        assertThat(forms.path("mixes"))
                .extracting(m -> m.path("name").asText())
                .containsExactlyElementsOf(
                        Mixes.all().stream().map(Mixes.NamedMix::name).toList());
    }

    private static Map<String, Double> percents(Mix mix) {
        Map<String, Double> p = new LinkedHashMap<>();
        for (Kind k : Kind.all()) {
            if (mix.weight(k) > 0) {
                p.put(k.code(), 100 * mix.weight(k));
            }
        }
        return p;
    }

    @Test
    void theMixCheckAddsUpAndFindsBrokenSymmetry() throws Exception {
        Mix high = Mixes.all().stream()
                .filter(m -> m.name().equals("high"))
                .findFirst()
                .orElseThrow()
                .mix();
        Map<String, Double> pct = percents(high);
        assertThat(pct).containsKeys("AFR", "VP");

        JsonNode ok =
                JSON.readTree(post("/api/mix", JSON.writeValueAsString(pct)).body());
        assertThat(ok.path("sums_to_100").asBoolean()).as(ok.toString()).isTrue();
        assertThat(ok.path("symmetric").asBoolean()).as(ok.toString()).isTrue();
        assertThat(ok.path("sum").asDouble()).isCloseTo(100, Offset.offset(1e-9));
        assertThat(ok.path("warnings")).isEmpty();

        Map<String, Double> moved = new LinkedHashMap<>(pct);
        moved.put("AFR", pct.get("AFR") - 1);
        moved.put("VP", pct.get("VP") + 1);
        JsonNode skewed =
                JSON.readTree(post("/api/mix", JSON.writeValueAsString(moved)).body());
        assertThat(skewed.path("sums_to_100").asBoolean()).isTrue();
        assertThat(skewed.path("symmetric").asBoolean()).isFalse();
        assertThat(skewed.path("warnings")).isNotEmpty();
        assertThat(skewed.path("warnings").get(0).asText()).contains("AFR");

        moved.put("VP", pct.get("VP"));
        JsonNode short1 =
                JSON.readTree(post("/api/mix", JSON.writeValueAsString(moved)).body());
        assertThat(short1.path("sums_to_100").asBoolean()).isFalse();
        assertThat(short1.path("symmetric").asBoolean()).isFalse();

        // percentages as the form's text fields send them; a blank one counts as 0
        JsonNode text = JSON.readTree(
                post("/api/mix", "{\"VP\":\"60\",\"LF\":\"40\",\"VFR\":\"\"}").body());
        assertThat(text.path("sum").asDouble()).isEqualTo(100.0);
        assertThat(text.path("symmetric").asBoolean()).isTrue();
        HttpResponse<String> notNumber = post("/api/mix", "{\"VP\":\"lots\"}");
        assertThat(notNumber.statusCode()).isEqualTo(400);
        assertThat(JSON.readTree(notNumber.body()).path("error").asText()).contains("VP");
        JsonNode unknown = JSON.readTree(post("/api/mix", "{\"XX\":100}").body());
        assertThat(unknown.path("errors").toString()).contains("XX");
    }

    @Test
    void badRequestsGetAMessageAndNoFileOutsideTheRunsDirectory() throws Exception {
        for (String body : List.of("{", "not json", "[1,2]")) {
            HttpResponse<String> r = post("/api/mix", body);
            assertThat(r.statusCode()).as(body).isEqualTo(400);
            assertThat(JSON.readTree(r.body()).path("error").asText()).as(body).isNotBlank();
        }
        HttpResponse<String> badJob = post("/api/jobs", "{\"command\":\"run\",\"options\":{\"-x\":1}}");
        assertThat(badJob.statusCode()).isEqualTo(400);
        assertThat(JSON.readTree(badJob.body()).path("error").asText()).contains("-x");
        HttpResponse<String> badJson = post("/api/jobs", "{\"command\":");
        assertThat(badJson.statusCode()).isEqualTo(400);

        for (String path : List.of(
                "/files/../secret.txt",
                "/files/%2e%2e/secret.txt",
                "/files/..%2fsecret.txt",
                "/files/%2e%2e%2fsecret.txt",
                "/files/" + dir.resolve("secret.txt").toString().replace("/", "%2f"),
                "/files//" + dir.resolve("secret.txt"),
                "/files/nothing.txt")) {
            String response = raw(path);
            assertThat(response).as(path).doesNotContain("OUTSIDE-SECRET");
            assertThat(response.lines().findFirst().orElseThrow()).as(path).matches("HTTP/1.1 (400|404) .*");
        }
        assertThat(raw("/files/inside.txt")).startsWith("HTTP/1.1 200").contains("inside the runs directory");
        // names as the page links them (encodeURI): a '+' and a '%' are part of the name
        Files.writeString(Files.createDirectories(runs.resolve("rate 1")).resolve("T+2 at 50%.json"), "{\"odd\":1}");
        HttpResponse<String> odd = get("/files/rate%201/T+2%20at%2050%25.json", "Authorization", "Bearer " + TOKEN);
        assertThat(odd.statusCode()).as(odd.body()).isEqualTo(200);
        assertThat(odd.body()).isEqualTo("{\"odd\":1}");
        assertThat(get("/api/result?path=../secret.txt", "Authorization", "Bearer " + TOKEN)
                        .statusCode())
                .isEqualTo(400);
        assertThat(get("/api/csv?path=..%2fsecret.txt", "Authorization", "Bearer " + TOKEN)
                        .statusCode())
                .isEqualTo(400);

        // a missing path, a JSON null and a body over the limit are bad requests too, not the deck's failures
        HttpResponse<String> noPath = get("/api/csv", "Authorization", "Bearer " + TOKEN);
        assertThat(noPath.statusCode()).as(noPath.body()).isEqualTo(400);
        assertThat(JSON.readTree(noPath.body()).path("error").asText()).startsWith("path:");
        for (String path : List.of("/api/mix", "/api/jobs")) {
            HttpResponse<String> r = post(path, "null");
            assertThat(r.statusCode()).as(path + ": " + r.body()).isEqualTo(400);
            assertThat(JSON.readTree(r.body()).path("error").asText()).as(path).isNotBlank();
        }
        HttpResponse<String> huge = post("/api/mix", "{\"VP\":\"" + "1".repeat(1 << 20) + "\"}");
        assertThat(huge.statusCode()).isEqualTo(400);
        assertThat(JSON.readTree(huge.body()).path("error").asText()).contains("bytes");

        HttpResponse<String> unknown = get("/no/such/page", "Authorization", "Bearer " + TOKEN);
        assertThat(unknown.statusCode()).isEqualTo(404);
        assertThat(JSON.readTree(unknown.body()).path("error").asText()).contains("/no/such/page");
        HttpResponse<String> put = http.send(
                HttpRequest.newBuilder(URI.create(base() + "/api/jobs"))
                        .PUT(HttpRequest.BodyPublishers.ofString("{}"))
                        .header("Authorization", "Bearer " + TOKEN)
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(put.statusCode()).isEqualTo(405);
    }

    /** A request sent as typed (no client normalizing the path), the whole response as text. */
    private String raw(String path) throws Exception {
        try (Socket s = new Socket("127.0.0.1", deck.port())) {
            s.setSoTimeout(20_000);
            OutputStream o = s.getOutputStream();
            o.write(("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1:" + deck.port() + "\r\nAuthorization: Bearer "
                            + TOKEN + "\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            o.flush();
            InputStream in = s.getInputStream();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void theDeckListsAndServesScaleAndElasticityResults() throws Exception {
        TestRuns.scaleAndElasticity(runs);
        HttpResponse<String> list = get("/api/runs", "Authorization", "Bearer " + TOKEN);
        assertThat(list.statusCode()).isEqualTo(200);
        Map<String, String> kinds = new LinkedHashMap<>();
        for (JsonNode n : JSON.readTree(list.body())) {
            kinds.put(n.path("path").asText(), n.path("kind").asText());
        }
        assertThat(kinds)
                .containsEntry("scale", "scale")
                .containsEntry("elast/elasticity.json", "elasticity")
                .containsEntry("scale/01-primary", "rating");
        HttpResponse<String> scale = get("/api/result?path=scale", "Authorization", "Bearer " + TOKEN);
        assertThat(scale.statusCode()).isEqualTo(200);
        JsonNode s = JSON.readTree(scale.body());
        assertThat(s.path("kind").asText()).isEqualTo("scale");
        assertThat(s.path("scale")
                        .path("configurations")
                        .get(1)
                        .path("efficiency")
                        .asDouble())
                .isEqualTo(0.85);
        HttpResponse<String> el = get("/api/result?path=elast%2Felasticity.json", "Authorization", "Bearer " + TOKEN);
        assertThat(el.statusCode()).isEqualTo(200);
        JsonNode e = JSON.readTree(el.body());
        assertThat(e.path("kind").asText()).isEqualTo("elasticity");
        assertThat(e.path("score").path("elasticity").asDouble()).isEqualTo(123.4);
        // The SVG bg scale writes is served as a file for the page to link.
        Files.writeString(runs.resolve("scale/scale.svg"), "<svg/>");
        assertThat(get("/files/scale/scale.svg", "Authorization", "Bearer " + TOKEN)
                        .body())
                .isEqualTo("<svg/>");
    }
}
