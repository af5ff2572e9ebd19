package org.bgbench.store.mariadb;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.bgbench.store.StoreSettings;
import org.bgbench.store.conformance.servers.ServerScripts;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@code scripts/mariadb-replica.sh start DIR --replicas 2} with real servers: a row written on the primary
 * reaches both replicas, {@code urls} lists both as {@code mariadb.read-urls} (the store reads two replicas), stop ends
 * all three pids. Skipped without mariadbd, failed then under CI.
 */
@Tag("server")
class MariadbReplicasScriptTest {
    private Path script;
    private Path dir;

    @BeforeEach
    void setUp() throws IOException {
        MariadbServer.require(MariadbServer.installed(), ServerScripts.ciRequired());
        script = ServerScripts.script("mariadb-replica.sh");
        // Short, so the socket paths fit.
        dir = Files.createTempDirectory(Path.of("/tmp"), "bg-mdk-");
    }

    @AfterEach
    void tearDown() {
        if (dir != null) {
            try {
                ServerScripts.run(script, 60, Map.of(), "stop", dir.toString());
            } finally {
                ServerScripts.deleteTree(dir);
            }
        }
    }

    /** Three servers for one row: no need for scripts/mariadb.sh's 1 GiB buffer pool each. */
    private String run(String... args) {
        return ServerScripts.runOrThrow(script, 120, Map.of("MARIADB_BUFFER_POOL", "128M"), args);
    }

    @Test
    void twoReplicasBothReceiveAPrimaryWriteAndUrlsListBoth() throws Exception {
        long t0 = System.nanoTime();
        Map<String, String> started =
                ServerScripts.settings(run("start", dir.toString(), "--replicas", "2"), "mariadb.");
        Map<String, String> urls = ServerScripts.settings(run("urls", dir.toString()), "mariadb.");
        assertThat(urls).isEqualTo(started).containsOnlyKeys("mariadb.url", "mariadb.read-urls");
        String[] readUrls = urls.get("mariadb.read-urls").split(",");
        assertThat(readUrls).hasSize(2);
        assertThat(readUrls[0]).startsWith("jdbc:mariadb://127.0.0.3:");
        assertThat(readUrls[1]).startsWith("jdbc:mariadb://127.0.0.4:");
        assertThat(MariadbStoreProvider.config(StoreSettings.forProvider(new MariadbStoreProvider(), urls))
                        .replicas()
                        .urls())
                .containsExactly(readUrls);

        try (Connection primary = DriverManager.getConnection(urls.get("mariadb.url"), "bg", "bg");
                Statement st = primary.createStatement()) {
            st.execute("CREATE TABLE grow (k int PRIMARY KEY, v varchar(40))");
            st.execute("INSERT INTO grow VALUES (1, 'on the primary')");
        }
        for (String replica : readUrls) {
            try (Connection c = DriverManager.getConnection(replica, "bg", "bg");
                    Statement st = c.createStatement()) {
                // Asynchronous replicas: await the row (bounded), polling the replica itself.
                String v = ServerScripts.awaitValue(st, "SELECT v FROM grow WHERE k = 1", Duration.ofSeconds(30));
                assertThat(v).as(replica).isEqualTo("on the primary");
                try (ResultSet rs = st.executeQuery("SELECT @@read_only, @@server_id")) {
                    assertThat(rs.next()).isTrue();
                    assertThat(rs.getInt(1)).as(replica + " read_only").isEqualTo(1);
                    assertThat(rs.getInt(2)).as(replica + " server_id").isGreaterThan(1);
                }
            }
        }

        List<Long> pids = ServerScripts.pids(run("pids", dir.toString()));
        assertThat(pids).hasSize(3).doesNotHaveDuplicates();
        run("stop", dir.toString());
        for (long p : pids) {
            assertThat(ProcessHandle.of(p).map(ProcessHandle::isAlive).orElse(false))
                    .as("pid " + p)
                    .isFalse();
        }
        System.out.printf(
                "MariadbReplicasScriptTest: 2 replicas started, checked, stopped in %.1f s%n",
                (System.nanoTime() - t0) / 1e9);
    }
}
