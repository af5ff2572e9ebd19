package org.bgbench.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.bgbench.store.DataStore;
import org.bgbench.store.conformance.StoreConformanceSuite;
import org.bgbench.store.mariadb.MariadbServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The conformance suite through {@code jdbc} on a private MariaDB server (scripts/mariadb.sh; fails under CI when
 * mariadbd is missing, skips otherwise): MariaDB Connector/J from BG's own class path (no jar given), the dialect
 * named {@code mysql} (an alias of mariadb).
 */
@Tag("server")
class JdbcMariadbConformanceTest extends StoreConformanceSuite {
    @TempDir
    static Path dir;
    private MariadbServer server;

    private DataStore openOn() {
        return JdbcTests.open(dir, JdbcStoreProvider.URL, server.url(), JdbcStoreProvider.USER, "bg",
                JdbcStoreProvider.PASSWORD, "bg", JdbcStoreProvider.DIALECT, "mysql", JdbcStoreProvider.POOL, "16");
    }

    @Override
    protected DataStore openStore() {
        server = MariadbServer.start();
        return openOn();
    }

    @Override
    protected DataStore openAgain() {
        return openOn();
    }

    @Test
    void theMariadbDialectAndBgsOwnDriverAreUsed() {
        JdbcStore s = (JdbcStore) store;
        assertThat(s.dialectDescription()).isEqualTo("mariadb");
        assertThat(s.product()).containsIgnoringCase("mariadb");
        assertThat(s.localServerPids()).as("a generic store does not look for the server's process").isEmpty();
    }

    /** Runs before the suite's own @AfterAll: closes the store (closing twice is harmless), then the server. */
    @AfterAll
    void stopServer() {
        if (store != null) {
            store.close();
        }
        if (server != null) {
            server.close();
        }
    }
}
