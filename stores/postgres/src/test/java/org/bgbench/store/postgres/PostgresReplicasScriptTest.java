package org.bgbench.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.bgbench.store.StoreSettings;
import org.bgbench.store.conformance.servers.ServerScripts;
import org.bgbench.store.relational.ReadReplicas;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@code scripts/postgres-replica.sh start DIR --replicas K} (to rate a store at several sizes) with real
 * servers: two replicas both receive a row written on the primary and {@code urls} lists both as
 * {@code postgres.read-urls}, which the store reads as two replicas; {@code --replicas 0} is the primary alone. Skipped
 * without PostgreSQL's server binaries, failed then under CI.
 */
@Tag("server")
class PostgresReplicasScriptTest {
    private Path script;
    private Path dir;

    @BeforeEach
    void setUp() throws IOException {
        ServerScripts.requireOrSkip(
                installed(),
                "PostgreSQL's server binaries (/usr/lib/postgresql/*/bin) are not "
                        + "installed (Debian package postgresql; ./test installs it when run as root, otherwise: sudo apt-get "
                        + "install --no-install-recommends postgresql)");
        script = ServerScripts.script("postgres-replica.sh");
        // Short, so the socket paths fit.
        dir = Files.createTempDirectory(Path.of("/tmp"), "bg-pgk-");
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

    private static boolean installed() {
        try (Stream<Path> versions = Files.list(Path.of("/usr/lib/postgresql"))) {
            return versions.anyMatch(v -> Files.isExecutable(v.resolve("bin/postgres"))
                    && Files.isExecutable(v.resolve("bin/pg_basebackup")));
        } catch (IOException e) {
            return false;
        }
    }

    private String run(String... args) {
        return ServerScripts.runOrThrow(script, 120, Map.of(), args);
    }

    private static Connection connect(String url) throws SQLException {
        return DriverManager.getConnection(url, "postgres", "");
    }

    @Test
    void twoReplicasBothReceiveAPrimaryWriteAndUrlsListBoth() throws Exception {
        long t0 = System.nanoTime();
        Map<String, String> started =
                ServerScripts.settings(run("start", dir.toString(), "--replicas", "2"), "postgres.");
        Map<String, String> urls = ServerScripts.settings(run("urls", dir.toString()), "postgres.");
        assertThat(urls).isEqualTo(started).containsOnlyKeys("postgres.url", "postgres.read-urls");
        assertThat(urls.get("postgres.url")).matches("jdbc:postgresql://127\\.0\\.0\\.2:\\d+/bg");
        String[] readUrls = urls.get("postgres.read-urls").split(",");
        assertThat(readUrls).hasSize(2);
        assertThat(readUrls[0]).matches("jdbc:postgresql://127\\.0\\.0\\.3:\\d+/bg");
        assertThat(readUrls[1]).matches("jdbc:postgresql://127\\.0\\.0\\.4:\\d+/bg");

        // The store takes the line as it is: two replicas, sessions alternating between them.
        ReadReplicas r = PostgresStoreProvider.config(StoreSettings.forProvider(new PostgresStoreProvider(), urls))
                .replicas();
        assertThat(r.urls()).containsExactly(readUrls);
        // With replicas the store offers no image: a restore's DROP DATABASE, replayed on a replica, ends the sessions
        // reading there (a rating's next experiment failed); the primary alone keeps its image.
        try (PostgresStore withReplicas = (PostgresStore)
                        new PostgresStoreProvider().open(StoreSettings.forProvider(new PostgresStoreProvider(), urls));
                PostgresStore primaryOnly = (PostgresStore) new PostgresStoreProvider()
                        .open(StoreSettings.forProvider(
                                new PostgresStoreProvider(), Map.of("postgres.url", urls.get("postgres.url"))))) {
            assertThat(withReplicas.image()).isEmpty();
            assertThat(primaryOnly.image()).isPresent();
        }

        try (Connection primary = connect(urls.get("postgres.url"));
                Statement st = primary.createStatement()) {
            st.execute("CREATE TABLE grow (k int PRIMARY KEY, v text)");
            st.execute("INSERT INTO grow VALUES (1, 'on the primary')");
        }
        for (String replica : readUrls) {
            try (Connection c = connect(replica);
                    Statement st = c.createStatement()) {
                // Asynchronous replicas: await the row (bounded), polling the replica itself.
                String v = ServerScripts.awaitValue(st, "SELECT v FROM grow WHERE k = 1", Duration.ofSeconds(30));
                assertThat(v).as(replica).isEqualTo("on the primary");
                try (ResultSet rs = st.executeQuery("SELECT pg_is_in_recovery()")) {
                    assertThat(rs.next() && rs.getBoolean(1))
                            .as(replica + " is a standby")
                            .isTrue();
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
                "PostgresReplicasScriptTest: 2 replicas started, checked, stopped in %.1f s%n",
                (System.nanoTime() - t0) / 1e9);
    }

    @Test
    void zeroReplicasIsThePrimaryAlone() throws Exception {
        long t0 = System.nanoTime();
        Map<String, String> urls = ServerScripts.settings(run("start", dir.toString(), "--replicas", "0"), "postgres.");
        assertThat(urls).containsOnlyKeys("postgres.url");
        assertThat(ServerScripts.settings(run("urls", dir.toString()), "postgres."))
                .isEqualTo(urls);
        try (Connection primary = connect(urls.get("postgres.url"));
                Statement st = primary.createStatement();
                ResultSet rs = st.executeQuery("SELECT pg_is_in_recovery(), count(*) FROM pg_stat_replication")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getBoolean(1)).isFalse();
            assertThat(rs.getLong(2)).isZero();
        }
        assertThat(ServerScripts.pids(run("pids", dir.toString()))).hasSize(1);
        assertThat(Files.exists(dir.resolve("replica"))).isFalse();
        ServerScripts.Run delay = ServerScripts.run(script, 30, Map.of(), "delay", dir.toString(), "1s");
        assertThat(delay.exit()).isEqualTo(1);
        assertThat(delay.output()).contains("no replica runs in");
        Map<String, String> none = new HashMap<>(urls);
        assertThat(PostgresStoreProvider.config(StoreSettings.forProvider(new PostgresStoreProvider(), none))
                        .replicas()
                        .urls())
                .isEmpty();
        System.out.printf(
                "PostgresReplicasScriptTest: primary alone started and checked in %.1f s%n",
                (System.nanoTime() - t0) / 1e9);
    }
}
