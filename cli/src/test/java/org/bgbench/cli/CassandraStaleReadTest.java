package org.bgbench.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.bgbench.store.cassandra.CassandraServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Stale reads from a Cassandra replica, judged by BG's validation: a real 3-node cluster (one for the
 * class), a small graph loaded at RF=3 with every replica written (ALL), then {@code bg run} with the high mix (10 %
 * writes) while node 3 misses writes: node 3 is frozen (SIGSTOP) and seen DOWN by the other nodes before the run,
 * thawed (SIGCONT) 10 s into it. Node 3 comes back UP without the writes it missed, and at ONE/ONE the reads it
 * coordinates (token-aware driver, GossipingPropertyFileSnitch: the coordinator's own replica is preferred) return
 * the old values, so BG must report unpredictable reads. At QUORUM/QUORUM every read overlaps every write, so under
 * the same fault BG must report none.
 *
 * <p>What hides a stale replica is turned off where it is configured, never silently: hinted handoff through the
 * nodes' {@code CASSANDRA_HINTED_HANDOFF=false} (scripts/cassandra.sh), speculative retry and read repair through the
 * store's settings {@code cassandra.speculative-retry=NONE} and {@code cassandra.read-repair=NONE}. docs/cassandra.md
 * describes the experiment and how to repeat it by hand.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Tag("server")
class CassandraStaleReadTest {
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
    /** The frozen node. */
    private static final int NODE = 3;
    /** Seconds of the run (after the first progress line) during which node 3 stays frozen. */
    private static final int FROZEN_S = 10;

    private static final int RUN_S = 30;
    private static final Pattern PROGRESS = Pattern.compile("(?m)^\\s*\\d+s\\s+[\\d,]+ act/s");

    private Path dir;
    private CassandraServer cluster;
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    @BeforeAll
    void start() throws IOException {
        dir = Files.createTempDirectory("bg-cass-stale-test");
        long t0 = System.nanoTime();
        cluster = CassandraServer.cluster(3, Map.of("CASSANDRA_HINTED_HANDOFF", "false"));
        System.out.printf("cluster of 3 up in %.1f s: %s%n", (System.nanoTime() - t0) / 1e9, cluster);
        // Both keyspaces loaded while every node is up, every replica written (ALL).
        for (String ks : List.of("bg_stale_one", "bg_stale_quorum")) {
            long t = System.nanoTime();
            int code = bg(with(
                    "load",
                    "--store",
                    "cassandra",
                    "--replace",
                    "-p",
                    "cassandra.keyspace=" + ks,
                    "-p",
                    "cassandra.write-consistency=ALL",
                    "-p",
                    "cassandra.read-consistency=ONE",
                    "-p",
                    "cassandra.timeout=20s"));
            assertThat(code).as(err + "\n" + out).isZero();
            System.out.printf("loaded %s in %.1f s%n", ks, (System.nanoTime() - t) / 1e9);
        }
    }

    @AfterAll
    void stop() throws IOException {
        if (cluster != null) {
            cluster.close();
        }
        if (dir != null) {
            try (var files = Files.walk(dir)) {
                files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
            }
        }
    }

    private int bg(String... args) {
        System.setProperty("bg.state.dir", dir.resolve("state").toString());
        out.getBuffer().setLength(0);
        err.getBuffer().setLength(0);
        return Bg.run(new PrintWriter(out, true), new PrintWriter(err, true), args);
    }

    /** The settings every command gets: the cluster, RF=3, and what hides staleness turned off explicitly. */
    private String[] with(String... more) {
        List<String> all = new ArrayList<>(List.of(more));
        all.addAll(List.of(
                "-p",
                "cassandra.contact-points=" + cluster.contactPoints(),
                "-p",
                "cassandra.datacenter=" + cluster.datacenter(),
                "-p",
                "cassandra.replication-factor=3",
                "-p",
                "cassandra.speculative-retry=NONE",
                "-p",
                "cassandra.read-repair=NONE"));
        all.addAll(List.of(GRAPH));
        return all.toArray(String[]::new);
    }

    /**
     * Freezes node 3 and waits until the others see it DOWN, runs the high mix at {@code consistency} for reads and
     * writes with node 3 thawed {@value #FROZEN_S} s into the run, and returns the result's JSON.
     */
    @SuppressWarnings("unchecked")
    private Map<String, Object> runWithFrozenNode(String keyspace, String consistency) throws Exception {
        Path result = dir.resolve(keyspace + ".json");
        long t0 = System.nanoTime();
        cluster.freeze(NODE);
        CompletableFuture<Void> thawed;
        try {
            cluster.awaitDown(NODE);
            System.out.printf(
                    "%s: node %d frozen, seen down after %.1f s%n", keyspace, NODE, (System.nanoTime() - t0) / 1e9);
            String[] args = with(
                    "run",
                    "--store",
                    "cassandra",
                    "--workload",
                    "high",
                    "--threads",
                    "4",
                    "--duration",
                    RUN_S + "s",
                    "--warmup",
                    "0s",
                    "--out",
                    result.toString(),
                    "-p",
                    "cassandra.keyspace=" + keyspace,
                    "-p",
                    "cassandra.read-consistency=" + consistency,
                    "-p",
                    "cassandra.write-consistency=" + consistency,
                    "-p",
                    "cassandra.timeout=10s",
                    // The check before the run reads at ALL when reads and writes do not overlap (ONE/ONE): with
                    // node 3 frozen it cannot; the keyspace was just loaded at ALL and verified by the load.
                    "-p",
                    "verify.sample=0");
            long runStart = System.nanoTime();
            // Thaws node 3 once FROZEN_S progress lines (measured seconds; bg run prints them on stderr) are out.
            thawed = CompletableFuture.runAsync(() -> {
                try {
                    while (PROGRESS.matcher(err.toString()).results().count() < FROZEN_S) {
                        if (System.nanoTime() - runStart > TimeUnit.SECONDS.toNanos(RUN_S + 120)) {
                            throw new IllegalStateException("bg run printed no progress: " + out + err);
                        }
                        Thread.sleep(100);
                    }
                    System.out.printf(
                            "%s: thawing node %d %.1f s after bg run started%n",
                            keyspace, NODE, (System.nanoTime() - runStart) / 1e9);
                    cluster.thaw(NODE);
                    cluster.awaitUp(NODE);
                    System.out.printf(
                            "%s: node %d up again %.1f s after bg run started%n",
                            keyspace, NODE, (System.nanoTime() - runStart) / 1e9);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            int code = bg(args);
            System.out.printf(
                    "%s: bg run exited %d after %.1f s%n%s%n%s%n",
                    keyspace, code, (System.nanoTime() - runStart) / 1e9, out, err);
        } finally {
            cluster.thaw(NODE);
        }
        thawed.get(60, TimeUnit.SECONDS);
        assertThat(result).as(err + "\n" + out).exists();
        return JSON.readValue(result.toFile(), Map.class);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> unpredictable(Map<String, Object> result) {
        return (Map<String, Object>) result.get("unpredictable");
    }

    /** Actions, errors and writes (actions of the write kinds that changed something) of the run. */
    @SuppressWarnings("unchecked")
    private static long[] actions(Map<String, Object> result) {
        Map<String, Object> total = (Map<String, Object>) result.get("total");
        Map<String, Map<String, Object>> kinds = (Map<String, Map<String, Object>>) result.get("actions");
        long writes = 0;
        for (String w : List.of("IF", "AFR", "RFR", "TF")) {
            Map<String, Object> k = kinds.get(w);
            if (k != null) {
                writes += ((Number) k.get("count")).longValue() - ((Number) k.get("noops")).longValue();
            }
        }
        return new long[] {((Number) total.get("count")).longValue(), ((Number) total.get("errors")).longValue(), writes
        };
    }

    /** Prints and checks what every run must show: reads checked and writes done. */
    private long[] report(String name, Map<String, Object> r) throws IOException {
        Map<String, Object> u = unpredictable(r);
        long checked = ((Number) u.get("reads_checked")).longValue();
        long stale = ((Number) u.get("unpredictable_reads")).longValue();
        long[] a = actions(r);
        System.out.printf(
                "%s: %d of %d reads unpredictable (%.3f %%); %d actions, %d errors, %d writes%n%s%n",
                name,
                stale,
                checked,
                100.0 * stale / Math.max(1, checked),
                a[0],
                a[1],
                a[2],
                JSON.writerWithDefaultPrettyPrinter().writeValueAsString(u.get("actions")));
        assertThat(checked).as(out.toString()).isPositive();
        assertThat(a[2]).as("writes\n" + out).isPositive();
        return new long[] {stale, checked};
    }

    @Test
    @Order(1)
    void atOneAReplicaThatMissedWritesServesStaleReads() throws Exception {
        long[] u = report("ONE/ONE", runWithFrozenNode("bg_stale_one", "ONE"));
        assertThat(u[0])
                .as("unpredictable reads at ONE with node 3 missing writes\n" + out)
                .isPositive();
    }

    @Test
    @Order(2)
    void atQuorumNoReadIsStale() throws Exception {
        long[] u = report("QUORUM/QUORUM", runWithFrozenNode("bg_stale_quorum", "QUORUM"));
        assertThat(u[0]).as("unpredictable reads at QUORUM\n" + out).isZero();
    }
}
