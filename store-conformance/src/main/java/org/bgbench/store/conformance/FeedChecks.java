package org.bgbench.store.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.bgbench.model.generator.Relation;
import org.bgbench.model.state.GraphState;
import org.bgbench.store.FeedList;
import org.bgbench.store.StoreSession;

/** The news feed's checks (dissertation 3.2, 8.4): fresh feeds, who sees which share, clearing shares. */
final class FeedChecks extends FixtureChecks {
    FeedChecks(ConformanceFixture fixture) {
        super(fixture);
    }

    /** A member with a friend who is not her first neighbour's friend etc.: member 0's view of the world. */
    private int[] shareAll(StoreSession s, GraphState state, int account, int[] recipients) {
        long rid = graph.accountResourceId(account, 0);
        long id = state.newShareId(account);
        s.shareResource(
                graph.accountId(account),
                rid,
                id,
                recipients == null
                        ? null
                        : Arrays.stream(recipients).map(graph::memberId).toArray());
        state.share(account, id, rid, recipients);
        return recipients;
    }

    void aFreshLoadHasEmptyFeedsAndTheGeneratedFollows() {
        assertThat(graph.pages()).as("the suite's graph has pages").isPositive();
        try (StoreSession s = store.openSession()) {
            FeedList feed = new FeedList();
            for (int i = 0; i < graph.members(); i++) {
                feed.clear();
                s.viewNewsFeed(graph.memberId(i), 10, feed);
                assertThat(feed.size())
                        .as("feed of %d after a load", graph.memberId(i))
                        .isZero();
            }
            // Each page's share reaches exactly its followers: the follows are the generated ones.
            GraphState state = new GraphState(graph);
            for (int p = 0; p < graph.pages(); p++) {
                shareAll(s, state, graph.pageAccount(p), null);
            }
            for (int i = 0; i < graph.members(); i++) {
                List<String> diffs = new ArrayList<>();
                StateComparison.feedDifferences(s, state, i, graph.pages(), feed, diffs);
                assertThat(diffs).isEmpty();
                assertThat(feed.size()).isEqualTo(graph.pagesPerMember());
            }
        }
    }

    void viewNewsFeedShowsTheMostRecentSharesOfFriendsAndFollowedPages() {
        GraphState state = new GraphState(graph);
        int x = 0;
        int[] friends = state.friends(x);
        assertThat(friends.length).as("member 0 has friends").isGreaterThan(2);
        int f1 = friends[0];
        int f2 = friends[1];
        int stranger = -1;
        for (int i = 1; i < graph.members() && stranger < 0; i++) {
            if (state.relation(x, i) == Relation.NONE && graph.fragmentOf(i) == graph.fragmentOf(x)) {
                stranger = i;
            }
        }
        int[] followed = new int[1];
        graph.forEachFollowedPage(x, p -> followed[0] = p);
        int page = graph.pageAccount(followed[0]);
        try (StoreSession s = store.openSession()) {
            FeedList feed = new FeedList();
            shareAll(s, state, f1, null); // public, seen
            shareAll(s, state, stranger, null); // public but not a friend: not seen
            shareAll(
                    s,
                    state,
                    f2,
                    state.friends(f2).length > 1 // a list leaving x out: not seen
                            ? Arrays.stream(state.friends(f2))
                                    .filter(y -> y != x)
                                    .toArray()
                            : new int[0]);
            shareAll(s, state, page, null); // a followed page: seen
            shareAll(s, state, f2, new int[] {x}); // a list naming x: seen
            shareAll(s, state, x, null); // her own: not in her feed
            for (int k : new int[] {1, 2, 3, 10}) {
                List<String> diffs = new ArrayList<>();
                StateComparison.feedDifferences(s, state, x, k, feed, diffs);
                assertThat(diffs).as("k=%d", k).isEmpty();
                assertThat(feed.size()).isEqualTo(Math.min(k, 3));
            }
            // A thaw hides the friend's shares from both sides, a new friendship shows the past ones.
            s.thawFriendship(graph.memberId(x), graph.memberId(f1));
            state.thaw(x, f1);
            checkFeeds(s, state, new int[] {x, f1, f2});
            s.inviteFriend(graph.memberId(stranger), graph.memberId(x));
            state.invite(stranger, x);
            s.acceptFriendRequest(graph.memberId(x), graph.memberId(stranger));
            state.accept(x, stranger);
            checkFeeds(s, state, new int[] {x, f1, stranger});
            feed.clear();
            s.viewNewsFeed(graph.memberId(x), 10, feed);
            assertThat(feed.shareIds())
                    .as("the new friend's earlier public share now shows")
                    .hasSize(3);
        }
        assertThat(StateComparison.differences(store, state, 20)).isEmpty();
    }

    private void checkFeeds(StoreSession s, GraphState state, int[] members) {
        FeedList feed = new FeedList();
        for (int m : members) {
            List<String> diffs = new ArrayList<>();
            StateComparison.feedDifferences(s, state, m, 10, feed, diffs);
            assertThat(diffs).isEmpty();
        }
    }

    void clearSharesEmptiesEveryFeed() {
        GraphState state = randomWrites(600, 31);
        assertThat(state.shareCount()).isPositive();
        assertThat(store.counts().shares()).isEqualTo(state.shareCount());
        store.clearShares();
        assertThat(store.counts().shares()).isZero();
        try (StoreSession s = store.openSession()) {
            FeedList feed = new FeedList();
            for (int i = 0; i < graph.members(); i++) {
                feed.clear();
                s.viewNewsFeed(graph.memberId(i), 10, feed);
                assertThat(feed.size()).isZero();
            }
        }
    }
}
