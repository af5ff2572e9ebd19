package org.bgbench.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** jdbc.timeout: a session's statements are stopped after it (H2 cancels a long query); loads are not bounded. */
class JdbcTimeoutTest {
    /** A query H2 needs far more than a second for. */
    private static final String SLOW = "SELECT SUM(X * 2) FROM SYSTEM_RANGE(1, 10000000000) WHERE MOD(X, 7) <> 3";

    @TempDir
    Path tmp;

    @Test
    void aSessionsStatementStopsAfterTheTimeout() throws SQLException {
        try (JdbcStore s = JdbcTests.openH2(tmp, JdbcStoreProvider.TIMEOUT, "1s")) {
            assertThat(s.callTimeout()).isEqualTo(Duration.ofSeconds(2));
            try (Connection c = s.connectForSession();
                    PreparedStatement ps = c.prepareStatement(SLOW);
                    Statement st = c.createStatement()) {
                assertThat(ps.getQueryTimeout()).isEqualTo(1);
                assertThat(st.getQueryTimeout()).isEqualTo(1);
                long start = System.nanoTime();
                assertThatThrownBy(ps::executeQuery).isInstanceOf(SQLException.class);
                assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
            }
            // The pool's other uses (schema, index builds) and the loaders' connections have no query timeout.
            try (Connection c = s.connect();
                    Statement st = c.createStatement()) {
                assertThat(st.getQueryTimeout()).isZero();
            }
            try (Connection c = s.connectForLoad();
                    Statement st = c.createStatement()) {
                assertThat(st.getQueryTimeout()).isZero();
            }
        }
    }

    @Test
    void theDefaultFollowsBeta() {
        try (JdbcStore s = JdbcTests.openH2(tmp)) {
            assertThat(s.callTimeout()).isEqualTo(Duration.ofSeconds(11));
        }
    }
}
