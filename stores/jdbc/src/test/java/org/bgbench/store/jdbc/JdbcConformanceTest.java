package org.bgbench.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Driver;
import java.util.List;
import org.bgbench.store.DataStore;
import org.bgbench.store.mariadb.MariadbServer;
import org.bgbench.store.relational.DesignSuite;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The conformance suite through {@code jdbc} on every engine and setting in {@link Design}, one nested class each:
 * H2 (an engine BG has no binding for) with several dialect files and designs, SQLite, a private MariaDB server and an
 * embedded PostgreSQL, each server started once, by the first design that needs it.
 */
@Tag("server")
class JdbcConformanceTest {
    @TempDir
    static Path dir;

    private static MariadbServer mariadb;
    private static EmbeddedPostgres postgres;
    private static final String REWRITES_DIALECT =
            Path.of("src/test/resources/dialects/h2-rewrites.properties").toString();

    @AfterAll
    static void stopServers() throws IOException {
        if (mariadb != null) {
            mariadb.close();
        }
        if (postgres != null) {
            postgres.close();
        }
    }

    /** The engines and settings: each opens a store in a directory of its own. */
    enum Design implements DesignSuite.Variant {
        /** H2 with the dialect file shipped in stores/jdbc/dialects/h2.properties, the driver by Maven coordinates. */
        H2(d -> JdbcTests.openH2(d)),
        /**
         * H2 with the push feed copying the resource's content: fan-out by {@code INSERT … SELECT … CROSS JOIN}, the
         * sharer's row locked {@code FOR UPDATE}, concurrent AFR/TF.
         */
        H2_PUSH(d -> JdbcTests.openH2(d, "feed.design", "push", "feed.push", "content")),
        /** H2 with the sorted push feed referencing resources. */
        H2_SORTED_PUSH(d -> JdbcTests.openH2(d, "feed.design", "sorted-push")),
        /**
         * H2 with a dialect file that uses every SQL rewrite (src/test/resources/dialects/h2-rewrites.properties):
         * {@code FETCH FIRST}, CLOB text, {@code DROP TABLE} without {@code IF EXISTS}, keys after the load, two rows
         * per friendship.
         */
        H2_REWRITES(d -> JdbcTests.open(
                d,
                JdbcStoreProvider.URL,
                "jdbc:h2:" + d.resolve("bg-h2r").toAbsolutePath(),
                JdbcStoreProvider.DRIVER_MAVEN,
                "com.h2database:h2:" + JdbcTests.version("h2"),
                JdbcStoreProvider.DRIVER,
                "org.h2.Driver",
                JdbcStoreProvider.DIALECT,
                REWRITES_DIALECT,
                JdbcStoreProvider.FRIENDSHIP_ROWS,
                "2")),
        /**
         * H2 in CIKM 2013's Boosted design (figure 8): friendships in two tables with two rows each, counts as member
         * attributes, profile images in files; the physical design settings reach a store BG has no binding for.
         * With the dialect file of every rewrite (keys added after the load: the two friendship tables' keys).
         */
        H2_BOOSTED(d -> JdbcTests.open(
                d,
                JdbcStoreProvider.URL,
                "jdbc:h2:" + d.resolve("bg-h2b").toAbsolutePath(),
                JdbcStoreProvider.DRIVER_MAVEN,
                "com.h2database:h2:" + JdbcTests.version("h2"),
                JdbcStoreProvider.DIALECT,
                REWRITES_DIALECT,
                "friendship.tables",
                "2",
                "friendship.rows",
                "2",
                "counts",
                "attributes",
                "images",
                "fs",
                "images.dir",
                d.resolve("images").toString())),
        /**
         * SQLite: the driver the sqlite store uses, resolved by its Maven coordinates from the local repository and
         * loaded in a class loader of its own; the dialect guessed from the URL.
         */
        SQLITE(d -> JdbcTests.open(
                d,
                JdbcStoreProvider.URL,
                "jdbc:sqlite:" + d.resolve("bg.sqlite"),
                JdbcStoreProvider.DRIVER_MAVEN,
                "org.xerial:sqlite-jdbc:" + JdbcTests.version("sqlite"))),
        /**
         * A private MariaDB server (scripts/mariadb.sh; fails under CI when mariadbd is missing, skips otherwise):
         * MariaDB Connector/J from BG's own class path (no jar given), the dialect named {@code mysql} (an alias).
         */
        MARIADB(d -> JdbcTests.open(
                d,
                JdbcStoreProvider.URL,
                mariadb().url(),
                JdbcStoreProvider.USER,
                "bg",
                JdbcStoreProvider.PASSWORD,
                "bg",
                JdbcStoreProvider.DIALECT,
                "mysql",
                JdbcStoreProvider.POOL,
                "16")),
        /**
         * An embedded PostgreSQL (the postgres store's zonky binaries), the driver given as a jar path (pgJDBC of
         * this build's local repository), the dialect guessed from the URL.
         */
        POSTGRES(d -> JdbcTests.open(
                d,
                JdbcStoreProvider.URL,
                "jdbc:postgresql://localhost:" + postgres().getPort() + "/postgres",
                JdbcStoreProvider.USER,
                "postgres",
                JdbcStoreProvider.DRIVER_JAR,
                JdbcTests.pgjdbcJar().toString(),
                JdbcStoreProvider.POOL,
                "16"));

        private final Opener opener;

        Design(Opener opener) {
            this.opener = opener;
        }

        @Override
        public DataStore open() {
            try {
                return opener.open(Files.createDirectories(dir.resolve(name())));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        @Override
        public boolean oddGraph() {
            return false;
        }
    }

    /** Opens a store whose files (database, driver cache) live in the given directory. */
    private interface Opener {
        JdbcStore open(Path dir);
    }

    private static synchronized MariadbServer mariadb() {
        return mariadb != null ? mariadb : (mariadb = MariadbServer.start());
    }

    private static synchronized EmbeddedPostgres postgres() {
        return postgres != null ? postgres : (postgres = JdbcTests.startPostgres(dir.resolve("postgres")));
    }

    @Nested
    class H2 extends DesignSuite {
        H2() {
            super(Design.H2);
        }

        @Test
        void theDialectFileIsUsed() {
            JdbcStore s = (JdbcStore) store;
            assertThat(s.dialectDescription()).endsWith("h2.properties");
            assertThat(s.product()).startsWith("H2");
            assertThat(s.inProcess()).isTrue();
        }
    }

    @Nested
    class H2Push extends DesignSuite {
        H2Push() {
            super(Design.H2_PUSH);
        }
    }

    @Nested
    class H2SortedPush extends DesignSuite {
        H2SortedPush() {
            super(Design.H2_SORTED_PUSH);
        }
    }

    @Nested
    class H2Rewrites extends DesignSuite {
        H2Rewrites() {
            super(Design.H2_REWRITES);
        }
    }

    @Nested
    class H2Boosted extends DesignSuite {
        H2Boosted() {
            super(Design.H2_BOOSTED);
        }
    }

    @Nested
    class Sqlite extends DesignSuite {
        Sqlite() {
            super(Design.SQLITE);
        }

        @Test
        void theDriverComesFromItsJarAndTheDialectFromTheUrl() {
            JdbcStore s = (JdbcStore) store;
            assertThat(s.dialectDescription()).isEqualTo("sqlite (guessed from jdbc.url)");
            assertThat(s.product()).startsWith("SQLite");
            assertThat(s.inProcess()).isTrue();
            assertThat(s.image()).isEmpty();
            assertThat(s.localServerPids()).isEmpty();
            // Loaded in the jdbc store's own class loader, not BG's class path (which holds sqlite-jdbc too).
            Driver d = DriverLoader.load(
                    null,
                    List.of(JdbcTests.localOnly(dir)
                            .resolve(
                                    JdbcStoreProvider.DRIVER_MAVEN,
                                    "org.xerial:sqlite-jdbc:" + JdbcTests.version("sqlite"))),
                    "jdbc:sqlite:x");
            assertThat(d.getClass().getClassLoader()).isNotSameAs(getClass().getClassLoader());
            assertThat(d.getClass().getClassLoader().getName()).isEqualTo("bg-jdbc-driver");
        }
    }

    @Nested
    class Mariadb extends DesignSuite {
        Mariadb() {
            super(Design.MARIADB);
        }

        @Test
        void theMariadbDialectAndBgsOwnDriverAreUsed() {
            JdbcStore s = (JdbcStore) store;
            assertThat(s.dialectDescription()).isEqualTo("mariadb");
            assertThat(s.product()).containsIgnoringCase("mariadb");
            assertThat(s.localServerPids())
                    .as("a generic store does not look for the server's process")
                    .isEmpty();
        }
    }

    @Nested
    class Postgres extends DesignSuite {
        Postgres() {
            super(Design.POSTGRES);
        }

        @Test
        void thePostgresqlDialectIsGuessedAndTheServerReports() {
            JdbcStore s = (JdbcStore) store;
            assertThat(s.dialectDescription()).isEqualTo("postgresql (guessed from jdbc.url)");
            assertThat(s.product()).startsWith("PostgreSQL 14");
            assertThat(s.inProcess()).isFalse();
        }
    }

    @Test
    void everyDesignRunsOnce() {
        assertThat(DesignSuite.designsOf(this)).containsExactlyInAnyOrder(Design.values());
    }
}
