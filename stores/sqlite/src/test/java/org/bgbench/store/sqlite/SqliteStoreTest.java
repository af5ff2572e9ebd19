package org.bgbench.store.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.assertj.core.data.Offset;
import org.bgbench.loader.repair.StoreRepair;
import org.bgbench.model.GraphSpec;
import org.bgbench.model.InvalidParameterException;
import org.bgbench.model.generator.Relation;
import org.bgbench.model.generator.SocialGraph;
import org.bgbench.model.state.GraphState;
import org.bgbench.store.CommentList;
import org.bgbench.store.DataStore;
import org.bgbench.store.FeedDesign;
import org.bgbench.store.GraphLoader;
import org.bgbench.store.ProfileView;
import org.bgbench.store.StoreCounts;
import org.bgbench.store.StoreException;
import org.bgbench.store.StoreProvider;
import org.bgbench.store.StoreRegistry;
import org.bgbench.store.StoreSession;
import org.bgbench.store.StoreSetting;
import org.bgbench.store.StoreSettings;
import org.bgbench.store.conformance.StateComparison;
import org.bgbench.store.conformance.StoreConformanceSuite;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SqliteStoreTest {
    private static final GraphSpec SPEC = GraphSpec.builder()
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

    @TempDir
    Path dir;

    @Test
    void aReopenedStoreKnowsItsGraphAndServesSessions() {
        Path file = dir.resolve("a/b/bg.sqlite");
        SocialGraph graph = new SocialGraph(SPEC);
        try (SqliteStore store = new SqliteStore(file, 30_000, 8, 1)) {
            assertThat(store.loadedGraph()).as("no BG tables yet").isEmpty();
            StoreConformanceSuite.load(store, graph, 4);
        }
        assertThat(file).exists();
        try (SqliteStore store = new SqliteStore(file, 30_000, 8, 1);
                StoreSession s = store.openSession()) {
            assertThat(store.loadedGraph()).contains(SPEC.fingerprint());
            ProfileView p = new ProfileView(SPEC.attributeCount());
            int id = graph.memberId(17);
            s.viewProfile(id, id, p);
            assertThat(p.attributes.get(12)).as("attr12 column").isEqualTo(graph.attribute(17, 12));
            assertThat(p.profileImage).isEqualTo(graph.profileImage(17));
            assertThat(p.pendingCount).isEqualTo(graph.initialPendingCount(17));
            assertThat(p.friendCount).isEqualTo(graph.initialFriendCount(17));
        }
    }

    @Test
    void theEndOfALoadTellsHowFarItsIndexesGot() {
        SocialGraph graph = new SocialGraph(SPEC);
        try (SqliteStore store = new SqliteStore(dir.resolve("bg.sqlite"), 30_000, 8, 1)) {
            store.createSchema(SPEC);
            try (GraphLoader l = store.newLoader(graph)) {
                l.load(0, graph.members(), n -> {});
            }
            List<String> steps = new ArrayList<>();
            List<Double> shares = new ArrayList<>();
            store.finishLoad(graph, (fraction, step) -> {
                shares.add(fraction);
                steps.add(step);
            });
            assertThat(steps)
                    .as("one report per index or statistics statement")
                    .hasSizeGreaterThan(1)
                    .anyMatch(s -> s.contains("resources"));
            assertThat(shares).isSorted();
            assertThat(shares.get(shares.size() - 1)).isCloseTo(1.0, Offset.offset(1e-9));
            assertThat(store.loadedGraph()).contains(SPEC.fingerprint());
        }
    }

    @Test
    void aGraphLoadedWithAnotherFriendshipLayoutIsNotReused() {
        Path file = dir.resolve("bg.sqlite");
        try (SqliteStore store = new SqliteStore(file, 30_000, 8, 1)) {
            StoreConformanceSuite.load(store, new SocialGraph(SPEC), 2);
        }
        try (SqliteStore store = new SqliteStore(file, 30_000, 8, 2)) {
            assertThat(store.loadedGraph()).isEmpty();
        }
    }

    @Test
    void loadersReportEveryRowTheyWrite() {
        SocialGraph graph = new SocialGraph(SPEC);
        try (SqliteStore store = new SqliteStore(dir.resolve("bg.sqlite"), 30_000, 8, 1)) {
            store.createSchema(SPEC);
            AtomicLong rows = new AtomicLong();
            try (GraphLoader loader = store.newLoader(graph)) {
                // Uneven ranges, as bg load hands them out.
                loader.load(0, 7, rows::addAndGet);
                loader.load(7, 200, rows::addAndGet);
            }
            store.finishLoad(graph);
            StoreCounts c = store.counts();
            assertThat(c)
                    .isEqualTo(new StoreCounts(new StoreCounts.Social(
                            200,
                            graph.totalFriendships(),
                            graph.totalPendingInvitations(),
                            graph.totalResources(),
                            graph.totalInitialComments())));
            assertThat(rows.get())
                    .isEqualTo(c.members() + c.friendships() + c.pending() + c.resources() + c.comments());
            store.dropSchema();
            assertThat(store.loadedGraph()).isEmpty();
        }
    }

    @Test
    void aFileThatIsNotADatabaseIsRefusedWithItsPath() throws Exception {
        Path file = dir.resolve("notes.txt");
        Files.writeString(
                file, "this is not a database, just some text that is long enough to have a header".repeat(20));
        assertThatThrownBy(() -> new SqliteStore(file, 1000, 8, 1))
                .isInstanceOf(StoreException.class)
                .hasMessageContaining("cannot open SQLite database " + file.toAbsolutePath());
    }

    @Test
    void sessionsOnAStoreWithoutSchemaSayWhatIsMissing() {
        try (SqliteStore store = new SqliteStore(dir.resolve("empty.sqlite"), 1000, 8, 1)) {
            assertThatThrownBy(store::openSession)
                    .isInstanceOf(StoreException.class)
                    .hasMessageContaining("holds no BG schema");
        }
    }

    @Test
    void theProviderIsDiscoveredAndReadsItsSettings() {
        StoreProvider provider = StoreRegistry.discover().get("sqlite");
        Path file = dir.resolve("x/bg.sqlite");
        try (DataStore store = provider.open(
                StoreSettings.forProvider(provider, Map.of("sqlite.file", file.toString(), "friendship.rows", "2")))) {
            assertThat(store).isInstanceOf(SqliteStore.class);
            assertThat(((SqliteStore) store).file()).isEqualTo(file.toAbsolutePath());
        }
        assertThatThrownBy(() -> provider.open(StoreSettings.forProvider(
                        provider, Map.of("sqlite.file", file.toString(), "friendship.rows", "3"))))
                .isInstanceOf(InvalidParameterException.class);
        assertThatThrownBy(() -> provider.open(StoreSettings.forProvider(
                        provider, Map.of("sqlite.file", file.toString(), "sqlite.cache_mb", "-1"))))
                .isInstanceOf(InvalidParameterException.class);
        // The busy timeout is how long a call may wait: it bounds the end of a run.
        try (DataStore store = provider.open(StoreSettings.forProvider(
                provider, Map.of("sqlite.file", file.toString(), "sqlite.busy_timeout_ms", "2500")))) {
            assertThat(store.callTimeout()).isEqualTo(Duration.ofMillis(2500));
        }
        for (String bad : new String[] {"-1", "soon"}) {
            assertThatThrownBy(() -> provider.open(StoreSettings.forProvider(
                            provider, Map.of("sqlite.file", file.toString(), "sqlite.busy_timeout_ms", bad))))
                    .isInstanceOf(InvalidParameterException.class)
                    .hasMessageStartingWith("sqlite.busy_timeout_ms: ");
        }
    }

    @Test
    void theFeedSettingsChooseTheDesignAndRefuseBadValuesInOneLine() {
        StoreProvider provider = StoreRegistry.discover().get("sqlite");
        assertThat(provider.settings()).extracting(StoreSetting::key).contains("feed.design", "feed.push");
        Path file = dir.resolve("feed-settings.sqlite");
        try (DataStore store = provider.open(StoreSettings.forProvider(
                provider,
                Map.of("sqlite.file", file.toString(), "feed.design", "sorted-push", "feed.push", "content")))) {
            assertThat(((SqliteStore) store).feedDesign()).isEqualTo(new FeedDesign(FeedDesign.Kind.SORTED_PUSH, true));
            assertThat(((SqliteStore) store).recordedDesign()).endsWith("feed=sorted-push-content");
        }
        try (DataStore store =
                provider.open(StoreSettings.forProvider(provider, Map.of("sqlite.file", file.toString())))) {
            assertThat(((SqliteStore) store).feedDesign()).isEqualTo(FeedDesign.PULL);
        }
        assertThatThrownBy(() -> provider.open(StoreSettings.forProvider(
                        provider, Map.of("sqlite.file", file.toString(), "feed.design", "fanout"))))
                .isInstanceOf(InvalidParameterException.class)
                .hasMessage("feed.design: expected one of pull, push, sorted-push, got 'fanout'");
        assertThatThrownBy(() -> provider.open(StoreSettings.forProvider(
                        provider, Map.of("sqlite.file", file.toString(), "feed.design", "push", "feed.push", "copy"))))
                .isInstanceOf(InvalidParameterException.class)
                .hasMessageStartingWith("feed.push: ")
                .hasMessageNotContaining("\n");
        assertThatThrownBy(() -> provider.open(StoreSettings.forProvider(
                        provider, Map.of("sqlite.file", file.toString(), "feed.push", "content"))))
                .isInstanceOf(InvalidParameterException.class)
                .hasMessageStartingWith("feed.push: content applies to feed.design=push or sorted-push");
    }

    /** What a person with a SQL prompt might do behind BG's back; {@code bg verify --repair} must undo all of it. */
    @Test
    void aFullRepairFixesRowsChangedByHand() throws Exception {
        for (int rows : new int[] {1, 2}) {
            Path file = dir.resolve("hand-" + rows + ".sqlite");
            SocialGraph graph = new SocialGraph(SPEC);
            GraphState generated = new GraphState(graph);
            try (SqliteStore store = new SqliteStore(file, 30_000, 8, rows)) {
                StoreConformanceSuite.load(store, graph, 2);
                int a = graph.memberId(10);
                int b = graph.memberId(generated.friends(10)[0]);
                int p = graph.memberId(40);
                int q = graph.memberId(generated.friends(40)[0]);
                int x = graph.memberId(0);
                int y = graph.memberId(100);
                assertThat(graph.initialRelation(0, 100)).isEqualTo(Relation.NONE);
                long rid = graph.resourceId(7, 0);
                long altered = graph.commentId(rid, 0);
                long deleted = graph.commentId(graph.resourceId(7, 1), 1);
                long spam = graph.firstFreeCommentId() + 7;
                try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file);
                        Statement st = c.createStatement()) {
                    // One side of a friendship gone (with one row per friendship: the friendship).
                    st.executeUpdate(
                            rows == 2
                                    ? "DELETE FROM friendship WHERE inviterid = " + a + " AND inviteeid = " + b
                                    : "DELETE FROM friendship WHERE ((inviterid = " + a + " AND inviteeid = " + b
                                            + ") OR (" + "inviterid = " + b + " AND inviteeid = " + a
                                            + ")) AND status = 2");
                    if (rows == 1) {
                        // A friendship stored twice: its reversed row added.
                        try (ResultSet r = st.executeQuery("SELECT inviterid, inviteeid FROM friendship "
                                + "WHERE ((inviterid = " + p + " AND inviteeid = " + q + ") OR (inviterid = " + q
                                + " AND inviteeid = " + p + ")) AND status = 2")) {
                            assertThat(r.next()).isTrue();
                            int from = r.getInt(1);
                            int to = r.getInt(2);
                            r.close();
                            st.executeUpdate("INSERT INTO friendship VALUES (" + to + ", " + from + ", 2)");
                        }
                    }
                    // An invitation nobody sent, a comment altered, one deleted, one added.
                    st.executeUpdate("INSERT INTO friendship VALUES (" + x + ", " + y + ", 1)");
                    st.executeUpdate("UPDATE manipulation SET content = 'edited by hand' WHERE mid = " + altered);
                    st.executeUpdate("DELETE FROM manipulation WHERE mid = " + deleted);
                    st.executeUpdate("INSERT INTO manipulation (mid, creatorid, rid, modifierid, timestamp, type, "
                            + "content) VALUES (" + spam + ", " + graph.memberId(7) + ", " + rid + ", " + x
                            + ", 1, 'comment', 'spam')");
                }
                assertThat(StateComparison.differences(store, generated, 50))
                        .as("layout %d", rows)
                        .hasSizeGreaterThan(4);

                StoreRepair.Report r = StoreRepair.toGenerated(store, graph, 3, null);
                assertThat(r.refused()).isEmpty();
                assertThat(r.relationships()).as("layout %d", rows).isEqualTo(rows == 1 ? 3 : 2);
                assertThat(r.comments())
                        .as("altered: deleted and posted again; deleted: posted; added: deleted")
                        .isEqualTo(4);
                assertThat(StateComparison.differences(store, generated, 50))
                        .as("layout %d", rows)
                        .isEmpty();
                try (StoreSession s = store.openSession()) {
                    CommentList list = new CommentList();
                    s.viewCommentsOnResource(a, graph.memberId(7), rid, list);
                    for (int k = 0; k < list.size(); k++) {
                        assertThat(list.get(k).content).isEqualTo(graph.commentContent(list.get(k).commentId));
                    }
                }

                // A row no action lists (a friend who is not a member): the repair cannot see it, the read-back's VP
                // count does, so bg verify --repair reports it and says to reload.
                try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file);
                        Statement st = c.createStatement()) {
                    st.executeUpdate("INSERT INTO friendship VALUES (" + a + ", 99999, 2)");
                    if (rows == 2) {
                        st.executeUpdate("INSERT INTO friendship VALUES (99999, " + a + ", 2)");
                    }
                }
                assertThat(StoreRepair.toGenerated(store, graph, 2, null).storeCalls())
                        .isZero();
                assertThat(StateComparison.differences(store, generated, 50))
                        .anyMatch(d -> d.startsWith("member " + a + ": VP friend count "));
            }
        }
    }
}
