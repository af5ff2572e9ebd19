package org.bgbench.store.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import org.bgbench.model.GraphSpec;
import org.bgbench.model.generator.Relation;
import org.bgbench.model.generator.SocialGraph;
import org.bgbench.model.state.GraphState;
import org.bgbench.store.ProfileView;
import org.bgbench.store.StoreCounts;
import org.bgbench.store.StoreException;
import org.bgbench.store.StoreImage;
import org.bgbench.store.StoreSession;
import org.bgbench.store.conformance.StateComparison;
import org.bgbench.store.conformance.StoreConformanceSuite;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Database images on real SQLite files: save, writes through sessions, restore, and which graph an image holds. */
class SqliteImageTest {
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
    /** Another graph: more members, so another fingerprint. */
    private static final GraphSpec OTHER = GraphSpec.builder()
            .members(150)
            .memberIdOffset(500)
            .friendsPerMember(8)
            .resourcesPerMember(4)
            .commentsPerResource(2)
            .confirmedFraction(0.7)
            .attributeCount(10)
            .attributeLength(10)
            .commentLength(20)
            .fragments(2)
            .seed(3)
            .build();

    @TempDir
    Path dir;

    @Test
    void restoreUndoesEveryWriteAndCanBeRepeated() {
        SocialGraph graph = new SocialGraph(SPEC);
        Path file = dir.resolve("bg.sqlite");
        try (SqliteStore store = new SqliteStore(file, 30_000, 8, 1)) {
            StoreImage image = store.image().orElseThrow();
            assertThatThrownBy(image::restore)
                    .isInstanceOf(StoreException.class)
                    .hasMessageContaining("no saved image");
            StoreConformanceSuite.load(store, graph, 3);
            assertThat(image.exists()).as("before save").isFalse();
            image.save();
            assertThat(image.exists()).as("after save").isTrue();
            assertThat(store.imageFile())
                    .isEqualTo(dir.resolve("bg.sqlite.image").toAbsolutePath())
                    .isRegularFile();
            assertThat(dir.resolve("bg.sqlite.image-wal"))
                    .as("a self-contained image")
                    .doesNotExist();
            assertThat(dir.resolve("bg.sqlite.image.tmp")).doesNotExist();
            StoreCounts loaded = store.counts();

            for (int round = 0; round < 2; round++) {
                GraphState written = new GraphState(graph);
                writeThroughSessions(store, graph, written, 10 + round);
                assertThat(StateComparison.differences(store, written, 10))
                        .as("the writes landed, round %d", round)
                        .isEmpty();
                assertThat(StateComparison.differences(store, new GraphState(graph), 10))
                        .isNotEmpty();
                assertThat(store.counts()).isNotEqualTo(loaded);

                image.restore();

                assertThat(StateComparison.differences(store, new GraphState(graph), 10))
                        .as("freshly loaded again, round %d", round)
                        .isEmpty();
                assertThat(store.counts()).isEqualTo(loaded);
                assertThat(store.loadedGraph()).contains(SPEC.fingerprint());
                assertThat(image.exists()).as("the image survives its restore").isTrue();
            }
        }
        // The restored pages were folded into the database file and the log emptied.
        assertThat(file.resolveSibling("bg.sqlite-wal"))
                .satisfiesAnyOf(
                        p -> assertThat(p).doesNotExist(), p -> assertThat(p).isEmptyFile());
        try (SqliteStore reopened = new SqliteStore(file, 30_000, 8, 1)) {
            assertThat(reopened.loadedGraph()).contains(SPEC.fingerprint());
            assertThat(reopened.image().orElseThrow().exists())
                    .as("an image kept across processes")
                    .isTrue();
            assertThat(StateComparison.differences(reopened, new GraphState(graph), 10))
                    .isEmpty();
        }
    }

    @Test
    void restoreRefusesWhileASessionIsOpenAndLeavesItUsable() {
        SocialGraph graph = new SocialGraph(SPEC);
        try (SqliteStore store = new SqliteStore(dir.resolve("bg.sqlite"), 30_000, 8, 1)) {
            StoreConformanceSuite.load(store, graph, 2);
            StoreImage image = store.image().orElseThrow();
            GraphState written = new GraphState(graph);
            try (StoreSession s = store.openSession()) {
                image.save(); // saving only reads: an open session is fine
                long rid = graph.resourceId(3, 0);
                long mid = written.newCommentId();
                s.postCommentOnResource(graph.memberId(4), graph.memberId(3), rid, mid, 1, "kept until restore");
                written.postComment(rid, mid);
                assertThatThrownBy(image::restore)
                        .isInstanceOf(StoreException.class)
                        .hasMessageContaining("needs the SQLite database to itself")
                        .hasMessageContaining("1 connection(s)")
                        .hasMessageContaining("close every session");
                // Nothing was replaced: the session goes on.
                s.deleteCommentFromResource(graph.memberId(3), rid, graph.commentId(rid, 0));
                written.deleteComment(rid, graph.commentId(rid, 0));
            }
            assertThat(StateComparison.differences(store, written, 10)).isEmpty();
            image.restore();
            assertThat(StateComparison.differences(store, new GraphState(graph), 10))
                    .isEmpty();
        }
    }

    @Test
    void aDamagedImageIsNeitherReportedNorRestored() throws Exception {
        SocialGraph graph = new SocialGraph(SPEC);
        try (SqliteStore store = new SqliteStore(dir.resolve("bg.sqlite"), 30_000, 8, 1)) {
            StoreConformanceSuite.load(store, graph, 2);
            StoreImage image = store.image().orElseThrow();
            image.save();
            Files.writeString(store.imageFile(), "not a database, only text long enough to fill a header".repeat(100));
            assertThat(image.exists()).isFalse();
            GraphState written = new GraphState(graph);
            writeThroughSessions(store, graph, written, 5);
            assertThatThrownBy(image::restore)
                    .isInstanceOf(StoreException.class)
                    .hasMessageContaining("holds no completed load")
                    .hasMessageContaining("save() a new one");
            assertThat(StateComparison.differences(store, written, 10)).isEmpty();
            image.save();
            image.restore();
            assertThat(StateComparison.differences(store, written, 10))
                    .as("saved after the writes")
                    .isEmpty();
        }
    }

    @Test
    void existsOnlyForTheGraphCurrentlyLoaded() {
        Path file = dir.resolve("bg.sqlite");
        SocialGraph graph = new SocialGraph(SPEC);
        SocialGraph other = new SocialGraph(OTHER);
        assertThat(OTHER.fingerprint()).isNotEqualTo(SPEC.fingerprint());
        try (SqliteStore store = new SqliteStore(file, 30_000, 8, 1)) {
            StoreImage image = store.image().orElseThrow();
            assertThat(image.exists()).as("empty store, no image").isFalse();
            assertThatThrownBy(image::save)
                    .isInstanceOf(StoreException.class)
                    .hasMessageContaining("no completed load");
            assertThat(store.imageFile()).doesNotExist();

            StoreConformanceSuite.load(store, graph, 2);
            assertThat(image.exists()).as("loaded, no image").isFalse();
            image.save();
            assertThat(image.exists()).isTrue();

            StoreConformanceSuite.load(store, other, 2);
            assertThat(image.exists()).as("another graph loaded").isFalse();

            // The image still holds the first graph: restoring brings it back, schema (13 attributes, not 10) and all.
            image.restore();
            assertThat(store.loadedGraph()).contains(SPEC.fingerprint());
            assertThat(image.exists()).isTrue();
            assertThat(StateComparison.differences(store, new GraphState(graph), 10))
                    .isEmpty();
            try (StoreSession s = store.openSession()) {
                ProfileView p = new ProfileView(SPEC.attributeCount());
                s.viewProfile(graph.memberId(17), graph.memberId(17), p);
                assertThat(p.attributes.get(12)).as("the image's attr12 column").isEqualTo(graph.attribute(17, 12));
            }

            StoreConformanceSuite.load(store, other, 2);
            image.save(); // replaces the image of the first graph
            assertThat(image.exists()).isTrue();
            StoreConformanceSuite.load(store, graph, 2);
            assertThat(image.exists()).isFalse();
            store.dropSchema();
            assertThat(image.exists()).as("nothing loaded").isFalse();
        }
        // Read with two rows per friendship, neither the database nor the image holds this store's graph.
        try (SqliteStore twoRows = new SqliteStore(file, 30_000, 8, 2)) {
            assertThat(twoRows.image().orElseThrow().exists()).isFalse();
            assertThatThrownBy(twoRows.image().orElseThrow()::restore)
                    .isInstanceOf(StoreException.class)
                    .hasMessageContaining("friendship layout");
        }
    }

    @Test
    void otherConnectionsToTheFileSeeTheRestoredContents() throws Exception {
        SocialGraph graph = new SocialGraph(SPEC);
        Path file = dir.resolve("bg.sqlite");
        try (SqliteStore store = new SqliteStore(file, 30_000, 8, 1)) {
            StoreConformanceSuite.load(store, graph, 2);
            StoreImage image = store.image().orElseThrow();
            image.save();
            // Another client of the file (as another process would be), idle between its statements.
            try (Connection other = DriverManager.getConnection("jdbc:sqlite:" + file)) {
                long comments = comments(other);
                assertThat(comments).isEqualTo(graph.totalInitialComments());
                try (StoreSession s = store.openSession()) {
                    long rid = graph.resourceId(7, 1);
                    s.postCommentOnResource(
                            graph.memberId(8),
                            graph.memberId(7),
                            rid,
                            new GraphState(graph).newCommentId(),
                            1,
                            "gone after restore");
                }
                assertThat(comments(other)).isEqualTo(comments + 1);
                image.restore();
                assertThat(comments(other)).isEqualTo(comments);
            }
        }
    }

    @Test
    void anotherProcessWritingMakesRestoreFailWithoutChangesAndItsReadersDoNotDelayIt() throws Exception {
        SocialGraph graph = new SocialGraph(SPEC);
        Path file = dir.resolve("bg.sqlite");
        try (SqliteStore store = new SqliteStore(file, 1000, 8, 1)) {
            StoreConformanceSuite.load(store, graph, 2);
            StoreImage image = store.image().orElseThrow();
            image.save();
            GraphState written = new GraphState(graph);
            writeThroughSessions(store, graph, written, 3);
            try (Connection other = DriverManager.getConnection("jdbc:sqlite:" + file);
                    Statement st = other.createStatement()) {
                st.execute("BEGIN IMMEDIATE");
                st.executeUpdate("DELETE FROM manipulation");
                assertThatThrownBy(image::restore)
                        .isInstanceOf(StoreException.class)
                        .hasMessageContaining("stayed locked by another connection")
                        .hasMessageContaining("the database is unchanged");
                st.execute("ROLLBACK");
                assertThat(StateComparison.differences(store, written, 10))
                        .as("unchanged")
                        .isEmpty();

                // A reader holding an old snapshot: the restore neither waits for it nor fails.
                st.execute("BEGIN");
                long before = comments(other);
                long t0 = System.nanoTime();
                image.restore();
                assertThat((System.nanoTime() - t0) / 1_000_000)
                        .as("ms, below the 1 s busy timeout")
                        .isLessThan(900);
                assertThat(comments(other)).as("the reader's snapshot").isEqualTo(before);
                st.execute("COMMIT");
                assertThat(comments(other)).isEqualTo(graph.totalInitialComments());
            }
            assertThat(StateComparison.differences(store, new GraphState(graph), 10))
                    .isEmpty();
        }
    }

    private static long comments(Connection c) throws Exception {
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT count(*) FROM manipulation")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /**
     * Invites, accepts, rejects, thaws, posts and deletes comments through two sessions, applying each to
     * {@code state}.
     */
    private static void writeThroughSessions(SqliteStore store, SocialGraph g, GraphState state, int seed) {
        try (StoreSession s1 = store.openSession();
                StoreSession s2 = store.openSession()) {
            int writes = 0;
            for (int i = seed; i < g.members() && writes < 40; i += 7) {
                StoreSession s = i % 2 == 0 ? s1 : s2;
                int inviter = state.pickInviter(i, seed);
                if (inviter >= 0) {
                    s.acceptFriendRequest(g.memberId(i), g.memberId(inviter));
                    state.accept(i, inviter);
                    writes++;
                }
                inviter = state.pickInviter(i, seed + 1);
                if (inviter >= 0) {
                    s.rejectFriendRequest(g.memberId(i), g.memberId(inviter));
                    state.reject(i, inviter);
                    writes++;
                }
                int friend = state.pickFriend(i, seed);
                if (friend >= 0) {
                    s.thawFriendship(g.memberId(i), g.memberId(friend));
                    state.thaw(i, friend);
                    writes++;
                }
                for (int j = 1; j < g.members(); j++) {
                    int invitee = (i + j * 13) % g.members();
                    if (invitee != i && state.relation(i, invitee) == Relation.NONE) {
                        s.inviteFriend(g.memberId(i), g.memberId(invitee));
                        state.invite(i, invitee);
                        writes++;
                        break;
                    }
                }
                long rid = g.resourceId(i, seed % g.resourcesPerMember());
                long mid = state.newCommentId();
                s.postCommentOnResource(g.memberId((i + 1) % g.members()), g.memberId(i), rid, mid, 1000 + i, "c" + i);
                state.postComment(rid, mid);
                long old = state.pickComment(rid, seed);
                if (old >= 0 && old != mid) {
                    s.deleteCommentFromResource(g.memberId(i), rid, old);
                    state.deleteComment(rid, old);
                }
                writes += 2;
            }
            assertThat(writes).isGreaterThan(20);
        }
    }
}
