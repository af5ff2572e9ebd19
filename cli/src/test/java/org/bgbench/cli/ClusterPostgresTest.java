package org.bgbench.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.data.Offset.offset;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.bgbench.cluster.rpc.WorkerServer;
import org.bgbench.cluster.worker.WorkerService;
import org.bgbench.store.StoreSettings;
import org.bgbench.store.postgres.PostgresStoreProvider;
import org.bgbench.workload.distribution.ChiSquare;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * The coordinator and two workers (real gRPC on loopback, each worker with its own service) against one real
 * PostgreSQL server: load, run and rating through the workers, merged totals equal to the workers' own, the store's
 * final state equal to what the workers expect, a wrong secret refused, a worker that dies failing the run cleanly.
 * The same on separate network namespaces is scripts/test-cluster-netns.sh.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Tag("server")
class ClusterPostgresTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String SECRET = "test-secret-42-long-enough";
    private static final String[] GRAPH = {
        "-p",
        "usercount=600",
        "-p",
        "friendcountperuser=10",
        "-p",
        "fragments=4",
        "-p",
        "resourcecountperuser=4",
        "-p",
        "confperc=0.7",
        "-p",
        "commentcountperresource=1"
    };

    @TempDir
    static Path dir;

    private EmbeddedPostgres pg;
    private String url;
    private final List<WorkerServer> servers = new ArrayList<>();
    private final List<WorkerService> services = new ArrayList<>();
    private String workers;
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    @BeforeAll
    void start() throws Exception {
        pg = EmbeddedPostgres.builder()
                .setPGStartupWait(Duration.ofSeconds(60))
                .setServerConfig("fsync", "off")
                .setServerConfig("synchronous_commit", "off")
                .start();
        url = "postgres.url=jdbc:postgresql://localhost:" + pg.getPort() + "/postgres";
        List<String> addresses = new ArrayList<>();
        for (int k = 0; k < 2; k++) {
            WorkerService service = new WorkerService(dir.resolve("w" + k), new PrintWriter(new StringWriter(), true));
            WorkerServer s = WorkerServer.start(new InetSocketAddress("127.0.0.1", 0), SECRET, service);
            servers.add(s);
            services.add(service);
            addresses.add("127.0.0.1:" + s.port());
        }
        workers = String.join(",", addresses);
    }

    @AfterAll
    void stop() throws Exception {
        servers.forEach(WorkerServer::close);
        pg.close();
    }

    private int bg(String... args) {
        System.setProperty("bg.state.dir", dir.resolve("state").toString());
        out.getBuffer().setLength(0);
        err.getBuffer().setLength(0);
        return Bg.run(new PrintWriter(out, true), new PrintWriter(err, true), args);
    }

    private String[] with(String... more) {
        List<String> all = new ArrayList<>(List.of(more));
        all.addAll(List.of(GRAPH));
        all.addAll(List.of("--store", "postgres", "-p", url, "--secret", SECRET));
        return all.toArray(String[]::new);
    }

    @Test
    @Order(1)
    void loadAndRunThroughTwoWorkersMergeToTheWorkersOwnTotals() throws Exception {
        assertThat(bg(with("load", "--replace", "--workers", workers)))
                .as(err.toString())
                .isZero();
        assertThat(out.toString())
                .contains("Loaded postgres with 2 workers")
                .contains("sanity check passed: 600 members");
        Path result = dir.resolve("run/r.json");
        assertThat(bg(with(
                        "run",
                        "--workload",
                        "high",
                        "--threads",
                        "6",
                        "--duration",
                        "3s",
                        "--warmup",
                        "0s",
                        "--quiet",
                        "--workers",
                        workers,
                        "--out",
                        result.toString())))
                .as(err + "\n" + out)
                .isZero();
        JsonNode merged = JSON.readTree(result.toFile());
        JsonNode w0 = JSON.readTree(dir.resolve("run/r-workers/w0.json").toFile());
        JsonNode w1 = JSON.readTree(dir.resolve("run/r-workers/w1.json").toFile());
        assertThat(merged.get("threads").asInt()).isEqualTo(6);
        assertThat(w0.get("threads").asInt() + w1.get("threads").asInt()).isEqualTo(6);
        assertThat(w0.at("/total/count").asLong()).isPositive();
        assertThat(w1.at("/total/count").asLong()).isPositive();
        assertThat(merged.at("/total/count").asLong())
                .isEqualTo(
                        w0.at("/total/count").asLong() + w1.at("/total/count").asLong());
        for (String code : List.of("VP", "LF", "VFR", "IF", "AFR", "RFR", "TF", "VTR", "VCR", "PCR", "DCR")) {
            assertThat(merged.at("/actions/" + code + "/count").asLong())
                    .as(code)
                    .isEqualTo(w0.at("/actions/" + code + "/count").asLong()
                            + w1.at("/actions/" + code + "/count").asLong());
        }
        assertThat(merged.at("/throughput").asDouble())
                .isCloseTo(
                        w0.at("/throughput").asDouble() + w1.at("/throughput").asDouble(), offset(1e-6));
        assertThat(merged.at("/unpredictable/reads_checked").asLong())
                .isPositive()
                .isEqualTo(w0.at("/unpredictable/reads_checked").asLong()
                        + w1.at("/unpredictable/reads_checked").asLong());
        assertThat(merged.at("/unpredictable/unpredictable_reads").asLong()).isZero();
        assertThat(merged.at("/config/chi_square_measured").isNumber()).isTrue();
        // The χ² is printed beside the noise floor of the run's O requests over the graph's 600 members.
        long completed = merged.at("/total/count").asLong();
        assertThat(merged.at("/config/chi_square_requests").asLong()).isEqualTo(completed);
        assertThat(merged.at("/config/chi_square_noise_floor").asDouble())
                .isEqualTo(ChiSquare.noiseFloor(600, completed));
        assertThat(out.toString())
                .contains(
                        "χ² of the global distribution",
                        "noise floor (M−1)/O",
                        String.format(Locale.ROOT, "for O = %,d requests", completed));
        assertThat(merged.at("/config/workers").size()).isEqualTo(2);
        // The store holds exactly what the two workers expect of their members.
        assertThat(bg(with("verify", "--workers", workers))).as(out.toString()).isZero();
        assertThat(out.toString()).contains("The store holds exactly the state BG expects");
    }

    @Test
    @Order(2)
    void aRatingThroughTwoWorkersRepairsBetweenExperiments() throws Exception {
        Path rating = dir.resolve("rate");
        assertThat(bg(with(
                        "rate",
                        "--workload",
                        "high",
                        "--delta",
                        "1s",
                        "--warmup",
                        "0s",
                        "--sla",
                        "95%:100ms:0.01%:1s",
                        "--max-threads",
                        "4",
                        "--target",
                        "soar",
                        "--reset",
                        "repair",
                        "--workers",
                        workers,
                        "--out",
                        rating.toString())))
                .as(err + "\n" + out)
                .isZero();
        JsonNode r = JSON.readTree(rating.resolve("rating.json").toFile());
        assertThat(r.get("complete").asBoolean()).isTrue();
        assertThat(r.at("/soar/actions_per_second").asDouble()).isPositive();
        assertThat(r.at("/rating_time/resets/repair").asInt()).isPositive();
        assertThat(r.at("/rating_time/repaired_relationships").asLong()).isPositive();
        assertThat(bg(with("verify", "--workers", workers))).as(out.toString()).isZero();
    }

    @Test
    @Order(3)
    void calibratedSharesFollowTheWorkersMeasuredRates() throws Exception {
        Path result = dir.resolve("calibrated/r.json");
        assertThat(bg(with(
                        "run",
                        "--workload",
                        "high",
                        "--threads",
                        "4",
                        "--duration",
                        "2s",
                        "--warmup",
                        "0s",
                        "--quiet",
                        "--calibrate",
                        "1s",
                        "--workers",
                        workers,
                        "--out",
                        result.toString())))
                .as(err + "\n" + out)
                .isZero();
        assertThat(err.toString())
                .contains("calibration: worker 0")
                .contains("calibration: worker 1")
                .contains("calibrated worker rates");
        JsonNode merged = JSON.readTree(result.toFile());
        JsonNode rates = merged.at("/config/worker_rates");
        assertThat(rates.size()).isEqualTo(2);
        // Rates are normalised to the slower worker; measured ones are never exactly equal.
        assertThat(Math.min(rates.get(0).asDouble(), rates.get(1).asDouble())).isEqualTo(1.0);
        assertThat(Math.max(rates.get(0).asDouble(), rates.get(1).asDouble())).isGreaterThan(1.0);
        assertThat(merged.at("/unpredictable/unpredictable_reads").asLong()).isZero();
        // The calibration's writes were undone before the run: the store is what the workers expect (asked with the
        // same shares, so the workers keep the plan and the state of the run).
        assertThat(bg(with(
                        "verify",
                        "--workers",
                        workers,
                        "--worker-rates",
                        rates.get(0).asText() + "," + rates.get(1).asText())))
                .as(out.toString())
                .isZero();
        assertThat(out.toString()).doesNotContain("(0 touched by writes)");
    }

    /** The store's state mark, read as BG reads it. */
    private String storeMark() {
        var provider = new PostgresStoreProvider();
        try (var store = provider.open(StoreSettings.forProvider(
                provider, Map.of("postgres.url", url.substring("postgres.url=".length()), "postgres.pool", "2")))) {
            return store.stateMark().orElse("(none)");
        }
    }

    @Test
    @Order(4)
    void aRestartedWorkerMakesTheCoordinatorRefuseUntilTheStoreIsRepaired() throws Exception {
        assertThat(bg(with("load", "--replace", "--workers", workers)))
                .as(err.toString())
                .isZero();
        String loaded = storeMark();
        assertThat(loaded).startsWith("loaded:bg-graph/");
        assertThat(bg(with(
                        "run",
                        "--workload",
                        "high",
                        "--threads",
                        "4",
                        "--duration",
                        "2s",
                        "--warmup",
                        "0s",
                        "--quiet",
                        "--workers",
                        workers,
                        "--out",
                        dir.resolve("restart/before.json").toString())))
                .as(err + "\n" + out)
                .isZero();
        String sealed = storeMark();
        assertThat(sealed).as("the run's writes are sealed with one token").startsWith("state:");

        // Worker 1 restarts (as after a crash or a reboot): a new process, knowing nothing of the run's writes.
        servers.get(1).close();
        services.get(1).closeStore();
        WorkerService fresh = new WorkerService(dir.resolve("w1-restarted"), new PrintWriter(new StringWriter(), true));
        WorkerServer restarted = WorkerServer.start(new InetSocketAddress("127.0.0.1", 0), SECRET, fresh);
        servers.set(1, restarted);
        services.set(1, fresh);
        String address = "127.0.0.1:" + restarted.port();
        workers = workers.split(",")[0] + "," + address;

        Path refused = dir.resolve("restart/refused.json");
        assertThat(bg(with(
                        "run",
                        "--workload",
                        "high",
                        "--threads",
                        "4",
                        "--duration",
                        "2s",
                        "--warmup",
                        "0s",
                        "--quiet",
                        "--workers",
                        workers,
                        "--out",
                        refused.toString())))
                .as(err + "\n" + out)
                .isEqualTo(Bg.FAILED);
        assertThat(err.toString())
                .contains("bg: error: worker 1 " + address + " does not hold BG's expected state of " + "the store ("
                        + sealed + ", left by an earlier run through these workers): it was restarted")
                .contains("bg load --store postgres --replace --workers")
                .contains("bg verify --store postgres --repair " + "--workers")
                .doesNotContain("Exception");
        assertThat(refused).doesNotExist();
        assertThat(storeMark()).as("a refused run changes nothing").isEqualTo(sealed);
        // bg rate is refused alike; bg verify reports it.
        assertThat(bg(with(
                        "rate",
                        "--workload",
                        "high",
                        "--delta",
                        "1s",
                        "--warmup",
                        "0s",
                        "--sla",
                        "95%:100ms:0.01%:1s",
                        "--max-threads",
                        "2",
                        "--workers",
                        workers,
                        "--out",
                        dir.resolve("restart/rating").toString())))
                .isEqualTo(Bg.FAILED);
        assertThat(err.toString()).contains("worker 1 " + address + " does not hold BG's expected state");
        assertThat(bg(with("verify", "--workers", workers))).isEqualTo(Bg.FAILED);
        assertThat(out.toString()).contains("State mark: " + sealed).contains("Problem: worker 1 " + address);

        // Each worker repairs its members to the generated graph; the store is marked as loaded again.
        assertThat(bg(with("verify", "--repair", "--workers", workers)))
                .as(err + "\n" + out)
                .isZero();
        assertThat(out.toString()).contains("The store holds exactly the generated graph again.");
        assertThat(storeMark()).isEqualTo(loaded);
        Path after = dir.resolve("restart/after.json");
        assertThat(bg(with(
                        "run",
                        "--workload",
                        "high",
                        "--threads",
                        "4",
                        "--duration",
                        "2s",
                        "--warmup",
                        "0s",
                        "--quiet",
                        "--workers",
                        workers,
                        "--out",
                        after.toString())))
                .as(err + "\n" + out)
                .isZero();
        JsonNode merged = JSON.readTree(after.toFile());
        assertThat(merged.at("/unpredictable/reads_checked").asLong()).isPositive();
        assertThat(merged.at("/unpredictable/unpredictable_reads").asLong()).isZero();
        assertThat(storeMark()).startsWith("state:").isNotEqualTo(sealed);
        assertThat(bg(with("verify", "--workers", workers))).as(out.toString()).isZero();
        assertThat(out.toString()).contains("The store holds exactly the state BG expects.");
    }

    @Test
    @Order(5)
    void aRatingAskedToKeepGoingDropsAFailedWorkerAndFinishes() throws Exception {
        WorkerService thirdService = new WorkerService(dir.resolve("w2"), new PrintWriter(new StringWriter(), true));
        WorkerServer third = WorkerServer.start(new InetSocketAddress("127.0.0.1", 0), SECRET, thirdService);
        int thirdPort = third.port();
        String three = workers + ",127.0.0.1:" + thirdPort;
        // Three workers share the graph differently from two: start them from a freshly loaded graph.
        assertThat(bg(with("load", "--replace", "--workers", three, "--worker-rates", "1,1,4")))
                .as(err.toString())
                .isZero();
        Path rating = dir.resolve("keep-going");
        Thread killer = Thread.ofPlatform().start(() -> {
            try {
                long deadline = System.nanoTime() + 120_000_000_000L;
                while (System.nanoTime() < deadline && !Files.exists(rating.resolve("01-T1.json"))) {
                    Thread.sleep(20);
                }
                // As a killed process would: its server and its database connections go away.
                third.close();
                thirdService.closeStore();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        int code = bg(with(
                "rate",
                "--workload",
                "high",
                "--delta",
                "2s",
                "--warmup",
                "0s",
                "--sla",
                "95%:100ms:0.01%:2s",
                "--max-threads",
                "8",
                "--target",
                "soar",
                "--keep-going",
                "--no-confirm",
                // The third worker gets most threads, so every experiment needs it.
                "--worker-rates",
                "1,1,4",
                "--workers",
                three,
                "--out",
                rating.toString()));
        killer.join();
        assertThat(code).as(err + "\n" + out).isZero();
        JsonNode r = JSON.readTree(rating.resolve("rating.json").toFile());
        assertThat(r.get("complete").asBoolean()).isTrue();
        assertThat(r.at("/reset_notes").toString()).as(err + "\n" + out).contains("continued with 2 workers");
        assertThat(err.toString()).contains("dropping worker 2 127.0.0.1:" + thirdPort);
        assertThat(r.get("experiments").size()).isGreaterThanOrEqualTo(2);
        assertThat(rating.resolve("02-T2.json")).exists();
        // Found dead while an experiment ran, the failed attempt's merged result is kept beside the retried one's;
        // found dead when the workers check their shares before it, nothing of it ran, so there is none to keep.
        if (!Files.exists(rating.resolve("02-T2-failed.json"))) {
            assertThat(r.at("/reset_notes").toString())
                    .as(err.toString())
                    .contains("failed (worker 127.0.0.1:" + thirdPort);
        }
    }

    @Test
    @Order(6)
    void aCoordinatorWithoutTheSecretIsRefused() {
        List<String> args = new ArrayList<>(List.of(with(
                "run",
                "--workload",
                "high",
                "--threads",
                "2",
                "--duration",
                "1s",
                "--workers",
                workers,
                "--out",
                dir.resolve("refused.json").toString())));
        args.set(args.indexOf(SECRET), "not-the-secret-but-long");
        assertThat(bg(args.toArray(String[]::new))).isEqualTo(Bg.FAILED);
        assertThat(err.toString()).contains("refused the secret");
        assertThat(dir.resolve("refused.json")).doesNotExist();
    }

    @Test
    @Order(7)
    void aWorkerThatDiesFailsTheRunCleanlyAndKeepsWhatWasMeasured() throws Exception {
        Path result = dir.resolve("dies/r.json");
        AtomicInteger code = new AtomicInteger(-1);
        Thread run = Thread.ofPlatform()
                .start(() -> code.set(bg(with(
                        "run",
                        "--workload",
                        "high",
                        "--threads",
                        "4",
                        "--duration",
                        "30s",
                        "--warmup",
                        "0s",
                        "--quiet",
                        "--workers",
                        workers,
                        "--out",
                        result.toString()))));
        Thread.sleep(3000);
        long killed = System.nanoTime();
        servers.get(1).close();
        run.join(Duration.ofSeconds(40));
        assertThat(run.isAlive())
                .as("the coordinator returned within a bounded time")
                .isFalse();
        assertThat((System.nanoTime() - killed) / 1e9).isLessThan(25);
        assertThat(code.get()).as(err + "\n" + out).isEqualTo(Bg.FAILED);
        assertThat(err + out.toString()).contains(workers.split(",")[1]);
        JsonNode merged = JSON.readTree(result.toFile());
        assertThat(merged.at("/config/completed").asBoolean()).isFalse();
        assertThat(merged.at("/total/count").asLong())
                .as("the surviving worker's measurements are kept")
                .isPositive();
    }
}
