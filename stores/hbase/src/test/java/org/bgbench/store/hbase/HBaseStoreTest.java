package org.bgbench.store.hbase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.ServerSocket;
import java.util.HashMap;
import java.util.Map;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Durability;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.util.Bytes;
import org.bgbench.model.GraphSpec;
import org.bgbench.model.InvalidParameterException;
import org.bgbench.model.generator.SocialGraph;
import org.bgbench.store.ProfileView;
import org.bgbench.store.StoreException;
import org.bgbench.store.StoreSession;
import org.bgbench.store.StoreSettings;
import org.bgbench.store.conformance.StoreConformanceSuite;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** What the conformance suite does not cover: settings, bad input, a missing table, designs not reused, the bulk path. */
@Tag("server")
class HBaseStoreTest {
    private static final GraphSpec SMALL = GraphSpec.builder()
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

    private static HBaseConfig config(Map<String, String> given) {
        return HBaseStoreProvider.config(StoreSettings.forProvider(new HBaseStoreProvider(), given));
    }

    @Test
    void badSettingsNameTheSettingAndWhatIsAccepted() {
        assertThatThrownBy(() -> config(Map.of("hbase.design", "fancy")))
                .isInstanceOf(InvalidParameterException.class)
                .hasMessageStartingWith("hbase.design: expected one of basic, manual, got 'fancy'");
        assertThatThrownBy(() -> config(Map.of("hbase.zookeeper.quorum", "zk1:2181")))
                .hasMessageStartingWith("hbase.zookeeper.quorum: expected host names or addresses separated by "
                        + "commas (the port goes in hbase.zookeeper.port)");
        assertThatThrownBy(() -> config(Map.of("hbase.zookeeper.port", "70000")))
                .hasMessageStartingWith("hbase.zookeeper.port: expected a port from 1 to 65535, got 70000");
        assertThatThrownBy(() -> config(Map.of("hbase.table-prefix", "bg prefix")))
                .hasMessageStartingWith("hbase.table-prefix: expected letters, digits, _ . -");
        assertThatThrownBy(() -> config(Map.of("hbase.write-buffer", "lots")))
                .hasMessageStartingWith("hbase.write-buffer: expected a size such as 512k, 4m or 16m, got 'lots'");
        assertThatThrownBy(() -> config(Map.of("hbase.write-buffer", "2g")))
                .hasMessageStartingWith("hbase.write-buffer: expected a size from 64k to 1g, got '2g'");
        assertThatThrownBy(() -> config(Map.of("hbase.regions", "0")))
                .hasMessageStartingWith("hbase.regions: expected 1 to 1024, got 0");
        assertThatThrownBy(() -> config(Map.of("hbase.durability", "maybe")))
                .hasMessageStartingWith("hbase.durability: expected one of sync, fsync, async, skip");
        assertThatThrownBy(() -> config(Map.of("hbase.timeout", "5ms")))
                .hasMessageStartingWith("hbase.timeout: expected a timeout from 1s");
        HBaseConfig c = config(Map.of(
                "hbase.zookeeper.quorum",
                "zk1, zk2,zk3",
                "hbase.write-buffer",
                "512k",
                "hbase.durability",
                "async",
                "hbase.design",
                "basic",
                "hbase.table-prefix",
                "ns:bg_"));
        assertThat(c.quorum()).containsExactly("zk1", "zk2", "zk3");
        assertThat(c.writeBuffer()).isEqualTo(512 * 1024);
        assertThat(c.durability()).isEqualTo(Durability.ASYNC_WAL);
        assertThat(c.design()).isEqualTo(HBaseConfig.Design.BASIC);
        assertThat(c.timeout()).isEqualTo(StoreSettings.defaultTimeout(StoreSettings.DEFAULT_BETA));
        assertThat(c.loadWal(HBaseStore.SMALL_ROWS)).isTrue();
        assertThat(c.loadWal(HBaseStore.SMALL_ROWS + 1)).isFalse();
        assertThat(config(Map.of("hbase.load-wal", "false")).loadWal(10)).isFalse();
    }

    @Test
    void splitKeysCutTheIdRangesEvenlyInOrder() {
        HBaseConfig c = config(Map.of("hbase.regions", "4"));
        GraphSpec spec = GraphSpec.builder()
                .memberIdOffset(500)
                .friendsPerMember(10)
                .attributeCount(3)
                .attributeLength(5)
                .commentLength(10)
                .seed(7)
                .build();
        byte[][] members = HBaseSchema.splits(c, HBaseSchema.MEMBERS, spec, 1_000_000, 10_000);
        assertThat(members).hasNumberOfRows(3);
        assertThat(Bytes.toInt(members[0])).isEqualTo(3000);
        assertThat(Bytes.toInt(members[2])).isEqualTo(8000);
        byte[][] resources = HBaseSchema.splits(c, HBaseSchema.RESOURCES, spec, 1_000_000, 10_000);
        assertThat(Bytes.toLong(resources[1])).isEqualTo(500_000);
        for (int i = 1; i < resources.length; i++) {
            assertThat(Bytes.compareTo(resources[i - 1], resources[i])).isNegative();
        }
        assertThat(HBaseSchema.splits(c, HBaseSchema.META, spec, 1_000_000, 10_000))
                .isNull();
        assertThat(HBaseSchema.splits(config(Map.of("hbase.regions", "1")), HBaseSchema.MEMBERS, spec, 1, 1))
                .isNull();
        // Newest first: a wall column of a larger resource id sorts before a smaller one's.
        assertThat(Bytes.compareTo(HBaseSchema.wallColumn(7), HBaseSchema.wallColumn(6)))
                .isNegative();
        assertThat(HBaseSchema.wallRid(HBaseSchema.wallColumn(123_456_789L), 0)).isEqualTo(123_456_789L);
    }

    @Test
    void anUnreachableZooKeeperIsOneClearMessage() throws Exception {
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        assertThatThrownBy(() -> HBaseStore.open(
                        config(Map.of("hbase.zookeeper.port", Integer.toString(port), "hbase.timeout", "2s"))))
                .isInstanceOf(StoreException.class)
                .hasMessageStartingWith("cannot reach ZooKeeper at 127.0.0.1 port " + port
                        + " (hbase.zookeeper.quorum, hbase.zookeeper.port): 127.0.0.1:" + port)
                .hasMessageContaining("scripts/hbase.sh start DIR");
    }

    @Test
    void aPortThatAcceptsButIsNotHBaseFailsWithinTheTimeout() throws Exception {
        try (ServerSocket silent = new ServerSocket(0)) {
            long start = System.nanoTime();
            assertThatThrownBy(() -> HBaseStore.open(config(Map.of(
                            "hbase.zookeeper.port", Integer.toString(silent.getLocalPort()), "hbase.timeout", "2s"))))
                    .isInstanceOf(StoreException.class)
                    .hasMessageStartingWith("HBase at 127.0.0.1 port " + silent.getLocalPort()
                            + " did not answer within 2 s (hbase.timeout)");
            assertThat((System.nanoTime() - start) / 1e9).isLessThan(30);
        }
    }

    @Test
    void aMissingTableLeavesNoGraphAndNamesTheTable() throws Exception {
        try (HBaseStore s = HBaseStores.open("bgt_missing_", Map.of())) {
            StoreConformanceSuite.load(s, new SocialGraph(SMALL), 2);
            assertThat(s.loadedGraph()).contains(SMALL.fingerprint());
            s.admin("dropping a table", a -> {
                TableName wall = TableName.valueOf("bgt_missing_wall");
                a.disableTable(wall);
                a.deleteTable(wall);
                return null;
            });
            assertThat(s.loadedGraph()).isEmpty();
            assertThatThrownBy(s::openSession)
                    .isInstanceOf(StoreException.class)
                    .hasMessage("HBase lacks BG's table(s) bgt_missing_wall (prefix bgt_missing_, design=manual "
                            + "feed=pull); run bg load to create them");
            // A load creates every table again.
            StoreConformanceSuite.load(s, new SocialGraph(SMALL), 1);
            assertThat(s.loadedGraph()).contains(SMALL.fingerprint());
            s.dropSchema();
        }
    }

    @Test
    void aStoreLoadedUnderOneDesignIsNotReusedByTheOther() {
        try (HBaseStore basic = HBaseStores.open("bgt_designs_", Map.of("hbase.design", "basic"))) {
            StoreConformanceSuite.load(basic, new SocialGraph(SMALL), 2);
            assertThat(basic.loadedGraph()).contains(SMALL.fingerprint());
        }
        try (HBaseStore manual = HBaseStores.open("bgt_designs_", Map.of())) {
            assertThat(manual.loadedGraph()).isEmpty();
            manual.dropSchema();
        }
    }

    @Test
    void theBulkPathSkipsTheLogFlushesAndPreSplits() throws Exception {
        // hbase.load-wal=false: the load writes no log and finishLoad flushes; the regions of a graph too small to
        // pre-split stay one per table.
        try (HBaseStore s = HBaseStores.open(
                "bgt_bulk_", Map.of("hbase.load-wal", "false", "hbase.regions", "4", "hbase.write-buffer", "64k"))) {
            SocialGraph g = new SocialGraph(SMALL);
            StoreConformanceSuite.load(s, g, 3);
            assertThat(s.counts().members()).isEqualTo(40);
            assertThat(s.counts().comments()).isEqualTo(g.totalInitialComments());
            try (RegionLocator l = s.connection().getRegionLocator(s.table(HBaseSchema.MEMBERS))) {
                assertThat(l.getStartKeys()).hasNumberOfRows(1);
            }
            // Manual's counts are those of the graph.
            try (StoreSession session = s.openSession()) {
                ProfileView v = new ProfileView(g.attributeCount());
                session.viewProfile(g.memberId(3), g.memberId(3), v);
                assertThat(v.friendCount).isEqualTo(g.initialFriendCount(3));
                assertThat(v.pendingCount).isEqualTo(g.initialPendingCount(3));
                assertThat(v.resourceCount).isEqualTo(2);
            }
            s.dropSchema();
        }
    }

    @Test
    void theServersProcessIsReportedWhenItsDirectoryIsGiven() {
        Map<String, String> extra = new HashMap<>();
        try (HBaseStore s = HBaseStores.open("bgt_pid_", extra)) {
            if (s.config().serverDir() != null) {
                assertThat(s.localServerPids())
                        .containsExactly(HBaseServer.single().pid());
            } else {
                assertThat(s.localServerPids()).isEmpty();
            }
        }
    }
}
