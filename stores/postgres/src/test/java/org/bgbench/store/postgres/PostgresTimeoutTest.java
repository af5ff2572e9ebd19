package org.bgbench.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.bgbench.model.GraphSpec;
import org.bgbench.model.generator.SocialGraph;
import org.bgbench.store.ProfileView;
import org.bgbench.store.StoreException;
import org.bgbench.store.StoreSession;
import org.bgbench.store.conformance.StoreConformanceSuite;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@code postgres.timeout} against a real server: a statement that waits too long is cancelled by the server and the
 * session goes on; a server that stops answering (SIGSTOP: the kernel still accepts connections, nothing replies) fails
 * the call a second later, and once it answers again the session works on a new connection, the pool not poisoned;
 * sessions' timeouts never reach the pool's other users.
 */
@Tag("server")
class PostgresTimeoutTest {
    static final Duration TIMEOUT = Duration.ofSeconds(2);
    static final SocialGraph GRAPH = new SocialGraph(GraphSpec.builder()
            .members(50)
            .friendsPerMember(4)
            .resourcesPerMember(2)
            .commentsPerResource(1)
            .attributeCount(2)
            .attributeLength(4)
            .commentLength(10)
            .fragments(2)
            .seed(3)
            .build());
    private static PostgresStore store;

    @BeforeAll
    static void start() {
        // Two pooled connections: the maintenance connection below is the one a closed session gave back.
        store = PostgresStore.open(
                PostgresConfig.embedded().pool(2).timeout(TIMEOUT).build());
        StoreConformanceSuite.load(store, GRAPH, 1);
    }

    @AfterAll
    static void stop() {
        if (store != null) {
            store.close();
        }
    }

    private static String show(Connection c, String setting) throws Exception {
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SHOW " + setting)) {
            rs.next();
            return rs.getString(1);
        }
    }

    @Test
    void aStatementThatWaitsTooLongIsCancelledAndTheSessionGoesOn() throws Exception {
        assertThat(store.callTimeout()).isEqualTo(Duration.ofSeconds(3));
        try (Connection locker = store.connectForLoad();
                Statement st = locker.createStatement();
                StoreSession s = store.openSession()) {
            ProfileView view = new ProfileView(GRAPH.attributeCount());
            s.viewProfile(0, 1, view);
            locker.setAutoCommit(false);
            st.execute("LOCK TABLE members IN ACCESS EXCLUSIVE MODE");
            long t0 = System.nanoTime();
            assertThatThrownBy(() -> s.viewProfile(0, 1, view))
                    .isInstanceOf(StoreException.class)
                    .hasMessageContaining("statement timeout");
            double waited = (System.nanoTime() - t0) / 1e9;
            assertThat(waited)
                    .as("cancelled by the server after postgres.timeout")
                    .isBetween(1.8, 4.0);
            locker.rollback();
            s.viewProfile(0, 1, view);
            assertThat(view.memberId).as("the same session answers again").isEqualTo(1);
        }
        // The session's connection went back to the pool without its timeouts.
        try (Connection c = store.connect();
                Connection d = store.connect()) {
            assertThat(List.of(show(c, "statement_timeout"), show(d, "statement_timeout")))
                    .containsOnly("0");
        }
    }

    @Test
    void aServerThatStopsAnsweringFailsTheCallAndTheSessionRecoversWhenItAnswersAgain() throws Exception {
        ProfileView view = new ProfileView(GRAPH.attributeCount());
        try (StoreSession s = store.openSession()) {
            s.viewProfile(0, 2, view);
            List<Long> pids = serverProcesses();
            assertThat(pids).isNotEmpty();
            long t0 = System.nanoTime();
            try {
                signal("STOP", pids);
                assertThatThrownBy(() -> s.viewProfile(0, 2, view))
                        .isInstanceOf(StoreException.class)
                        .hasMessageContaining("I/O error");
                double waited = (System.nanoTime() - t0) / 1e9;
                assertThat(waited)
                        .as("the read timeout, postgres.timeout + 1 s")
                        .isBetween(2.8, 6.0);
            } finally {
                signal("CONT", pids);
            }
            s.viewProfile(0, 3, view);
            assertThat(view.memberId)
                    .as("a new connection from the pool serves the same session")
                    .isEqualTo(3);
        }
    }

    /** The postmaster and its children (backends, background workers). */
    private static List<Long> serverProcesses() {
        List<Long> pids = new ArrayList<>(store.localServerPids());
        for (long pid : List.copyOf(pids)) {
            ProcessHandle.of(pid).ifPresent(p -> p.descendants().forEach(d -> pids.add(d.pid())));
        }
        return pids;
    }

    static void signal(String signal, List<Long> pids) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("kill", "-" + signal));
        pids.forEach(p -> cmd.add(Long.toString(p)));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        p.waitFor();
    }
}
