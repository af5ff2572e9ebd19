package org.bgbench.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;
import org.bgbench.runner.Interrupts;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** bg run in the open model, end to end on the memory store: phases, the verdict on the schedule, bad input. */
@Tag("slow")
class OpenModelCommandTest {
    @TempDir
    Path dir;

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    @BeforeEach
    void stateDir() {
        System.setProperty("bg.state.dir", dir.resolve("state").toString());
        Interrupts.reset();
    }

    private int bg(String... more) {
        List<String> a = new ArrayList<>(List.of(
                "run",
                "--store",
                "memory",
                "-p",
                "usercount=500",
                "-p",
                "friendcountperuser=10",
                "-p",
                "resourcecountperuser=2",
                "-p",
                "verify.sample=0",
                "-p",
                "memory.name=open-" + dir.getFileName(),
                "--quiet"));
        a.addAll(List.of(more));
        return Bg.run(new PrintWriter(out, true), new PrintWriter(err, true), a.toArray(String[]::new));
    }

    private static JsonNode read(Path file) throws Exception {
        return new ObjectMapper().readTree(file.toFile());
    }

    @Test
    void aScheduleOfStepsAndARampIsRunAndReportedPhaseByPhase() throws Exception {
        Path file = dir.resolve("p.json");
        int code = bg(
                "--workload",
                "high",
                "--threads",
                "8",
                "--arrivals",
                "500:2s,1000:2s,ramp:2000:2s",
                "--warmup",
                "1s",
                "--out",
                file.toString());
        assertThat(code).as(err.toString()).isZero();
        JsonNode r = read(file);
        assertThat(r.path("duration_s").asDouble()).as("the schedule's length").isCloseTo(6.0, within(0.2));
        JsonNode open = r.path("open");
        assertThat(open.path("valid").asBoolean()).isTrue();
        assertThat(open.path("schedule").asText()).isEqualTo("500:2s,1000:2s,ramp:2000:2s");
        JsonNode phases = open.path("phases");
        assertThat(phases).hasSize(3);
        assertThat(phases.get(0).path("label").asText()).isEqualTo("500:2s");
        assertThat(phases.get(2).path("from_rate").asDouble()).isEqualTo(1000);
        assertThat(phases.get(2).path("to_rate").asDouble()).isEqualTo(2000);
        // Arrivals due in each phase that started: 1000, 2000 and the ramp's 3000 (its last few may be cut off).
        assertThat(phases.get(0).path("started").asLong()).isCloseTo(1000, within(5L));
        assertThat(phases.get(1).path("started").asLong()).isCloseTo(2000, within(5L));
        assertThat(phases.get(2).path("started").asLong()).isCloseTo(3000, within(30L));
        assertThat(open.path("started").asLong()).isCloseTo(6000, within(40L));
        // The warm-up's arrivals (at the first phase's rate) are not in any of them.
        assertThat(open.path("offered").asLong()).isLessThan(6100);
        // Throughput per phase follows its rate (actions: a session's steps each count).
        assertThat(phases.get(0).path("throughput").asDouble()).isCloseTo(500, within(100.0));
        assertThat(phases.get(1).path("throughput").asDouble()).isCloseTo(1000, within(150.0));
        assertThat(phases.get(2).path("response").path("count").asLong()).isGreaterThan(2500);
        assertThat(open.path("service").path("VP").path("count").asLong()).isGreaterThan(0);
        assertThat(open.path("start_delay").path("p99_ms").asDouble()).isLessThan(100.0);
        // Validation ran on the open model's reads as on the closed model's.
        assertThat(r.path("unpredictable").path("reads_checked").asLong()).isGreaterThan(1000);
        assertThat(r.path("unpredictable").path("unpredictable_reads").asLong()).isZero();
        assertThat(out.toString())
                .contains("Open     arrivals 500:2s,1000:2s,ramp:2000:2s (constant)", "ramp:2000:2s", "service");
    }

    @Test
    void aRateBgCannotKeepUpWithIsInvalidAndSaysWhy() throws Exception {
        Path file = dir.resolve("x.json");
        // 50 M arrivals a second: no machine here starts that many; the backlog grows by millions a second.
        int code = bg(
                "--workload",
                "high",
                "--threads",
                "2",
                "--arrivals",
                "50000000",
                "--duration",
                "3s",
                "--warmup",
                "0",
                "-p",
                "validation=false",
                "--out",
                file.toString());
        assertThat(code).isEqualTo(Bg.FAILED);
        JsonNode open = read(file).path("open");
        assertThat(open.path("valid").asBoolean()).isFalse();
        assertThat(open.path("late_pct").asDouble()).isGreaterThan(5.0);
        assertThat(open.path("unstarted").asLong()).isGreaterThan(1_000_000);
        assertThat(open.path("invalid_reason").asText()).contains("fell behind its schedule");
        assertThat(err.toString()).contains("bg: error: the run is invalid: BG fell behind its schedule");
        assertThat(out.toString()).contains("Invalid  BG fell behind");
    }

    @Test
    void aRunInWhichAlmostNoArrivalStartedIsInvalid() throws Exception {
        // Every action takes 200 ms and one is in flight: of the 500 arrivals due in the 1 s period about 5 start. The
        // bound (2 s) is longer than the period, so no arrival left unstarted can have waited longer than it.
        Path file = dir.resolve("few.json");
        int code = Bg.run(
                new PrintWriter(out, true),
                new PrintWriter(err, true),
                "run",
                "--store",
                "scripted",
                "-p",
                "usercount=200",
                "-p",
                "friendcountperuser=10",
                "-p",
                "resourcecountperuser=2",
                "-p",
                "verify.sample=0",
                "-p",
                "scripted.base-ms=200",
                "-p",
                "scripted.per-call=true",
                "-p",
                "memory.name=open-few-" + dir.getFileName(),
                "-p",
                "validation=false",
                "--workload",
                "vp",
                "--threads",
                "1",
                "--arrivals",
                "500",
                "--duration",
                "1s",
                "--warmup",
                "0",
                "--max-lag",
                "2s",
                "--quiet",
                "--out",
                file.toString());
        assertThat(code).as(err.toString()).isEqualTo(Bg.FAILED);
        JsonNode open = read(file).path("open");
        assertThat(open.path("started").asLong()).isLessThan(20);
        assertThat(open.path("unstarted").asLong()).isGreaterThan(400);
        assertThat(open.path("late").asLong())
                .isGreaterThanOrEqualTo(open.path("unstarted").asLong());
        assertThat(open.path("valid").asBoolean()).isFalse();
        assertThat(open.path("invalid_reason").asText()).contains("fell behind its schedule", "never started");
        assertThat(err.toString()).contains("bg: error: the run is invalid: BG fell behind its schedule");
    }

    @Test
    void theOpenModelRatingIsTheRateAtWhichTheInFlightLimitIsFull() throws Exception {
        // Every action takes 5 ms (plus BG's own time) and at most 4 are in flight: the store serves c = 4 / service
        // time a second. Below c each arrival takes its service time; above it the backlog grows all run long and
        // soon pushes more than 5 % of the responses beyond β = 100 ms (at c + 50/s the last arrivals of 3 s wait
        // ~200 ms). So the search, in steps of 25/s, must end within a step or two of c.
        Path rating = dir.resolve("rating");
        int code = Bg.run(
                new PrintWriter(out, true),
                new PrintWriter(err, true),
                "rate",
                "--store",
                "scripted",
                "-p",
                "usercount=200",
                "-p",
                "friendcountperuser=10",
                "-p",
                "resourcecountperuser=2",
                "-p",
                "verify.sample=0",
                "-p",
                "scripted.base-ms=5",
                "-p",
                "scripted.per-call=true",
                "-p",
                "memory.name=open-rate-" + dir.getFileName(),
                "--workload",
                "vp",
                "--model",
                "open",
                "--in-flight",
                "4",
                "--rate-unit",
                "25",
                "--delta",
                "2s",
                "--warmup",
                "1s",
                "--sla",
                "95%:100ms:0.01%:2s",
                "--max-rate",
                "3200",
                "--out",
                rating.toString());
        assertThat(code).as(err.toString()).isZero();
        JsonNode r = read(rating.resolve("rating.json"));
        // The service time the experiment at 400/s measured (no queue there): the capacity it gives.
        JsonNode at400 = read(rating.resolve("05-R400.json")).path("open");
        assertThat(at400.path("valid").asBoolean()).isTrue();
        double service = at400.path("service").path("VP").path("mean_ms").asDouble();
        assertThat(service).isBetween(5.0, 6.0);
        double capacity = 4 * 1000 / service;
        int rated = r.path("socialites").path("threads").asInt() * 25;
        assertThat((double) rated).as(out.toString()).isBetween(capacity - 50, capacity + 50);
        assertThat(r.path("model").asText()).isEqualTo("open");
        assertThat(out.toString())
                .contains("Open-model rating " + String.format(Locale.ROOT, "%,d", rated) + " arrivals/s");
        assertThat(Files.readString(rating.resolve("rating.svg")))
                .contains("arrival rate", "Open-model rating = " + String.format(Locale.ROOT, "%,d", rated));
    }

    @Test
    void onTwoWorkersEachOffersHalfTheRateAndTheirFiguresMergeWithoutLoss() throws Exception {
        String secret = "a-secret-for-the-open-model-test";
        AtomicInteger c1 = new AtomicInteger(-1);
        AtomicInteger c2 = new AtomicInteger(-1);
        Thread[] w1 = new Thread[1];
        Thread[] w2 = new Thread[1];
        int p1 = BgCommandFixture.startWorker(dir, new StringWriter(), c1, w1, "--secret", secret);
        int p2 = BgCommandFixture.startWorker(dir, new StringWriter(), c2, w2, "--secret", secret);
        String workers = "127.0.0.1:" + p1 + ",127.0.0.1:" + p2;
        Path file = dir.resolve("two.json");
        try {
            int code = Bg.run(
                    new PrintWriter(out, true),
                    new PrintWriter(err, true),
                    "run",
                    "--store",
                    "sqlite",
                    "-p",
                    "sqlite.file=open.sqlite",
                    "--load",
                    "--workers",
                    workers,
                    "--secret",
                    secret,
                    "--threads",
                    "4",
                    "--arrivals",
                    "400:2s,ramp:800:2s",
                    "--warmup",
                    "1s",
                    "--quiet",
                    "--out",
                    file.toString(),
                    "-p",
                    "usercount=200",
                    "-p",
                    "friendcountperuser=4",
                    "-p",
                    "fragments=2");
            assertThat(code).as(err.toString()).isZero();
        } finally {
            Bg.run(
                    new PrintWriter(new StringWriter(), true),
                    new PrintWriter(new StringWriter(), true),
                    "shutdown",
                    "--workers",
                    workers,
                    "--secret",
                    secret);
            w1[0].join(Duration.ofSeconds(15));
            w2[0].join(Duration.ofSeconds(15));
        }
        JsonNode open = read(file).path("open");
        assertThat(open.path("schedule").asText()).isEqualTo("400:2s,ramp:800:2s");
        assertThat(open.path("in_flight_limit").asInt()).isEqualTo(4);
        // 800 + 1200 arrivals due in the measured period, half from each worker.
        assertThat(open.path("offered").asLong()).isCloseTo(2000, within(20L));
        assertThat(open.path("phases").get(1).path("to_rate").asDouble()).isEqualTo(800);
        List<JsonNode> parts = new ArrayList<>();
        try (var files = Files.list(dir.resolve("two-workers"))) {
            for (Path f :
                    files.filter(f -> f.toString().endsWith(".json")).sorted().toList()) {
                parts.add(read(f).path("open"));
            }
        }
        assertThat(parts).hasSize(2);
        long delays = 0;
        long vp = 0;
        for (JsonNode p : parts) {
            assertThat(p.path("schedule").asText()).isEqualTo("200:2s,ramp:400:2s");
            assertThat(p.path("offered").asLong()).isCloseTo(1000, within(15L));
            delays += p.path("start_delay").path("count").asLong();
            vp += p.path("service").path("VP").path("count").asLong();
        }
        assertThat(open.path("start_delay").path("count").asLong()).isEqualTo(delays);
        assertThat(open.path("service").path("VP").path("count").asLong())
                .isEqualTo(vp)
                .isPositive();
    }

    @Test
    void badOpenModelInputGetsOneLineNamingTheOption() {
        assertThat(bg("--arrivals", "fast")).isEqualTo(Bg.BAD_INPUT);
        assertThat(err.toString()).contains("--arrivals").doesNotContain("Exception", "\tat ");
        err.getBuffer().setLength(0);
        assertThat(bg("--arrivals", "100", "--arrival-process", "bursty")).isEqualTo(Bg.BAD_INPUT);
        assertThat(err.toString()).contains("--arrival-process", "constant or poisson");
        err.getBuffer().setLength(0);
        assertThat(bg("--arrivals", "100", "--operations", "1000")).isEqualTo(Bg.BAD_INPUT);
        assertThat(err.toString()).contains("--operations", "open model");
        err.getBuffer().setLength(0);
        assertThat(bg("--arrival-process", "poisson")).isEqualTo(Bg.BAD_INPUT);
        assertThat(err.toString()).contains("arrivalprocess", "--arrivals");
    }
}
