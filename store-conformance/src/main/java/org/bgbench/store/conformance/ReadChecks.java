package org.bgbench.store.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import org.bgbench.model.state.GraphState;
import org.bgbench.store.CommentList;
import org.bgbench.store.MemberList;
import org.bgbench.store.ProfileView;
import org.bgbench.store.ResourceList;
import org.bgbench.store.StoreCounts;
import org.bgbench.store.StoreSession;

/** The read actions' checks on a freshly loaded graph: counts, profiles, friend lists, resources, comments. */
final class ReadChecks extends FixtureChecks {
    ReadChecks(ConformanceFixture fixture) {
        super(fixture);
    }

    void countsMatchTheGenerator() {
        assertThat(store.counts())
                .isEqualTo(new StoreCounts(
                        new StoreCounts.Social(
                                graph.members(),
                                graph.totalFriendships(),
                                graph.totalPendingInvitations(),
                                graph.totalResources(),
                                graph.totalInitialComments()),
                        new StoreCounts.Feed(graph.pages(), graph.totalFollows(), graph.totalPageResources(), 0)));
        assertThat(graph.totalPendingInvitations())
                .as("the suite's graph has pending invitations")
                .isPositive();
        leftAsLoaded();
    }

    void viewProfileShowsAttributesImageAndCounts() {
        GraphState state = new GraphState(graph);
        try (StoreSession s = store.openSession()) {
            ProfileView p = new ProfileView(graph.attributeCount());
            for (int i = 0; i < graph.members(); i++) {
                int id = graph.memberId(i);
                int other = graph.memberId((i + 7) % graph.members());
                p.clear();
                s.viewProfile(other, id, p);
                assertThat(p.memberId).isEqualTo(id);
                for (int a = 0; a < graph.attributeCount(); a++) {
                    assertThat(p.attributes.get(a))
                            .as("attribute %d of %d", a, id)
                            .isEqualTo(graph.attribute(i, a));
                }
                assertThat(p.profileImage).as("profile image of %d", id).isEqualTo(graph.profileImage(i));
                assertThat(p.friendCount).as("friends of %d", id).isEqualTo(state.friendCount(i));
                assertThat(p.resourceCount).isEqualTo(graph.resourcesPerMember());
                assertThat(p.pendingCount)
                        .as("pending is shown only to the member herself")
                        .isEqualTo(-1);
                p.clear();
                s.viewProfile(id, id, p);
                assertThat(p.pendingCount).as("pending of %d", id).isEqualTo(state.pendingCount(i));
            }
        }
        leftAsLoaded();
    }

    void listFriendsAndFriendRequestsShowMembersWithThumbnails() {
        GraphState state = new GraphState(graph);
        try (StoreSession s = store.openSession()) {
            MemberList list = new MemberList(graph.attributeCount());
            for (int i = 0; i < graph.members(); i++) {
                int id = graph.memberId(i);
                list.clear();
                s.listFriends(graph.memberId(0), id, list);
                assertThat(list.sortedIds()).as("friends of %d", id).isEqualTo(ids(state.friends(i)));
                checkRows(list);
                list.clear();
                s.viewFriendRequests(id, list);
                assertThat(list.sortedIds()).as("inviters of %d", id).isEqualTo(ids(state.inviters(i)));
                checkRows(list);
            }
        }
        leftAsLoaded();
    }

    private void checkRows(MemberList list) {
        for (int r = 0; r < list.size(); r++) {
            MemberList.Row row = list.get(r);
            int index = graph.memberIndex(row.memberId);
            for (int a = 0; a < graph.attributeCount(); a++) {
                assertThat(row.attributes.get(a)).isEqualTo(graph.attribute(index, a));
            }
            assertThat(row.thumbnail).as("thumbnail of %d", row.memberId).isEqualTo(graph.thumbnail(index));
        }
    }

    void viewTopKResourcesShowsTheNewestResourcesOfTheWall() {
        try (StoreSession s = store.openSession()) {
            ResourceList list = new ResourceList();
            for (int i = 0; i < graph.members(); i += 5) {
                int id = graph.memberId(i);
                for (int k : new int[] {1, 3, graph.resourcesPerMember() + 2}) {
                    list.clear();
                    s.viewTopKResources(graph.memberId(1), id, k, list);
                    int expected = Math.min(k, graph.resourcesPerMember());
                    assertThat(list.size()).isEqualTo(expected);
                    for (int r = 0; r < expected; r++) {
                        long rid = graph.resourceId(i, graph.resourcesPerMember() - 1 - r);
                        ResourceList.Row row = list.get(r);
                        assertThat(row.resourceId).isEqualTo(rid);
                        assertThat(row.wallUserId).isEqualTo(id);
                        assertThat(row.creatorId).isEqualTo(id);
                        assertThat(row.type).isEqualTo(graph.resourceType(rid));
                        assertThat(row.body).isEqualTo(graph.resourceBody(rid));
                        assertThat(row.doc).isEqualTo(graph.resourceDoc(rid));
                    }
                }
            }
        }
        leftAsLoaded();
    }

    void commentsCanBeViewedPostedAndDeleted() {
        try (StoreSession s = store.openSession()) {
            CommentList list = new CommentList();
            int owner = 3;
            long rid = graph.resourceId(owner, 1);
            int ownerId = graph.memberId(owner);
            s.viewCommentsOnResource(graph.memberId(9), ownerId, rid, list);
            assertThat(list.sortedIds()).containsExactly(graph.commentId(rid, 0), graph.commentId(rid, 1));
            for (int r = 0; r < list.size(); r++) {
                CommentList.Row row = list.get(r);
                assertThat(row.resourceId).isEqualTo(rid);
                assertThat(row.creatorId).isEqualTo(ownerId);
                assertThat(row.modifierId).isEqualTo(graph.memberId(graph.commentModifier(row.commentId)));
                assertThat(row.timestampMs).isEqualTo(graph.commentTimestamp(row.commentId));
                assertThat(row.content).isEqualTo(graph.commentContent(row.commentId));
            }
            long mid = graph.firstFreeCommentId() + 5;
            s.postCommentOnResource(graph.memberId(9), ownerId, rid, mid, 1_700_000_000_123L, "hello there");
            list.clear();
            s.viewCommentsOnResource(ownerId, ownerId, rid, list);
            assertThat(list.size()).isEqualTo(3);
            CommentList.Row posted = null;
            for (int r = 0; r < list.size(); r++) {
                if (list.get(r).commentId == mid) {
                    posted = list.get(r);
                }
            }
            assertThat(posted).isNotNull();
            assertThat(posted.modifierId).isEqualTo(graph.memberId(9));
            assertThat(posted.creatorId).isEqualTo(ownerId);
            assertThat(posted.timestampMs).isEqualTo(1_700_000_000_123L);
            assertThat(posted.content).isEqualTo("hello there");
            s.deleteCommentFromResource(ownerId, rid, graph.commentId(rid, 0));
            s.deleteCommentFromResource(ownerId, rid, mid);
            list.clear();
            s.viewCommentsOnResource(ownerId, ownerId, rid, list);
            assertThat(list.sortedIds()).containsExactly(graph.commentId(rid, 1));
            list.clear();
            s.viewCommentsOnResource(ownerId, ownerId, graph.resourceId(owner, 2), list);
            assertThat(list.size()).as("other resources untouched").isEqualTo(2);
        }
    }

    void aFreshLoadHoldsExactlyTheGeneratedGraph() {
        assertThat(StateComparison.differences(store, new GraphState(graph), 20))
                .isEmpty();
        leftAsLoaded();
    }

    void reusedViewsShowOnlyTheLatestCall() {
        try (StoreSession s = store.openSession()) {
            MemberList list = new MemberList(graph.attributeCount());
            int withMost = 0;
            int withFewest = 0;
            GraphState state = new GraphState(graph);
            for (int i = 0; i < graph.members(); i++) {
                if (state.friendCount(i) > state.friendCount(withMost)) {
                    withMost = i;
                }
                if (state.friendCount(i) < state.friendCount(withFewest)) {
                    withFewest = i;
                }
            }
            list.clear();
            s.listFriends(1000, graph.memberId(withMost), list);
            list.clear();
            s.listFriends(1000, graph.memberId(withFewest), list);
            assertThat(list.sortedIds()).isEqualTo(ids(state.friends(withFewest)));
        }
        leftAsLoaded();
    }
}
