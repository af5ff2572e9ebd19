package org.bgbench.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.bgbench.store.DataStore;
import org.bgbench.store.StoreProvider;
import org.bgbench.store.StoreSettings;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Reads from a SQL read replica, judged by BG's validation: a real primary and an asynchronous replica with an apply
 * delay (one pair for the class), a small graph loaded through the primary, then {@code bg run} with the high mix (10 %
 * writes). With the reads on the replica some reads must be unpredictable and the freshness curve must reach 100 % by
 * about the delay; with the reads on the primary none may be. Subclasses start the pair.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
abstract class ReplicaReadsSuite {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String[] GRAPH = {
        "-p",
        "usercount=500",
        "-p",
        "friendcountperuser=10",
        "-p",
        "resourcecountperuser=4",
        "-p",
        "confperc=0.7",
        "-p",
        "commentcountperresource=1"
    };

    /** One directory for the class: BG's saved state carries over from one run to the next. */
    private Path dir;

    private ReplicaPair pair;
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    /** Starts the primary and the replica with {@link #delayMs()} as the replica's apply delay. */
    abstract ReplicaPair startPair();

    /** The replica's apply delay. */
    abstract long delayMs();

    /** From this long after a write on, every read must see it. */
    abstract long allFreshAfterMs();

    abstract StoreProvider provider();

    /** The message of an unreachable replica at 127.0.0.1:{@code port}, after the read URL. */
    abstract String unreachable(int port);

    private String store() {
        return pair.prefix();
    }

    @BeforeAll
    void start() throws IOException {
        dir = Files.createTempDirectory("bg-replica-test");
        pair = startPair();
        assertThat(bg(with("load", "--store", store(), "-p", store() + ".url=" + pair.url(), "--replace")))
                .as(err.toString())
                .isZero();
    }

    @AfterAll
    void stop() throws IOException {
        if (pair != null) {
            pair.close();
        }
        try (var files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        }
    }

    private int bg(String... args) {
        System.setProperty("bg.state.dir", dir.resolve("state").toString());
        out.getBuffer().setLength(0);
        err.getBuffer().setLength(0);
        return Bg.run(new PrintWriter(out, true), new PrintWriter(err, true), args);
    }

    private static String[] with(String... more) {
        List<String> all = new ArrayList<>(List.of(more));
        all.addAll(List.of(GRAPH));
        return all.toArray(String[]::new);
    }

    /** Seconds of a run on the replica: long enough for the freshness curve to reach past allFreshAfterMs. */
    private long curveSeconds() {
        return Math.max(5, (allFreshAfterMs() + 2_999) / 1000 + 2);
    }

    /**
     * Seconds of a run whose reads must all stay on the primary: no curve to draw, only reads that would go stale if
     * they went to the replica, which they do within the delay after a write (the first test: a fresh share below
     * 0.9 within 0.4 x the delay); four times the delay, at least 4 s.
     */
    private long primarySeconds() {
        return Math.max(4, (4 * delayMs() + 999) / 1000);
    }

    private String[] run(Path result, long seconds, String... store) {
        List<String> args = new ArrayList<>(List.of(
                "run",
                "--store",
                store(),
                "-p",
                store() + ".url=" + pair.url(),
                "--workload",
                "high",
                "--threads",
                "4",
                "--duration",
                seconds + "s",
                "--warmup",
                "0s",
                "--quiet",
                "-p",
                "freshness.buckets=" + 4 * seconds,
                "--out",
                result.toString()));
        for (String s : store) {
            args.addAll(List.of("-p", s));
        }
        return with(args.toArray(String[]::new));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> unpredictable(Path result) throws Exception {
        return (Map<String, Object>) JSON.readValue(result.toFile(), Map.class).get("unpredictable");
    }

    @Test
    @Order(1)
    @SuppressWarnings("unchecked")
    void readsOnTheDelayedReplicaAreUnpredictableUntilTheDelayHasPassed() throws Exception {
        Path result = dir.resolve("replica.json");
        bg(run(result, curveSeconds(), store() + ".read-urls=" + pair.readUrl()));
        assertThat(result).as(err + "\n" + out).exists();
        Map<String, Object> u = unpredictable(result);
        long checked = ((Number) u.get("reads_checked")).longValue();
        long stale = ((Number) u.get("unpredictable_reads")).longValue();
        assertThat(checked).as(out.toString()).isPositive();
        assertThat(stale)
                .as("reads on a replica " + delayMs() + " ms behind: " + out)
                .isPositive();
        assertThat(out.toString()).contains("Freshness confidence").contains("stale reads came up to ");
        // The curve: reads issued well within the delay after a write mostly miss it; from allFreshAfterMs on, every
        // read sees the latest value (the replica has applied every write by then).
        List<Map<String, Object>> buckets =
                (List<Map<String, Object>>) ((Map<String, Object>) u.get("freshness")).get("buckets");
        long earlyReads = 0;
        long earlyValid = 0;
        for (Map<String, Object> b : buckets) {
            double from = ((Number) b.get("from_ms")).doubleValue();
            double to = ((Number) b.get("to_ms")).doubleValue();
            long reads = ((Number) b.get("reads")).longValue();
            long valid = ((Number) b.get("valid")).longValue();
            if (to <= delayMs() * 0.4) {
                earlyReads += reads;
                earlyValid += valid;
            }
            if (from >= allFreshAfterMs()) {
                assertThat(valid)
                        .as("bucket %s – %s ms: %s\n%s", from, to, b, out)
                        .isEqualTo(reads);
            }
        }
        assertThat(earlyReads).isPositive();
        assertThat((double) earlyValid / earlyReads)
                .as("fresh share of the reads within 0.4 × the delay\n" + out)
                .isLessThan(0.9);
    }

    @Test
    @Order(2)
    void readsOnThePrimaryOnlyAreNeverUnpredictable() throws Exception {
        Path result = dir.resolve("primary.json");
        bg(run(result, primarySeconds()));
        assertThat(result).as(err + "\n" + out).exists();
        Map<String, Object> u = unpredictable(result);
        assertThat(((Number) u.get("reads_checked")).longValue())
                .as(out.toString())
                .isPositive();
        assertThat(((Number) u.get("unpredictable_reads")).longValue())
                .as(out.toString())
                .isZero();
        // read-actions=none keeps the reads on the primary too, with the replica's URL given.
        Path none = dir.resolve("none.json");
        bg(run(none, primarySeconds(), store() + ".read-urls=" + pair.readUrl(), store() + ".read-actions=none"));
        assertThat(none).as(err + "\n" + out).exists();
        assertThat(((Number) unpredictable(none).get("unpredictable_reads")).longValue())
                .as(out.toString())
                .isZero();
    }

    @Test
    @Order(3)
    void theStoreReportsTheReplicasServerAndNamesAnUnreachableReplica() throws Exception {
        Map<String, String> settings = Map.of(store() + ".url", pair.url(), store() + ".read-urls", pair.readUrl());
        try (DataStore store = provider().open(StoreSettings.forProvider(provider(), settings))) {
            assertThat(store.localServerPids()).containsExactlyElementsOf(pair.pids());
        }
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        String dead = "jdbc:" + (store().equals("postgres") ? "postgresql" : store()) + "://127.0.0.1:" + port + "/bg";
        int code = bg(run(dir.resolve("dead.json"), curveSeconds(), store() + ".read-urls=" + dead));
        assertThat(code).as(out.toString()).isNotZero();
        assertThat(err.toString())
                .contains("read replica " + dead + " (" + store() + ".read-urls): " + unreachable(port));
    }
}
