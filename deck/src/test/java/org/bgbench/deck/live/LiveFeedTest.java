package org.bgbench.deck.live;

import static org.assertj.core.api.Assertions.assertThat;

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
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.bgbench.deck.Deck;
import org.bgbench.deck.TestRuns;
import org.bgbench.measurement.RunResult;
import org.bgbench.runner.observe.Observers;
import org.bgbench.store.StoreRegistry;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The live feed over HTTP: pages connected while a real experiment runs get its live file line by line, a page that
 * connects afterwards gets the whole file, and a page that goes away does not stop the others.
 */
@Tag("slow")
class LiveFeedTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    /** One server-sent event. */
    record Event(String type, JsonNode data) {}

    /** A page: reads /api/live in the background and keeps every event. */
    static final class Page implements AutoCloseable {
        final List<Event> events = new CopyOnWriteArrayList<>();
        final List<String> comments = new CopyOnWriteArrayList<>();
        private final Stream<String> lines;
        private final Thread reader;

        Page(HttpClient http, URI uri) throws Exception {
            HttpResponse<Stream<String>> r =
                    http.send(HttpRequest.newBuilder(uri).GET().build(), HttpResponse.BodyHandlers.ofLines());
            assertThat(r.statusCode()).isEqualTo(200);
            assertThat(r.headers().firstValue("Content-Type"))
                    .hasValueSatisfying(t -> assertThat(t).startsWith("text/event-stream"));
            lines = r.body();
            reader = Thread.ofPlatform().daemon().start(() -> {
                String type = null;
                try {
                    for (String l : (Iterable<String>) lines::iterator) {
                        if (l.startsWith("event: ")) {
                            type = l.substring(7);
                        } else if (l.startsWith("data: ")) {
                            events.add(new Event(type, JSON.readTree(l.substring(6))));
                        } else if (l.startsWith(":")) {
                            comments.add(l);
                        }
                    }
                } catch (Exception e) {
                    // closed
                }
            });
        }

        List<JsonNode> lines(String path) {
            return events.stream()
                    .filter(e -> "line".equals(e.type())
                            && e.data().path("path").asText().equals(path))
                    .map(Event::data)
                    .toList();
        }

        @Override
        public void close() {
            lines.close();
        }
    }

    private static void await(String what, BooleanSupplier done) throws InterruptedException {
        long deadline = System.nanoTime() + 20_000_000_000L;
        while (!done.getAsBoolean() && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(done.getAsBoolean()).as(what).isTrue();
    }

    private static final Predicate<JsonNode> END =
            n -> n.path("data").path("type").asText().equals("end");

    @Test
    void pagesGetARunsLiveFileLineByLineAndALatePageGetsItWhole() throws Exception {
        Path runs = Files.createDirectories(dir.resolve("runs"));
        HttpClient http =
                HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        try (Deck deck = Deck.start(
                new Deck.Config(new InetSocketAddress("127.0.0.1", 0), null, runs, dir, List.of("true")),
                StoreRegistry.discover())) {
            URI live = URI.create("http://127.0.0.1:" + deck.port() + "/api/live?token=" + deck.token());
            Page early = new Page(http, live);
            await("the first page is connected", () -> deck.live().clients() == 1);

            // A page that goes away before the run ends (a raw socket, closed after the first events).
            Socket leaving = new Socket("127.0.0.1", deck.port());
            leaving.setSoTimeout(20_000);
            OutputStream o = leaving.getOutputStream();
            o.write(("GET /api/live?token=" + deck.token() + " HTTP/1.1\r\nHost: 127.0.0.1:" + deck.port() + "\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            o.flush();
            await("the leaving page is connected", () -> deck.live().clients() == 2);

            CompletableFuture<RunResult> run = CompletableFuture.supplyAsync(
                    () -> {
                        try (Observers.Registration r = Observers.register(new LiveFile())) {
                            return TestRuns.run(runs.resolve("x.json"));
                        }
                    },
                    r -> Thread.ofPlatform().start(r));

            // Pages that open mid-run, a few times a second until the run ends.
            List<Page> middle = new CopyOnWriteArrayList<>();
            Thread opener = Thread.ofPlatform().start(() -> {
                try {
                    while (!run.isDone()) {
                        middle.add(new Page(http, live));
                        Thread.sleep(350);
                    }
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });

            // The leaving page reads until it has seen the run's first line, then goes away mid-run.
            InputStream in = leaving.getInputStream();
            StringBuilder got = new StringBuilder();
            byte[] b = new byte[4096];
            while (!got.toString().contains("\"type\":\"second\"")) {
                int n = in.read(b);
                assertThat(n).as("the leaving page's stream").isPositive();
                got.append(new String(b, 0, n, StandardCharsets.UTF_8));
            }
            assertThat(got.toString()).contains("event: line").contains("\"path\":\"x.live.jsonl\"");
            leaving.close();

            RunResult result = run.get();
            await(
                    "the first page got the end line",
                    () -> early.lines("x.live.jsonl").stream().anyMatch(END));
            opener.join();
            await("the leaving page is dropped", () -> deck.live().clients() == 1 + middle.size());

            Path file = runs.resolve("x.live.jsonl");
            List<Long> ends = lineEnds(file);
            assertThat(ends).hasSizeGreaterThanOrEqualTo(3);
            assertThat(middle).hasSizeGreaterThanOrEqualTo(3);
            for (Page m : middle) {
                await(
                        "a page opened mid-run got the end line",
                        () -> m.lines("x.live.jsonl").stream().anyMatch(END));
                // what the page keeps: a line whose 'at' is past the last it kept (it gets some twice, by design)
                List<Long> kept = new ArrayList<>();
                for (JsonNode n : m.lines("x.live.jsonl")) {
                    long at = n.path("at").asLong();
                    if (kept.isEmpty() || at > kept.getLast()) {
                        kept.add(at);
                    }
                }
                assertThat(kept)
                        .as("a page opened mid-run keeps every line once")
                        .containsExactlyElementsOf(ends);
                m.close();
            }
            List<JsonNode> seen = early.lines("x.live.jsonl");
            assertThat(seen).extracting(n -> n.path("at").asLong()).containsExactlyElementsOf(ends);
            assertThat(seen.getFirst().path("data").path("type").asText()).isEqualTo("start");
            assertThat(seen.getLast().path("data").path("throughput").asDouble())
                    .isEqualTo(result.throughput());
            assertThat(seen).extracting(n -> n.path("data")).containsExactlyElementsOf(parsed(file));
            // the jobs go out each second too
            assertThat(early.events)
                    .anyMatch(e -> "jobs".equals(e.type()) && e.data().isArray());

            try (Page late = new Page(http, live)) {
                await(
                        "the late page got the whole file",
                        () -> late.lines("x.live.jsonl").stream().anyMatch(END));
                assertThat(late.lines("x.live.jsonl"))
                        .extracting(n -> n.path("at").asLong())
                        .containsExactlyElementsOf(ends);
            }
            early.close();
        } finally {
            http.shutdownNow();
        }
    }

    @Test
    void aRatingsExperimentsGoOutAsTheyFinishAndAHalfWrittenLineWaits() throws Exception {
        Path runs = Files.createDirectories(dir.resolve("runs"));
        Path rating = Files.createDirectories(runs.resolve("rate-memory"));
        Path progress = rating.resolve("experiments.jsonl");
        HttpClient http =
                HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        try (Deck deck = Deck.start(
                        new Deck.Config(new InetSocketAddress("127.0.0.1", 0), null, runs, dir, List.of("true")),
                        StoreRegistry.discover());
                Page page = new Page(
                        http, URI.create("http://127.0.0.1:" + deck.port() + "/api/live?token=" + deck.token()))) {
            Supplier<List<JsonNode>> experiments = () -> page.events.stream()
                    .filter(e -> "experiment".equals(e.type())
                            && e.data().path("path").asText().equals("rate-memory"))
                    .map(Event::data)
                    .toList();
            await("the page is connected", () -> deck.live().clients() == 1);
            String first = "{\"threads\":1,\"throughput\":100.5}\n";
            Files.writeString(progress, first);
            await("the first experiment", () -> experiments.get().size() == 1);
            assertThat(experiments.get().getFirst().path("at").asLong()).isEqualTo(first.length());
            assertThat(experiments
                            .get()
                            .getFirst()
                            .path("data")
                            .path("throughput")
                            .asDouble())
                    .isEqualTo(100.5);

            String second = "{\"threads\":2,\"throughput\":180.0}\n";
            Files.writeString(progress, second + "{\"threads\":4,", StandardOpenOption.APPEND);
            await("the second experiment", () -> experiments.get().size() >= 2);
            int jobs = (int)
                    page.events.stream().filter(e -> "jobs".equals(e.type())).count();
            await(
                    "two more ticks",
                    () -> page.events.stream()
                                    .filter(e -> "jobs".equals(e.type()))
                                    .count()
                            >= jobs + 2);
            assertThat(experiments.get())
                    .as("the half-written line is not sent")
                    .hasSize(2);

            Files.writeString(progress, "\"throughput\":300.0}\n", StandardOpenOption.APPEND);
            await("the third experiment", () -> experiments.get().size() >= 3);
            assertThat(experiments.get())
                    .extracting(n -> n.path("at").asLong())
                    .containsExactlyElementsOf(lineEnds(progress));
            assertThat(experiments.get())
                    .extracting(n -> n.path("data").path("threads").asInt())
                    .containsExactly(1, 2, 4);
        } finally {
            http.shutdownNow();
        }
    }

    /** Where each line of {@code file} ends (the offset after its newline): the {@code at} of its event. */
    private static List<Long> lineEnds(Path file) throws Exception {
        byte[] b = Files.readAllBytes(file);
        List<Long> ends = new ArrayList<>();
        for (int i = 0; i < b.length; i++) {
            if (b[i] == '\n') {
                ends.add((long) i + 1);
            }
        }
        return ends;
    }

    private static List<JsonNode> parsed(Path file) throws Exception {
        List<JsonNode> out = new ArrayList<>();
        for (String l : Files.readAllLines(file)) {
            out.add(JSON.readTree(l));
        }
        return out;
    }
}
