package org.bgbench.store.hbase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;
import org.bgbench.store.conformance.servers.ServerScripts.Run;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.opentest4j.TestAbortedException;

/**
 * scripts/hbase.sh through {@link HBaseServer}: one private server for the whole class (a start takes about 10 s),
 * used by the client round trip and the script's commands in order, then stopped and refused a start on a taken port.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Tag("server")
class HBaseServerTest {
    private HBaseServer server;

    @BeforeAll
    void start() {
        server = HBaseServer.start();
    }

    @AfterAll
    void close() {
        if (server != null) {
            server.close();
            assertThat(server.dir()).doesNotExist();
        }
    }

    private Run script(String... args) {
        return server.script(120, args);
    }

    private Connection connect() throws IOException {
        Configuration conf = HBaseConfiguration.create();
        conf.set("hbase.zookeeper.quorum", server.quorum());
        conf.setInt("hbase.zookeeper.property.clientPort", server.zkPort());
        conf.setInt("hbase.client.retries.number", 3);
        conf.setInt("hbase.client.pause", 200);
        conf.setInt("hbase.rpc.timeout", 15_000);
        conf.setInt("hbase.client.operation.timeout", 30_000);
        conf.setInt("zookeeper.recovery.retry", 1);
        conf.setInt("zookeeper.session.timeout", 20_000);
        return ConnectionFactory.createConnection(conf);
    }

    @Test
    @Order(1)
    void clientRoundTrip() throws IOException {
        TableName name = TableName.valueOf("bg_server_test");
        byte[] f = Bytes.toBytes("f");
        byte[] q = Bytes.toBytes("q");
        byte[] row = Bytes.toBytes("row1");
        try (Connection c = connect();
                Admin admin = c.getAdmin()) {
            admin.createTable(TableDescriptorBuilder.newBuilder(name)
                    .setColumnFamily(ColumnFamilyDescriptorBuilder.of(f))
                    .build());
            assertThat(admin.tableExists(name)).isTrue();
            try (Table t = c.getTable(name)) {
                t.put(new Put(row).addColumn(f, q, Bytes.toBytes("v1")));
                assertThat(Bytes.toString(t.get(new Get(row)).getValue(f, q))).isEqualTo("v1");
                t.put(new Put(row).addColumn(f, q, Bytes.toBytes("v2")));
                assertThat(Bytes.toString(t.get(new Get(row)).getValue(f, q))).isEqualTo("v2");
                t.delete(new Delete(row));
                Result gone = t.get(new Get(row));
                assertThat(gone.isEmpty()).isTrue();
            }
            assertThat(admin.getClusterMetrics().getLiveServerMetrics().keySet())
                    .singleElement()
                    .satisfies(sn -> {
                        assertThat(sn.getHostname()).isEqualTo("127.0.0.1");
                        assertThat(sn.getPort()).isEqualTo(server.regionServerPort());
                    });
            admin.disableTable(name);
            admin.deleteTable(name);
        }
    }

    @Test
    @Order(2)
    void pidStatusAndQuorum() {
        assertThat(ProcessHandle.of(server.pid())).hasValueSatisfying(h -> {
            assertThat(h.isAlive()).isTrue();
            assertThat(h.info().commandLine())
                    .hasValueSatisfying(c -> assertThat(c)
                            .contains("HMaster")
                            .contains(server.dir().toString()));
        });
        Run status = script("status", server.dir().toString());
        assertThat(status.exit()).as(status.output()).isZero();
        assertThat(status.output())
                .contains("127.0.0.1:" + server.zkPort())
                .contains("pid " + server.pid())
                .endsWith("up\n");
        assertThat(script("pid", server.dir().toString()).output().strip()).isEqualTo(Long.toString(server.pid()));
        assertThat(script("quorum", server.dir().toString()).output().strip())
                .isEqualTo("127.0.0.1:" + server.zkPort());
        assertThat(server.zkPort()).isNotIn(server.masterPort(), server.regionServerPort());
    }

    @Test
    @Order(3)
    void secondStartOnARunningDirIsRefused() {
        long pid = server.pid();
        Run r = script("start", server.dir().toString());
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.output()).contains("already runs in " + server.dir()).contains("pid " + pid);
        assertThat(server.pid()).isEqualTo(pid);
        assertThat(ProcessHandle.of(pid))
                .hasValueSatisfying(h -> assertThat(h.isAlive()).isTrue());
    }

    @Test
    @Order(4)
    void stopEndsTheProcessAndFreesThePorts() throws IOException {
        long pid = server.pid();
        int[] ports = {server.zkPort(), server.masterPort(), server.regionServerPort()};
        Run r = script("stop", server.dir().toString());
        assertThat(r.exit()).as(r.output()).isZero();
        assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false))
                .isFalse();
        assertThat(server.dir().resolve("pid")).doesNotExist();
        for (int port : ports) {
            try (ServerSocket s = new ServerSocket()) {
                s.setReuseAddress(true);
                s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
            }
        }
        Run status = script("status", server.dir().toString());
        assertThat(status.exit()).isEqualTo(1);
        assertThat(status.output()).contains("pid - down");
        // Stopping again is harmless.
        assertThat(script("stop", server.dir().toString()).exit()).isZero();
    }

    @Test
    @Order(5)
    void startIsRefusedWhenTheZooKeeperPortIsTaken() throws IOException {
        try (ServerSocket taken = new ServerSocket(server.zkPort(), 50, InetAddress.getLoopbackAddress())) {
            Run r = script("start", server.dir().toString());
            assertThat(r.exit()).isEqualTo(1);
            assertThat(r.output().strip())
                    .contains("port " + server.zkPort() + " on 127.0.0.1")
                    .contains("is taken by another program")
                    .doesNotContain("ready");
        }
        assertThat(Files.exists(server.dir().resolve("pid"))).isFalse();
    }

    @Test
    @Order(6)
    void singleIsSharedAndItsCloseDoesNothing() {
        HBaseServer s = HBaseServer.single();
        assertThat(HBaseServer.single()).isSameAs(s);
        assertThat(s.dir()).isNotEqualTo(server.dir());
        s.close();
        assertThat(ProcessHandle.of(s.pid()))
                .hasValueSatisfying(h -> assertThat(h.isAlive()).isTrue());
        Run status = s.script(60, "status", s.dir().toString());
        assertThat(status.exit()).as(status.output()).isZero();
        assertThat(status.output()).contains("127.0.0.1:" + s.zkPort());
    }

    @Test
    void badArgumentsExitWithStatus2() {
        String dir = server.dir().toString();
        String[][] bad = {
            {}, {"bogus", dir}, {"start"}, {"start", dir, "extra"}, {"stop"}, {"fetch", "a", "b"}, {"status", ""}
        };
        for (String[] args : bad) {
            Run r = script(args);
            assertThat(r.exit()).as(String.join(" ", args)).isEqualTo(2);
            assertThat(r.output().strip())
                    .as(String.join(" ", args))
                    .startsWith("usage: scripts/hbase.sh")
                    .doesNotContain("\n");
        }
    }

    @Test
    void missingJdkFailsUnderCiAndSkipsOtherwise() {
        assertThatThrownBy(() -> HBaseServer.require(false, true))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("openjdk-17-jdk-headless")
                .hasMessageContaining("CI is set");
        assertThatThrownBy(() -> HBaseServer.require(false, false))
                .isInstanceOf(TestAbortedException.class)
                .hasMessageContaining("skipping");
        HBaseServer.require(true, true);
        assertThat(HBaseServer.libCache().toString()).endsWith("/.cache/bg/hbase-2.6.4-hadoop3/lib");
    }
}
