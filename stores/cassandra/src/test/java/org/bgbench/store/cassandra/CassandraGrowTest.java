package org.bgbench.store.cassandra;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.DriverConfigLoader;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.bgbench.store.conformance.servers.ServerScripts;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@code scripts/cassandra.sh add}, {@code settings} and {@code settled} (to grow a store under load): a
 * one-node cluster holding rows at replication factor 1 grows to two nodes; the new node must have streamed the rows of
 * the token ranges it took over (a CL=ONE read of every row finds it), and the script's status, settings, settled and
 * stop must cover it.
 */
@Tag("server")
class CassandraGrowTest {
    private static final int ROWS = 200;
    private static final long T0 = System.nanoTime();

    /** Prints the time since the class was loaded, so the cost of each step shows in the test's output. */
    private static void lap(String step) {
        System.out.printf("CassandraGrowTest: %-28s at %5.1f s%n", step, (System.nanoTime() - T0) / 1e9);
    }

    private static CqlSession session(String contactPoints) {
        var b = CqlSession.builder()
                .withLocalDatacenter(CassandraServer.DATACENTER)
                .withConfigLoader(DriverConfigLoader.programmaticBuilder()
                        .withDuration(DefaultDriverOption.REQUEST_TIMEOUT, Duration.ofSeconds(30))
                        .withString(DefaultDriverOption.REQUEST_CONSISTENCY, DefaultConsistencyLevel.ONE.name())
                        .build());
        for (String cp : contactPoints.split(",")) {
            int colon = cp.lastIndexOf(':');
            b.addContactPoint(new InetSocketAddress(cp.substring(0, colon), Integer.parseInt(cp.substring(colon + 1))));
        }
        return b.build();
    }

    @Test
    void oneNodeGrowsToTwoWithItsDataAndTheScriptCoversTheNewNode() {
        // A 1 s ring delay (as a single node's) for the joining node: no writes run during the join here.
        try (CassandraServer s = CassandraServer.cluster(1, Map.of("CASSANDRA_RING_DELAY_MS", "1000"))) {
            lap("1 node started");
            try (CqlSession one = session(s.contactPoints())) {
                one.execute("CREATE KEYSPACE grow WITH replication = {'class': 'NetworkTopologyStrategy', "
                        + "'datacenter1': 1}");
                one.execute("CREATE TABLE grow.kv (k int PRIMARY KEY, v text)");
                var insert = one.prepare("INSERT INTO grow.kv (k, v) VALUES (?, ?)");
                List<CompletableFuture<?>> writes = new ArrayList<>();
                for (int k = 0; k < ROWS; k++) {
                    writes.add(one.executeAsync(insert.bind(k, "v" + k)).toCompletableFuture());
                }
                CompletableFuture.allOf(writes.toArray(CompletableFuture[]::new))
                        .join();
            }
            lap("rows written");
            String port = s.contactPoints().substring(s.contactPoints().lastIndexOf(':') + 1);

            String contact = s.add(1);
            lap("node 2 added (UN)");

            assertThat(contact).isEqualTo("127.0.0.1:" + port + ",127.0.0.2:" + port);
            assertThat(s.nodes()).isEqualTo(2);
            ServerScripts.Run status = s.script(30, "status");
            assertThat(status.exit()).as(status.output()).isZero();
            assertThat(status.output())
                    .containsPattern("(?m)^n2 127\\.0\\.0\\.2:" + port + " jmx \\d+ pid " + s.pid(2) + " up$");
            assertThat(s.script(30, "contact").lastLine()).isEqualTo(contact);
            assertThat(s.script(30, "settings").output().strip().lines().toList())
                    .containsExactly(
                            "cassandra.contact-points=" + contact,
                            "cassandra.datacenter=datacenter1",
                            "cassandra.server-dir=" + s.dir().toAbsolutePath());
            ServerScripts.Run settled = s.script(120, "settled");
            assertThat(settled.exit()).as(settled.output()).isZero();
            assertThat(settled.lastLine()).endsWith("settled: 2 nodes UN, NORMAL, no streams");
            lap("status, settings, settled");

            // Node 2 owns about half the token ranges at RF=1: without the bootstrap's streaming about half the rows
            // would be missing at CL=ONE.
            try (CqlSession two = session(contact)) {
                long peers =
                        two.execute("SELECT count(*) FROM system.peers").one().getLong(0);
                assertThat(peers).isEqualTo(1);
                assertThat(two.execute("SELECT k FROM grow.kv").all().size())
                        .as("rows read at CL=ONE after the join")
                        .isEqualTo(ROWS);
            }

            lap("rows read");
            List<Long> pids = s.pids();
            assertThat(pids).hasSize(2);
            ServerScripts.Run stop = s.script(120, "stop");
            assertThat(stop.exit()).as(stop.output()).isZero();
            for (long p : pids) {
                Optional<ProcessHandle> h = ProcessHandle.of(p);
                assertThat(h.map(ProcessHandle::isAlive).orElse(false))
                        .as("pid " + p + " after stop")
                        .isFalse();
            }
            lap("stopped");
            ServerScripts.Run after = s.script(30, "settled");
            assertThat(after.exit()).isEqualTo(1);
            assertThat(after.output()).contains("not settled: n1 does not run").contains("n2 does not run");
        }
    }
}
