package org.bgbench.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.bgbench.model.GraphSpec;
import org.bgbench.model.generator.SocialGraph;
import org.bgbench.model.state.GraphState;
import org.bgbench.store.DataStore;
import org.bgbench.store.MemberList;
import org.bgbench.store.ProfileView;
import org.bgbench.store.StoreException;
import org.bgbench.store.StoreImage;
import org.bgbench.store.StoreProvider;
import org.bgbench.store.StoreRegistry;
import org.bgbench.store.StoreSession;
import org.bgbench.store.StoreSettings;
import org.bgbench.store.conformance.StateComparison;
import org.bgbench.store.conformance.StoreConformanceSuite;
import org.bgbench.store.relational.SessionsAtOnce;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.postgresql.PGConnection;

/** Connection handling, errors users see, and the server pid, against one embedded PostgreSQL. */
@Tag("server")
class PostgresStoreTest {
    private static PostgresStore embedded;
    private static int port;

    @BeforeAll
    static void start() throws Exception {
        embedded = PostgresStore.open(PostgresConfig.embedded().build());
        port = embedded.embeddedServer().port();
        // A role that must give a password, so a wrong one can be refused (the embedded server trusts everyone else).
        try (Connection c = DriverManager.getConnection(embedded.url(), "postgres", "");
                Statement st = c.createStatement()) {
            st.execute("CREATE ROLE bguser LOGIN PASSWORD 'right'");
            st.execute("CREATE DATABASE bg OWNER bguser");
            Path hba = embedded.embeddedServer().dataDirectory().resolve("pg_hba.conf");
            Files.writeString(hba, """
                    local all all trust
                    host all bguser 127.0.0.1/32 scram-sha-256
                    host all bguser ::1/128 scram-sha-256
                    host all all 127.0.0.1/32 trust
                    host all all ::1/128 trust
                    """);
            st.execute("SELECT pg_reload_conf()");
        }
    }

    @AfterAll
    static void stop() {
        embedded.close();
    }

    private static PostgresStore connect(String url, String user, String password) {
        return PostgresStore.open(
                PostgresConfig.at(url).user(user).password(password).pool(4).build());
    }

    private static String url(String database) {
        return "jdbc:postgresql://localhost:" + port + "/" + database;
    }

    @Test
    void sixtyFourSessionsAskingAtOnceAllGetAConnection() throws Exception {
        // Hikari's adder could miss waiting borrowers when many asked at once, and one timed out with the pool far
        // from full; BG asks again in slices. Three rounds of 64 at once, each holding its connection until all have.
        try (PostgresStore store = PostgresStore.open(
                PostgresConfig.at(embedded.url()).user("postgres").pool(80).build())) {
            SessionsAtOnce.allGetAConnection(store::connect, 64, 3);
        }
    }

    @Test
    void aWrongPasswordIsReportedAsSuch() {
        assertThatThrownBy(() -> connect(url("bg"), "bguser", "wrong"))
                .isInstanceOf(StoreException.class)
                .hasMessage("authentication failed for user 'bguser' at PostgreSQL localhost:" + port
                        + " (check postgres.password)");
    }

    @Test
    void theRightPasswordConnectsAndAnEmptyDatabaseHoldsNoGraph() {
        try (PostgresStore store = connect(url("bg"), "bguser", "right")) {
            assertThat(store.loadedGraph()).isEmpty();
            assertThat(store.poolSize()).isEqualTo(4);
        }
    }

    @Test
    void aClosedPortIsReportedAsUnreachable() throws Exception {
        int closed;
        try (ServerSocket s = new ServerSocket(0)) {
            closed = s.getLocalPort();
        }
        assertThatThrownBy(() -> connect("jdbc:postgresql://localhost:" + closed + "/bg", "postgres", null))
                .isInstanceOf(StoreException.class)
                .hasMessageStartingWith("cannot reach PostgreSQL at localhost:" + closed + ": connection refused");
    }

    @Test
    void aMissingDatabaseIsNamed() {
        assertThatThrownBy(() -> connect(url("nosuchdb"), "postgres", null))
                .isInstanceOf(StoreException.class)
                .hasMessageStartingWith("database 'nosuchdb' does not exist on PostgreSQL at localhost:" + port);
    }

    @Test
    void anUnknownHostAndABadUrlAreNamed() {
        assertThatThrownBy(() -> connect("jdbc:postgresql://no-such-host.invalid:5432/bg", "postgres", null))
                .isInstanceOf(StoreException.class)
                .hasMessageStartingWith("cannot resolve host 'no-such-host.invalid'");
        assertThatThrownBy(() -> connect("jdbc:mysql://localhost/bg", "postgres", null))
                .isInstanceOf(StoreException.class)
                .hasMessageContaining("is not a PostgreSQL JDBC URL");
    }

    @Test
    void thePostmasterPidIsKnownForEmbeddedAndLocalServers() {
        List<Long> pids = embedded.localServerPids();
        assertThat(pids).hasSize(1);
        assertThat(ProcessHandle.of(pids.get(0))).as("postmaster alive").isPresent();
        try (PostgresStore local = connect(url("postgres"), "postgres", null)) {
            assertThat(local.localServerPids()).as("found through /proc").isEqualTo(pids);
        }
    }

    @Test
    void theProviderIsDiscoveredAndAcceptsUscKeys() {
        StoreProvider provider = StoreRegistry.discover().get("postgres");
        Map<String, String> given = new HashMap<>();
        given.put("db.url", url("bg"));
        given.put("db.user", "bguser");
        given.put("db.passwd", "right");
        given.put("postgres.pool", "3");
        try (DataStore store = provider.open(StoreSettings.forProvider(provider, given))) {
            assertThat(((PostgresStore) store).url()).isEqualTo(url("bg"));
            assertThat(((PostgresStore) store).poolSize()).isEqualTo(3);
        }
        given.put("postgres.password", "wrong");
        assertThatThrownBy(() -> provider.open(StoreSettings.forProvider(provider, given)))
                .as("an explicit postgres.* key wins over its alias")
                .hasMessageContaining("authentication failed for user 'bguser'");
    }

    @Test
    void copyEscapesTextAndBytesFaithfully() throws Exception {
        String tricky = "tab\there\nnew\\line\rcr \u00e9t\u00e9 \u4e2d \ud83d\ude00 end";
        byte[] bytes = new byte[256];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = (byte) i;
        }
        CopyBuffer b = new CopyBuffer();
        b.number(-42).tab().text(tricky).tab().bytes(bytes).tab().text(null).endRow();
        b.number(Long.MAX_VALUE)
                .tab()
                .text("")
                .tab()
                .bytes(new byte[0])
                .tab()
                .nul()
                .endRow();
        try (Connection c = DriverManager.getConnection(embedded.url(), "postgres", "");
                Statement st = c.createStatement()) {
            st.execute("CREATE TEMP TABLE t (n BIGINT, s TEXT, b BYTEA, z TEXT)");
            var in = c.unwrap(PGConnection.class).getCopyAPI().copyIn("COPY t FROM STDIN");
            in.writeToCopy(b.array(), 0, b.length());
            assertThat(in.endCopy()).isEqualTo(2);
            try (ResultSet rs = st.executeQuery("SELECT n, s, b, z FROM t ORDER BY n")) {
                rs.next();
                assertThat(rs.getLong(1)).isEqualTo(-42);
                assertThat(rs.getString(2)).isEqualTo(tricky);
                assertThat(rs.getBytes(3)).isEqualTo(bytes);
                assertThat(rs.getString(4)).isNull();
                rs.next();
                assertThat(rs.getLong(1)).isEqualTo(Long.MAX_VALUE);
                assertThat(rs.getString(2)).isEmpty();
                assertThat(rs.getBytes(3)).isEmpty();
                assertThat(rs.getString(4)).isNull();
            }
        }
    }

    @Test
    void anImageBringsBackTheLoadedGraphAfterWrites() {
        GraphSpec spec = GraphSpec.builder()
                .members(120)
                .friendsPerMember(6)
                .resourcesPerMember(3)
                .commentsPerResource(1)
                .confirmedFraction(0.6)
                .attributeLength(8)
                .commentLength(20)
                .fragments(2)
                .seed(9)
                .build();
        SocialGraph graph = new SocialGraph(spec);
        StoreImage image = embedded.image().orElseThrow();
        StoreConformanceSuite.load(embedded, graph, 2);
        assertThat(image.exists()).as("nothing saved yet").isFalse();
        image.save();
        assertThat(image.exists()).isTrue();
        try (StoreSession s = embedded.openSession()) {
            int owner = graph.memberId(5);
            long rid = graph.resourceId(5, 0);
            s.postCommentOnResource(owner, owner, rid, graph.firstFreeCommentId(), 1L, "after the image");
            s.deleteCommentFromResource(owner, rid, graph.commentId(rid, 0));
            assertThatThrownBy(image::restore)
                    .isInstanceOf(StoreException.class)
                    .hasMessageContaining("close the 1 open BG session(s) first");
        }
        assertThat(StateComparison.differences(embedded, new GraphState(graph), 5))
                .isNotEmpty();
        image.restore();
        assertThat(embedded.loadedGraph()).contains(spec.fingerprint());
        assertThat(StateComparison.differences(embedded, new GraphState(graph), 5))
                .isEmpty();
    }

    @Test
    void aLoadedGraphServesSessionsOfAStoreOpenedLater() {
        GraphSpec spec = GraphSpec.builder()
                .members(200)
                .memberIdOffset(500)
                .friendsPerMember(10)
                .resourcesPerMember(5)
                .commentsPerResource(2)
                .confirmedFraction(0.7)
                .images(true)
                .thumbnailBytes(16)
                .profileImageBytes(64)
                .attributeCount(13)
                .attributeLength(10)
                .commentLength(20)
                .fragments(2)
                .seed(3)
                .build();
        SocialGraph graph = new SocialGraph(spec);
        try (PostgresStore store = connect(url("bg"), "bguser", "right")) {
            StoreConformanceSuite.load(store, graph, 4);
        }
        try (PostgresStore store = connect(url("bg"), "bguser", "right");
                StoreSession s = store.openSession()) {
            assertThat(store.loadedGraph()).contains(spec.fingerprint());
            ProfileView p = new ProfileView(spec.attributeCount());
            int id = graph.memberId(17);
            s.viewProfile(id, id, p);
            assertThat(p.attributes.get(12)).as("attr12 column").isEqualTo(graph.attribute(17, 12));
            assertThat(p.pendingCount).isEqualTo(graph.initialPendingCount(17));
            MemberList friends = new MemberList(spec.attributeCount());
            s.listFriends(id, id, friends);
            assertThat(friends.size()).isEqualTo(graph.initialFriendCount(17));
            store.dropSchema();
            assertThat(store.loadedGraph()).isEmpty();
        }
    }
}
