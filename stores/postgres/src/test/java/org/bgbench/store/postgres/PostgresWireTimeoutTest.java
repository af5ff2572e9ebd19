package org.bgbench.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.bgbench.model.generator.SocialGraph;
import org.bgbench.store.MemberList;
import org.bgbench.store.ProfileView;
import org.bgbench.store.StoreException;
import org.bgbench.store.StoreSession;
import org.bgbench.store.conformance.StoreConformanceSuite;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@code postgres.timeout} with {@code postgres.client=wire}, as {@link PostgresTimeoutTest} checks it for pgJDBC: the
 * server cancels a read that waits too long and the session's own-protocol connection goes on; a server that stops
 * answering (SIGSTOP) fails the read a second later, and once it answers again the session reads on a new connection.
 * The embedded server's wire connections come over its Unix socket, so these are the socket's timeouts.
 */
@Tag("server")
class PostgresWireTimeoutTest {
    private static final SocialGraph GRAPH = PostgresTimeoutTest.GRAPH;
    private static PostgresStore store;

    @BeforeAll
    static void start() {
        store = PostgresStore.open(new PostgresStore.Config(null, null, null, 2, true, 1, PostgresStore.Design.BASIC,
                null, PostgresTimeoutTest.TIMEOUT).withClient(PostgresStore.Client.WIRE));
        StoreConformanceSuite.load(store, GRAPH, 1);
    }

    @AfterAll
    static void stop() {
        if (store != null) {
            store.close();
        }
    }

    @Test
    void aReadThatWaitsTooLongIsCancelledAndTheConnectionGoesOn() throws Exception {
        try (Connection locker = store.connectForLoad(); Statement st = locker.createStatement();
             StoreSession s = store.openSession()) {
            MemberList friends = new MemberList(GRAPH.attributeCount());
            s.listFriends(0, 1, friends);
            int listed = friends.size();
            locker.setAutoCommit(false);
            st.execute("LOCK TABLE members IN ACCESS EXCLUSIVE MODE");
            long t0 = System.nanoTime();
            assertThatThrownBy(() -> s.listFriends(0, 1, friends)).isInstanceOf(StoreException.class)
                    .hasMessageContaining("LF failed").hasMessageContaining("statement timeout");
            double waited = (System.nanoTime() - t0) / 1e9;
            assertThat(waited).as("cancelled by the server after postgres.timeout").isBetween(1.8, 4.0);
            locker.rollback();
            s.listFriends(0, 1, friends);
            assertThat(friends.size()).as("the same session lists again").isEqualTo(listed);
        }
    }

    @Test
    void theEmbeddedServersWireConnectionsUseItsUnixSocket() throws Exception {
        ProfileView view = new ProfileView(GRAPH.attributeCount());
        try (StoreSession s = store.openSession(); Connection c = store.connectForLoad();
             Statement st = c.createStatement()) {
            s.viewProfile(0, 2, view);
            // The session's pgJDBC connection comes over TCP, its wire connection over the socket (no client address).
            try (ResultSet rs = st.executeQuery("SELECT count(*) FILTER (WHERE client_addr IS NULL), "
                    + "count(*) FILTER (WHERE client_addr IS NOT NULL) FROM pg_stat_activity "
                    + "WHERE application_name = 'bg' AND pid <> pg_backend_pid()")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getInt(1)).as("wire connections over the Unix socket").isGreaterThanOrEqualTo(1);
                assertThat(rs.getInt(2)).as("pgJDBC connections over TCP").isGreaterThanOrEqualTo(1);
            }
        }
    }

    @Test
    void aServerThatStopsAnsweringFailsTheReadAndTheSessionRecoversWhenItAnswersAgain() throws Exception {
        ProfileView view = new ProfileView(GRAPH.attributeCount());
        try (StoreSession s = store.openSession()) {
            s.viewProfile(0, 2, view);
            List<Long> pids = new ArrayList<>(store.localServerPids());
            for (long pid : List.copyOf(pids)) {
                ProcessHandle.of(pid).ifPresent(p -> p.descendants().forEach(d -> pids.add(d.pid())));
            }
            assertThat(pids).isNotEmpty();
            long t0 = System.nanoTime();
            try {
                PostgresTimeoutTest.signal("STOP", pids);
                assertThatThrownBy(() -> s.viewProfile(0, 2, view)).isInstanceOf(StoreException.class)
                        .hasMessageContaining("VP failed: the connection to PostgreSQL is lost");
                double waited = (System.nanoTime() - t0) / 1e9;
                assertThat(waited).as("the read timeout, postgres.timeout + 1 s").isBetween(2.8, 6.0);
            } finally {
                PostgresTimeoutTest.signal("CONT", pids);
            }
            s.viewProfile(0, 3, view);
            assertThat(view.memberId).as("a new connection serves the same session").isEqualTo(3);
        }
    }
}
