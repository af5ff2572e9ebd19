package org.bgbench.store.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.UUID;
import org.assertj.core.api.Assertions;
import org.bgbench.model.GraphSpec;
import org.bgbench.model.generator.Relation;
import org.bgbench.model.generator.SocialGraph;
import org.bgbench.model.state.GraphState;
import org.bgbench.store.CommentList;
import org.bgbench.store.DataStore;
import org.bgbench.store.MemberList;
import org.bgbench.store.ProfileView;
import org.bgbench.store.StoreCounts;
import org.bgbench.store.StoreException;
import org.bgbench.store.StoreImage;
import org.bgbench.store.StoreProvider;
import org.bgbench.store.StoreRegistry;
import org.bgbench.store.StoreSession;
import org.bgbench.store.StoreSettings;
import org.bgbench.store.conformance.StateComparison;
import org.bgbench.store.conformance.StoreConformanceSuite;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class MemoryStoreTest {
    static final GraphSpec SPEC = GraphSpec.builder()
            .members(400)
            .memberIdOffset(7)
            .friendsPerMember(12)
            .resourcesPerMember(3)
            .commentsPerResource(2)
            .confirmedFraction(0.6)
            .images(true)
            .thumbnailBytes(32)
            .profileImageBytes(64)
            .attributeCount(5)
            .attributeLength(8)
            .commentLength(20)
            .fragments(4)
            .seed(9)
            .build();

    private final String name = "test-" + UUID.randomUUID();
    private final SocialGraph graph = new SocialGraph(SPEC);

    @AfterEach
    void forget() {
        MemoryStoreProvider.discard(name);
    }

    static DataStore open(String name) {
        StoreProvider p = StoreRegistry.discover().get("memory");
        return p.open(StoreSettings.forProvider(p, Map.of(MemoryStoreProvider.NAME_KEY, name)));
    }

    private int id(int index) {
        return graph.memberId(index);
    }

    @Test
    void registeredAsAServiceWithItsSettings() {
        StoreProvider p = StoreRegistry.discover().get("memory");
        assertThat(p).isInstanceOf(MemoryStoreProvider.class);
        assertThat(p.settings())
                .extracting(s -> s.key() + "=" + s.defaultValue())
                .containsExactly(
                        "memory.name=default", "feed.design=pull", "feed.push=reference", "feed.fanout.delay=0");
        assertThat(p.settings())
                .allSatisfy(s -> assertThat(s.description()).isNotBlank().doesNotContain("\n"));
        Assertions.assertThatThrownBy(() -> p.open(StoreSettings.of(Map.of("feed.fanout.delay", "200ms"))))
                .hasMessageContaining("feed.fanout.delay")
                .hasMessageContaining("push");
        Assertions.assertThatThrownBy(
                        () -> p.open(StoreSettings.of(Map.of("feed.design", "push", "feed.fanout.delay", "soon"))))
                .hasMessageContaining("feed.fanout.delay");
    }

    @Test
    void manyLoadersOnSmallRangesBuildExactlyTheGeneratedGraph() {
        try (DataStore store = open(name)) {
            // Ranges far smaller than a fragment make loaders race on the relationship sets of shared members.
            StoreConformanceSuite.load(store, graph, 16);
            assertThat(store.loadedGraph()).contains(SPEC.fingerprint());
            assertThat(store.counts())
                    .isEqualTo(new StoreCounts(new StoreCounts.Social(
                            SPEC.members(),
                            graph.totalFriendships(),
                            graph.totalPendingInvitations(),
                            graph.totalResources(),
                            graph.totalInitialComments())));
            assertThat(StateComparison.differences(store, new GraphState(graph), 10))
                    .isEmpty();
        }
    }

    @Test
    void schemaLifecycle() {
        try (DataStore store = open(name)) {
            assertThat(store.loadedGraph()).isEmpty();
            assertThat(store.counts()).isEqualTo(StoreCounts.EMPTY);
            assertThatThrownBy(store::openSession)
                    .isInstanceOf(StoreException.class)
                    .hasMessageContaining("no schema");

            store.createSchema(SPEC);
            try (var loader = store.newLoader(graph)) {
                loader.load(0, SPEC.members(), n -> {});
            }
            assertThat(store.loadedGraph()).as("not recorded before finishLoad").isEmpty();
            store.finishLoad(graph);
            assertThat(store.loadedGraph()).contains(SPEC.fingerprint());

            SocialGraph other = new SocialGraph(SPEC.withMembers(200));
            assertThatThrownBy(() -> store.newLoader(other))
                    .isInstanceOf(StoreException.class)
                    .hasMessageContaining("schema was created for");

            store.createSchema(SPEC);
            assertThat(store.loadedGraph()).isEmpty();
            assertThat(store.counts()).isEqualTo(StoreCounts.EMPTY);

            StoreConformanceSuite.load(store, graph, 2);
            store.dropSchema();
            assertThat(store.loadedGraph()).isEmpty();
            assertThat(store.counts()).isEqualTo(StoreCounts.EMPTY);
        }
    }

    @Test
    void opensWithTheSameNameShareOneInstanceThatOutlivesTheHandle() {
        try (DataStore first = open(name)) {
            StoreConformanceSuite.load(first, graph, 2);
        }
        try (DataStore again = open(name);
                DataStore other = open(name + "-other")) {
            assertThat(again.loadedGraph()).contains(SPEC.fingerprint());
            assertThat(other.loadedGraph())
                    .as("another name is another instance")
                    .isEmpty();
            try (StoreSession s = again.openSession()) {
                int a = 3;
                int inviter = new GraphState(graph).pickInviter(a, 0);
                s.acceptFriendRequest(id(a), id(inviter));
            }
            MemoryStoreProvider.discard(name + "-other");
        }
        try (DataStore third = open(name)) {
            assertThat(third.counts().friendships()).isEqualTo(graph.totalFriendships() + 1);
        }
        try (DataStore dflt = new MemoryStoreProvider().open(StoreSettings.of(Map.of()));
                DataStore named = open(MemoryStoreProvider.DEFAULT_NAME)) {
            dflt.createSchema(SPEC);
            assertThat(named.counts()).isEqualTo(dflt.counts());
            dflt.dropSchema();
        }
        MemoryStoreProvider.discard(MemoryStoreProvider.DEFAULT_NAME);
    }

    @Test
    void aClosedHandleRefusesWork() {
        DataStore store = open(name);
        store.close();
        assertThatThrownBy(() -> store.createSchema(SPEC))
                .isInstanceOf(StoreException.class)
                .hasMessageContaining("closed");
    }

    @Test
    void invalidActionsFailLoudlyAndChangeNothing() {
        try (DataStore store = open(name)) {
            StoreConformanceSuite.load(store, graph, 2);
            StoreCounts before = store.counts();
            GraphState state = new GraphState(graph);
            int a = 10;
            int friend = state.pickFriend(a, 0);
            int inviter = state.pickInviter(a, 0);
            int stranger = -1;
            for (int b = 0; b < graph.members(); b++) {
                if (b != a && state.relation(a, b) == Relation.NONE) {
                    stranger = b;
                    break;
                }
            }
            assertThat(friend).isNotNegative();
            assertThat(inviter).isNotNegative();
            long rid = graph.resourceId(a, 0);
            long otherRid = graph.resourceId(a + 1, 0);
            int s0 = stranger;
            try (StoreSession s = store.openSession()) {
                assertThatThrownBy(() -> s.acceptFriendRequest(id(a), id(s0)))
                        .isInstanceOf(StoreException.class)
                        .hasMessageContaining("no pending invitation");
                assertThatThrownBy(() -> s.rejectFriendRequest(id(a), id(s0)))
                        .isInstanceOf(StoreException.class)
                        .hasMessageContaining("no pending invitation");
                assertThatThrownBy(() -> s.thawFriendship(id(a), id(s0)))
                        .isInstanceOf(StoreException.class)
                        .hasMessageContaining("are not friends");
                assertThatThrownBy(() -> s.thawFriendship(id(a), id(a)))
                        .isInstanceOf(StoreException.class)
                        .hasMessageContaining("are not friends");
                assertThatThrownBy(() -> s.inviteFriend(id(a), id(friend)))
                        .isInstanceOf(StoreException.class)
                        .hasMessageContaining("already friends");
                assertThatThrownBy(() -> s.inviteFriend(id(inviter), id(a)))
                        .isInstanceOf(StoreException.class)
                        .hasMessageContaining("already invited");
                assertThatThrownBy(() -> s.inviteFriend(id(a), id(inviter)))
                        .isInstanceOf(StoreException.class)
                        .hasMessageContaining("pending invitation to");
                assertThatThrownBy(() -> s.inviteFriend(id(a), id(a)))
                        .isInstanceOf(StoreException.class)
                        .hasMessageContaining("herself");
                assertThatThrownBy(() -> s.deleteCommentFromResource(id(a), rid, graph.firstFreeCommentId()))
                        .isInstanceOf(StoreException.class)
                        .hasMessageContaining("has no comment");
                assertThatThrownBy(() -> s.postCommentOnResource(id(5), id(a), rid, graph.commentId(rid, 0), 1, "x"))
                        .isInstanceOf(StoreException.class)
                        .hasMessageContaining("already exists");
                assertThatThrownBy(() -> s.viewCommentsOnResource(id(a), id(a), otherRid, new CommentList()))
                        .isInstanceOf(StoreException.class)
                        .hasMessageContaining("not on the wall");
                assertThatThrownBy(() -> s.viewProfile(id(a), SPEC.memberIdOffset() - 1, new ProfileView(5)))
                        .isInstanceOf(StoreException.class)
                        .hasMessageContaining("does not exist");
                assertThatThrownBy(() -> s.listFriends(id(graph.members()), id(a), new MemberList(5)))
                        .isInstanceOf(StoreException.class)
                        .hasMessageContaining("does not exist");
                assertThatThrownBy(() -> s.viewFriendRequests(Integer.MIN_VALUE, new MemberList(5)))
                        .isInstanceOf(StoreException.class)
                        .hasMessageContaining("does not exist");
            }
            assertThat(store.counts()).isEqualTo(before);
            assertThat(StateComparison.differences(store, state, 10)).isEmpty();
        }
    }

    @Test
    void membersOutsideTheLoadedRangesDoNotExist() {
        try (DataStore store = open(name)) {
            store.createSchema(SPEC);
            try (var loader = store.newLoader(graph)) {
                loader.load(0, 100, n -> {});
            }
            try (StoreSession s = store.openSession()) {
                ProfileView p = new ProfileView(SPEC.attributeCount());
                s.viewProfile(id(5), id(5), p);
                assertThat(p.memberId).isEqualTo(id(5));
                assertThatThrownBy(() -> s.viewProfile(id(5), id(200), p))
                        .isInstanceOf(StoreException.class)
                        .hasMessageContaining("has not been loaded");
            }
        }
    }

    @Test
    void imageRestoresTheSavedContentsAsOftenAsNeeded() {
        try (DataStore store = open(name)) {
            StoreImage image = store.image().orElseThrow();
            assertThat(image.exists()).isFalse();
            assertThatThrownBy(image::restore)
                    .isInstanceOf(StoreException.class)
                    .hasMessageContaining("no saved image");
            StoreConformanceSuite.load(store, graph, 3);
            image.save();
            assertThat(image.exists()).isTrue();
            StoreCounts loaded = store.counts();

            for (int round = 0; round < 2; round++) {
                GraphState state = new GraphState(graph);
                try (StoreSession s = store.openSession()) {
                    int a = 20;
                    int inviter = state.pickInviter(a, 0);
                    int friend = state.pickFriend(a, 0);
                    s.acceptFriendRequest(id(a), id(inviter));
                    s.thawFriendship(id(a), id(friend));
                    long rid = graph.resourceId(a, 1);
                    s.postCommentOnResource(id(a), id(a), rid, graph.firstFreeCommentId(), 5, "new");
                    s.deleteCommentFromResource(id(a), rid, graph.commentId(rid, 0));
                }
                assertThat(store.counts()).isNotEqualTo(loaded);
                image.restore();
                assertThat(store.counts()).isEqualTo(loaded);
                assertThat(store.loadedGraph()).contains(SPEC.fingerprint());
                assertThat(StateComparison.differences(store, new GraphState(graph), 10))
                        .as("round %d", round)
                        .isEmpty();
            }

            // Profile data is shared with the image, never copied.
            try (StoreSession s = store.openSession()) {
                ProfileView p1 = new ProfileView(SPEC.attributeCount());
                ProfileView p2 = new ProfileView(SPEC.attributeCount());
                s.viewProfile(id(1), id(1), p1);
                image.restore();
                s.viewProfile(id(1), id(1), p2);
                assertThat(p2.profileImage).isSameAs(p1.profileImage);
            }

            store.createSchema(SPEC.withMembers(300));
            assertThat(image.exists()).as("image of another graph").isFalse();
            store.createSchema(SPEC);
            assertThat(image.exists()).isTrue();
            image.restore();
            assertThat(store.counts()).isEqualTo(loaded);
        }
    }
}
