package org.bgbench.store.cassandra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DriverTimeoutException;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.DriverConfigLoader;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import java.nio.file.Files;
import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.opentest4j.TestAbortedException;

/** The shared single-node server of {@link CassandraServer}: starts, answers CQL, freezes and thaws. */
@Tag("server")
class CassandraServerTest {

    private static CqlSession session(CassandraServer s) {
        return CqlSession.builder()
                .addContactPoints(s.contactAddresses())
                .withLocalDatacenter(s.datacenter())
                .withConfigLoader(DriverConfigLoader.programmaticBuilder()
                        .withDuration(DefaultDriverOption.REQUEST_TIMEOUT, Duration.ofSeconds(30))
                        .build())
                .build();
    }

    private static String releaseVersion(CqlSession session, Duration timeout) {
        Row row = session.execute(SimpleStatement.newInstance("SELECT release_version FROM system.local")
                        .setTimeout(timeout))
                .one();
        return row == null ? null : row.getString("release_version");
    }

    @Test
    void singleIsSharedAndAnswersCql() {
        CassandraServer s = CassandraServer.single();
        assertThat(CassandraServer.single()).isSameAs(s);
        assertThat(s.contactPoints()).matches("127\\.0\\.0\\.1:\\d+");
        assertThat(s.nodes()).isEqualTo(1);
        assertThat(s.datacenter()).isEqualTo("datacenter1");
        assertThat(s.dir()).isDirectory();
        assertThat(s.pids()).containsExactly(s.pid(1));
        assertThat(ProcessHandle.of(s.pid(1)))
                .hasValueSatisfying(h -> assertThat(h.isAlive()).isTrue());
        try (CqlSession session = session(s)) {
            assertThat(releaseVersion(session, Duration.ofSeconds(30))).startsWith("5.0");
        }
        // close() of the shared server does nothing: it still answers afterwards.
        s.close();
        assertThat(ProcessHandle.of(s.pid(1)))
                .hasValueSatisfying(h -> assertThat(h.isAlive()).isTrue());
        assertThat(Files.isDirectory(s.dir())).isTrue();
    }

    @Test
    void frozenNodeDoesNotAnswerUntilThawed() {
        CassandraServer s = CassandraServer.single();
        try (CqlSession session = session(s)) {
            assertThat(releaseVersion(session, Duration.ofSeconds(30))).startsWith("5.0");
            s.freeze(1);
            try {
                long t0 = System.nanoTime();
                assertThatThrownBy(() -> releaseVersion(session, Duration.ofSeconds(2)))
                        .isInstanceOf(DriverTimeoutException.class);
                assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(10));
            } finally {
                s.thaw(1);
            }
            assertThat(releaseVersion(session, Duration.ofSeconds(30))).startsWith("5.0");
        }
    }

    @Test
    void nodetoolTalksToTheNode() {
        CassandraServer s = CassandraServer.single();
        assertThat(s.nodetool(1, "status")).containsPattern("(?m)^UN +127\\.0\\.0\\.1 ");
    }

    @Test
    void rejectsNodesItDoesNotHave() {
        CassandraServer s = CassandraServer.single();
        assertThatThrownBy(() -> s.pid(2))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("node must be from 1 to 1, not 2");
        assertThatThrownBy(() -> s.freeze(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> CassandraServer.cluster(0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void missingJdkFailsUnderCiAndSkipsOtherwise() {
        assertThatThrownBy(() -> CassandraServer.require(false, true))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("openjdk-17-jdk-headless")
                .hasMessageContaining("CI is set");
        assertThatThrownBy(() -> CassandraServer.require(false, false))
                .isInstanceOf(TestAbortedException.class)
                .hasMessageContaining("skipping");
        CassandraServer.require(true, true);
        assertThat(CassandraServer.libCache().toString()).endsWith("/.cache/bg/cassandra-5.0.9/lib");
    }
}
