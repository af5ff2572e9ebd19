package org.bgbench.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.PrintStream;
import java.net.ConnectException;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.time.Duration;
import java.util.logging.Level;
import java.util.logging.LogManager;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** LibraryLog's lines: the library, the message and its root cause in words; repeats counted; the levels it reads. */
@Tag("server")
class LibraryLogTest {
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);

    private static LogRecord record(String logger, Level level, String message, Throwable thrown) {
        LogRecord r = new LogRecord(level, message);
        r.setLoggerName(logger);
        r.setThrown(thrown);
        return r;
    }

    private String printed() {
        return bytes.toString(StandardCharsets.UTF_8);
    }

    @Test
    void aRecordIsOneLineNamingTheLibraryAndTheRootCauseWithoutClassNames() {
        LibraryLog log = new LibraryLog(out, false, Duration.ofHours(1));
        Throwable broken = new SQLException("An I/O error occurred while sending to the backend.", new EOFException());
        log.publish(record(
                "com.zaxxer.hikari.pool.ProxyConnection",
                Level.WARNING,
                "bg-postgres - Connection "
                        + "org.postgresql.jdbc.PgConnection@cd1e646 marked as broken because of SQLSTATE(08006)",
                broken));
        log.publish(record(
                "com.datastax.oss.driver.internal.core.control.ControlConnection",
                Level.WARNING,
                "[s0] Error connecting to Node(endPoint=/127.0.0.1:1), trying next node (io.netty.channel."
                        + "StacklessClosedChannelException)",
                new IllegalStateException("x", new ConnectException("Connection refused"))));
        log.publish(record("org.bgbench.store.mongodb.MongoStore", Level.WARNING, "mongodb: FerretDB 2.1", null));
        log.publish(record(
                "io.grpc.internal.ManagedChannelImpl", Level.SEVERE, "java.lang.RuntimeException: " + "boom", null));
        log.close();
        assertThat(printed()).isEqualTo("""
                bg: connection pool: bg-postgres - Connection PgConnection marked as broken because of \
                SQLSTATE(08006): An I/O error occurred while sending to the backend.
                bg: Cassandra driver: [s0] Error connecting to Node(endPoint=/127.0.0.1:1), trying next node: \
                Connection refused
                bg: warning: mongodb: FerretDB 2.1
                bg: gRPC: boom
                """);
    }

    @Test
    void linesLikeOnePrintedAreCountedAndTheCountPrintedOnce() {
        LibraryLog log = new LibraryLog(out, false, Duration.ofHours(1));
        for (int i = 0; i < 38; i++) {
            log.publish(record(
                    "com.zaxxer.hikari.pool.PoolBase",
                    Level.WARNING,
                    "bg-postgres - Failed to validate " + "connection org.postgresql.jdbc.PgConnection@"
                            + Integer.toHexString(1000 + i),
                    null));
        }
        log.publish(record("org.postgresql.Driver", Level.WARNING, "Connection to localhost:5432 refused", null));
        log.close();
        assertThat(printed()).isEqualTo("""
                bg: connection pool: bg-postgres - Failed to validate connection PgConnection
                bg: PostgreSQL driver: Connection to localhost:5432 refused
                bg: connection pool: bg-postgres - Failed to validate connection PgConnection (and 37 more like it)
                """);
    }

    @Test
    void withBgDebugTheStackTraceFollowsTheLine() {
        LibraryLog log = new LibraryLog(out, true, Duration.ofHours(1));
        log.publish(record("org.mariadb.jdbc.Driver", Level.SEVERE, "lost", new ConnectException("refused")));
        log.close();
        assertThat(printed())
                .startsWith("bg: MariaDB driver: lost: refused\njava.net.ConnectException: refused\n" + "\tat ");
    }

    /** bg-logging.properties, as Bg.main reads it: every logger ends in LibraryLog, the drivers at their levels. */
    @Test
    void theConfigurationRoutesTheDriversLoggersThroughLibraryLog() throws Exception {
        try {
            LibraryLog.install();
            Logger root = Logger.getLogger("");
            assertThat(root.getHandlers()).hasSize(1).hasOnlyElementsOfType(LibraryLog.class);
            for (String driver : new String[] {
                "com.datastax.oss.driver.internal.core.pool.ChannelPool",
                "com.zaxxer.hikari.pool.HikariPool",
                "org.postgresql.core.v3.QueryExecutorImpl",
                "io.grpc.Context",
                "io.netty.util.ResourceLeakDetector",
                "io.zonky.test.db.postgres.embedded.EmbeddedPostgres",
                "org.mongodb.driver.cluster"
            }) {
                Logger l = Logger.getLogger(driver);
                assertThat(l.isLoggable(Level.WARNING)).as(driver).isTrue();
                assertThat(l.isLoggable(Level.INFO)).as(driver).isFalse();
            }
            assertThat(Logger.getLogger("org.mariadb.jdbc.message").isLoggable(Level.WARNING))
                    .isFalse();
            // SLF4J (the Cassandra driver's API) is bound to java.util.logging.
            assertThat(LoggerFactory.getILoggerFactory().getClass().getName()).contains("JDK14");
        } finally {
            LogManager.getLogManager().readConfiguration();
        }
    }
}
