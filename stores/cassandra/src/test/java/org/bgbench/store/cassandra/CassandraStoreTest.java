package org.bgbench.store.cassandra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.datastax.oss.driver.api.core.CqlIdentifier;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import java.net.ServerSocket;
import java.util.HashMap;
import java.util.Map;
import org.bgbench.model.GraphSpec;
import org.bgbench.model.InvalidParameterException;
import org.bgbench.model.generator.SocialGraph;
import org.bgbench.store.StoreException;
import org.bgbench.store.StoreSettings;
import org.bgbench.store.conformance.StoreConformanceSuite;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** What the conformance suite does not cover: settings, bad input, schema reuse, BG's consistent reads. */
@Tag("server")
class CassandraStoreTest {
    private static CassandraConfig config(Map<String, String> given) {
        return CassandraStoreProvider.config(StoreSettings.forProvider(new CassandraStoreProvider(), given));
    }

    @Test
    void badSettingsNameTheSettingAndWhatIsAccepted() {
        assertThatThrownBy(() -> config(Map.of("cassandra.read-consistency", "ANY")))
                .isInstanceOf(InvalidParameterException.class)
                .hasMessageStartingWith("cassandra.read-consistency: expected one of ONE, TWO");
        assertThatThrownBy(() -> config(Map.of("cassandra.contact-points", "localhost:99999")))
                .hasMessageStartingWith("cassandra.contact-points: expected host:port with a port from 1 to 65535");
        assertThatThrownBy(() -> config(Map.of("cassandra.keyspace", "bg-1")))
                .hasMessageStartingWith("cassandra.keyspace: expected a letter");
        assertThatThrownBy(() -> config(Map.of("cassandra.replication-factor", "0")))
                .hasMessageStartingWith("cassandra.replication-factor: must be 1 or more");
        assertThatThrownBy(() -> config(Map.of("cassandra.batch", "sometimes")))
                .hasMessageStartingWith("cassandra.batch: expected one of logged, unlogged, separate");
        assertThatThrownBy(() -> config(Map.of("cassandra.speculative-retry", "often")))
                .hasMessageStartingWith("cassandra.speculative-retry: expected NONE, ALWAYS");
        assertThatThrownBy(() -> config(Map.of("cassandra.timeout", "10ms")))
                .hasMessageStartingWith("cassandra.timeout: expected a timeout from 1s");
        CassandraConfig c = config(Map.of(
                "cassandra.contact-points",
                "10.0.0.1, 10.0.0.2:9043",
                "cassandra.write-consistency",
                "each_quorum",
                "cassandra.read-repair",
                "none"));
        assertThat(c.contactPoints())
                .extracting(a -> a.getHostString() + ":" + a.getPort())
                .containsExactly("10.0.0.1:9042", "10.0.0.2:9043");
        assertThat(c.writeConsistency()).isEqualTo(DefaultConsistencyLevel.EACH_QUORUM);
        assertThat(c.readRepair()).isEqualTo("NONE");
        assertThat(c.timeout()).isEqualTo(StoreSettings.defaultTimeout(StoreSettings.DEFAULT_BETA));
    }

    @Test
    void bgsOwnChecksReadAtAllUnlessReadsAndWritesOverlap() {
        Map<String, String> s = new HashMap<>(Map.of(
                "cassandra.replication-factor",
                "3",
                "cassandra.read-consistency",
                "ONE",
                "cassandra.write-consistency",
                "ONE"));
        assertThat(storeless(s).consistentReadLevel()).isEqualTo(DefaultConsistencyLevel.ALL);
        s.put("cassandra.write-consistency", "ALL");
        assertThat(storeless(s).consistentReadLevel()).isEqualTo(DefaultConsistencyLevel.ONE);
        s.put("cassandra.write-consistency", "QUORUM");
        s.put("cassandra.read-consistency", "QUORUM");
        assertThat(storeless(s).consistentReadLevel()).isEqualTo(DefaultConsistencyLevel.QUORUM);
        s.put("cassandra.replication-factor", "1");
        s.put("cassandra.read-consistency", "ONE");
        s.put("cassandra.write-consistency", "ONE");
        assertThat(storeless(s).consistentReadLevel()).isEqualTo(DefaultConsistencyLevel.ONE);
    }

    private static CassandraConfig storeless(Map<String, String> s) {
        return config(s);
    }

    @Test
    void anUnreachableContactPointIsOneClearMessage() throws Exception {
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        Map<String, String> s =
                new HashMap<>(Map.of("cassandra.contact-points", "127.0.0.1:" + port, "cassandra.timeout", "2s"));
        assertThatThrownBy(() -> CassandraStore.open(config(s)))
                .isInstanceOf(StoreException.class)
                .hasMessageStartingWith(
                        "cannot connect to Cassandra at 127.0.0.1:" + port + " (cassandra.contact-points): ")
                .hasMessageContaining("scripts/cassandra.sh start DIR");
    }

    @Test
    void aWrongDatacenterAndATooLargeReplicationFactorAreRefusedAtOpen() {
        assertThatThrownBy(() -> CassandraStores.open("bg_bad", Map.of("cassandra.datacenter", "dc9")))
                .isInstanceOf(StoreException.class)
                .hasMessage("cassandra.datacenter=dc9: the cluster has no node in that datacenter; its datacenters "
                        + "are [datacenter1]");
        assertThatThrownBy(() -> CassandraStores.open("bg_bad", Map.of("cassandra.replication-factor", "3")))
                .isInstanceOf(StoreException.class)
                .hasMessage("cassandra.replication-factor=3 is larger than the 1 node(s) of datacenter "
                        + "datacenter1: every write would fail; use at most 1");
    }

    @Test
    void aLoadReusesTheTablesAndAppliesChangedTableOptions() {
        GraphSpec spec = GraphSpec.builder()
                .members(40)
                .friendsPerMember(4)
                .resourcesPerMember(2)
                .commentsPerResource(1)
                .confirmedFraction(0.5)
                .attributeCount(3)
                .attributeLength(5)
                .commentLength(10)
                .fragments(2)
                .seed(7)
                .build();
        SocialGraph graph = new SocialGraph(spec);
        try (CassandraStore a = CassandraStores.open("bg_reuse", Map.of())) {
            StoreConformanceSuite.load(a, graph, 2);
            assertThat(a.loadedGraph()).contains(spec.fingerprint());
        }
        try (CassandraStore b = CassandraStores.open(
                "bg_reuse", Map.of("cassandra.speculative-retry", "NONE", "cassandra.read-repair", "NONE"))) {
            var table = b.cql()
                    .getMetadata()
                    .getKeyspace("bg_reuse")
                    .orElseThrow()
                    .getTable("members")
                    .orElseThrow();
            assertThat(table.getOptions()
                            .get(CqlIdentifier.fromInternal("speculative_retry"))
                            .toString())
                    .isEqualTo("99p");
            StoreConformanceSuite.load(b, graph, 1);
            table = b.cql()
                    .getMetadata()
                    .getKeyspace("bg_reuse")
                    .orElseThrow()
                    .getTable("members")
                    .orElseThrow();
            // Cassandra shows NONE back as NEVER.
            assertThat(table.getOptions()
                            .get(CqlIdentifier.fromInternal("speculative_retry"))
                            .toString())
                    .isEqualTo("NEVER");
            assertThat(CassandraStore.retryPolicy("none")).isEqualTo("NEVER");
            assertThat(CassandraStore.retryPolicy("99PERCENTILE")).isEqualTo("99P");
            assertThat(table.getOptions()
                            .get(CqlIdentifier.fromInternal("read_repair"))
                            .toString())
                    .isEqualToIgnoringCase("NONE");
            assertThat(b.counts().members()).isEqualTo(40);
        }
        // A store opened for another design does not take this keyspace's graph for its own.
        try (CassandraStore c = CassandraStores.open("bg_reuse", Map.of("cassandra.design", "report"))) {
            assertThat(c.loadedGraph()).isEmpty();
            assertThat(c.stateMark()).contains("loaded:" + spec.fingerprint());
        }
    }

    @Test
    void reportsThePidsOfTheNodesInItsServerDirectory() {
        CassandraServer server = CassandraServer.single();
        try (CassandraStore s = CassandraStores.open(
                "bg_pids", Map.of("cassandra.server-dir", server.dir().toString()))) {
            assertThat(s.localServerPids()).containsExactlyElementsOf(server.pids());
            assertThat(s.localServerPids()).isNotEmpty();
        }
        try (CassandraStore s = CassandraStores.open("bg_pids", Map.of("cassandra.server-dir", ""))) {
            assertThat(s.localServerPids()).isEmpty();
            assertThat(s.image()).as("no server directory, no image").isEmpty();
        }
    }
}
