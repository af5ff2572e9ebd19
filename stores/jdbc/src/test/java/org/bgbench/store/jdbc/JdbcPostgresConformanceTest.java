package org.bgbench.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.bgbench.store.DataStore;
import org.bgbench.store.conformance.StoreConformanceSuite;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The conformance suite through {@code jdbc} on PostgreSQL: an embedded server (the postgres store's zonky binaries),
 * the driver given as a jar path (pgJDBC of this build's local repository), the dialect guessed from the URL.
 */
@Tag("server")
class JdbcPostgresConformanceTest extends StoreConformanceSuite {
    @TempDir
    static Path dir;
    private EmbeddedPostgres pg;

    static Path driverJar() {
        String v = JdbcTests.version("postgresql");
        Path jar = JdbcTests.m2().resolve("org/postgresql/postgresql/" + v + "/postgresql-" + v + ".jar");
        assertThat(jar).as("pgJDBC in the local repository").isRegularFile();
        return jar;
    }

    static EmbeddedPostgres start(Path dir) {
        try {
            Path data = Files.createDirectories(dir.resolve("pgdata"));
            return EmbeddedPostgres.builder().setDataDirectory(data).setCleanDataDirectory(true)
                    .setPGStartupWait(Duration.ofSeconds(60))
                    .setServerConfig("max_connections", "200")
                    .setServerConfig("fsync", "off")
                    .setServerConfig("synchronous_commit", "off")
                    .start();
        } catch (IOException e) {
            throw new IllegalStateException("cannot start the embedded PostgreSQL: " + e.getMessage(), e);
        }
    }

    private DataStore openOn() {
        return JdbcTests.open(dir, JdbcStoreProvider.URL,
                "jdbc:postgresql://localhost:" + pg.getPort() + "/postgres",
                JdbcStoreProvider.USER, "postgres",
                JdbcStoreProvider.DRIVER_JAR, driverJar().toString(),
                JdbcStoreProvider.POOL, "16");
    }

    @Override
    protected DataStore openStore() {
        pg = start(dir);
        return openOn();
    }

    @Override
    protected DataStore openAgain() {
        return openOn();
    }

    @Test
    void thePostgresqlDialectIsGuessedAndTheServerReports() {
        JdbcStore s = (JdbcStore) store;
        assertThat(s.dialectDescription()).isEqualTo("postgresql (guessed from jdbc.url)");
        assertThat(s.product()).startsWith("PostgreSQL 14");
        assertThat(s.inProcess()).isFalse();
    }

    /** Runs before the suite's own @AfterAll: closes the store (closing twice is harmless), then the server. */
    @AfterAll
    void stopServer() throws IOException {
        if (store != null) {
            store.close();
        }
        if (pg != null) {
            pg.close();
        }
    }
}
