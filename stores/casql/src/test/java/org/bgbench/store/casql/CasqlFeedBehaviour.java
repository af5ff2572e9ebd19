package org.bgbench.store.casql;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.bgbench.model.generator.Relation;
import org.bgbench.model.state.GraphState;
import org.bgbench.model.state.Share;
import org.bgbench.store.FeedList;
import org.bgbench.store.StoreSession;
import org.bgbench.store.conformance.StoreConformanceSuite;
import org.junit.jupiter.api.Test;

/**
 * What the cache does to feed following (dissertation 8.4.2): SR, VNF and the feeds AFR and TF change follow BG's
 * oracle in every feed design, with exactly the feed keys of the changed feeds deleted; ttl mode serves a stale feed;
 * a larger k replaces a smaller one's entry.
 */
abstract class CasqlFeedBehaviour extends CasqlCacheFixture {
    @Test
    void feedsFollowTheOracleWithThePullDesign() {
        feedsFollowTheOracle("pull", "reference");
    }

    @Test
    void feedsFollowTheOracleWithThePushDesign() {
        feedsFollowTheOracle("push", "reference");
    }

    @Test
    void feedsFollowTheOracleWithTheSortedPushContentDesign() {
        feedsFollowTheOracle("sorted-push", "content");
    }

    /**
     * In invalidate mode, with every watched feed cached before each write: SR (a member's public share, a page's, a
     * list share), AFR and TF delete exactly the feed keys of the members who may see the change, and the cached VNF
     * then equals BG's oracle ({@link GraphState#feed}) and PostgreSQL. clearShares leaves every feed empty.
     */
    private void feedsFollowTheOracle(String design, String push) {
        try (CasqlStore store = open("invalidate", "feed.design", design, "feed.push", push)) {
            StoreConformanceSuite.load(store, feedGraph, 3);
            GraphState state = new GraphState(feedGraph);
            CacheBackend.Ops ops = store.cache().ops();
            int x = 0;
            int[] xFriends = state.friends(x);
            int f1 = xFriends[0];
            int f2 = xFriends[1];
            int y = unrelatedPair(state, x)[1];
            int[] followed = new int[1];
            feedGraph.forEachFollowedPage(x, p -> followed[0] = p);
            int page = followed[0];
            int pageId = feedGraph.accountId(feedGraph.pageAccount(page));
            // A follower of the page who is neither x nor one of x's friends, and a member of another fragment.
            int follower = -1;
            for (int m = 0; m < feedGraph.members() && follower < 0; m++) {
                if (m != x && m != y && feedGraph.follows(m, page) && state.relation(x, m) == Relation.NONE) {
                    follower = m;
                }
            }
            assertThat(follower)
                    .as("a follower of page %d unrelated to %d", page, x)
                    .isNotNegative();
            int outsider = (x + feedGraph.members() / 3) % feedGraph.members();
            assertThat(feedGraph.fragmentOf(outsider)).isNotEqualTo(feedGraph.fragmentOf(x));
            int[] watched = {x, f1, f2, y, follower, outsider};
            try (StoreSession s = store.openSession();
                    StoreSession direct = store.database().openSession()) {
                assertFeeds(s, direct, ops, state, watched, "after the load (no shares)");

                long public1 = state.newShareId(x);
                long rid = feedGraph.resourceId(x, 0);
                assertFeedKeysDeleted(
                        s,
                        ops,
                        state,
                        watched,
                        () -> s.shareResource(id(x), rid, public1, null),
                        audience(state, x, watched));
                state.share(x, public1, rid, null);
                assertFeeds(s, direct, ops, state, watched, "after x's public share");

                long pageShare = state.newShareId(feedGraph.pageAccount(page));
                long pageRid = feedGraph.pageResourceId(page, 1);
                int[] followers = Arrays.stream(watched)
                        .filter(m -> feedGraph.follows(m, page))
                        .toArray();
                assertThat(followers).contains(x, follower);
                assertFeedKeysDeleted(
                        s, ops, state, watched, () -> s.shareResource(pageId, pageRid, pageShare, null), followers);
                state.share(feedGraph.pageAccount(page), pageShare, pageRid, null);
                assertFeeds(s, direct, ops, state, watched, "after the page's share");

                // A list share with a friend and a non-friend: only they lose their keys; only the friend sees it.
                long listed = state.newShareId(x);
                long rid2 = feedGraph.resourceId(x, 1);
                assertFeedKeysDeleted(
                        s,
                        ops,
                        state,
                        watched,
                        () -> s.shareResource(id(x), rid2, listed, new int[] {id(f1), id(y)}),
                        new int[] {f1, y});
                state.share(x, listed, rid2, new int[] {f1, y});
                assertFeeds(s, direct, ops, state, watched, "after x's share with " + f1 + " and " + y);
                assertThat(ids(state.feed(f1, FEED_K))).contains(listed);
                assertThat(ids(state.feed(f2, FEED_K))).doesNotContain(listed);

                // A share with an empty list reaches no one and deletes nothing.
                long nobody = state.newShareId(x);
                assertFeedKeysDeleted(
                        s, ops, state, watched, () -> s.shareResource(id(x), rid2, nobody, new int[0]), new int[0]);
                state.share(x, nobody, rid2, new int[0]);
                assertFeeds(s, direct, ops, state, watched, "after x's share with nobody");

                // y becomes x's friend: she now sees x's public share and the one listing her.
                s.inviteFriend(id(x), id(y));
                state.invite(x, y);
                assertFeedKeysDeleted(
                        s, ops, state, watched, () -> s.acceptFriendRequest(id(y), id(x)), new int[] {x, y});
                state.accept(y, x);
                assertThat(ids(state.feed(y, FEED_K))).contains(public1, listed);
                assertFeeds(s, direct, ops, state, watched, "after " + y + " accepted " + x);

                // f1 stops being x's friend: x's shares leave her feed.
                assertFeedKeysDeleted(s, ops, state, watched, () -> s.thawFriendship(id(x), id(f1)), new int[] {x, f1});
                state.thaw(x, f1);
                assertThat(ids(state.feed(f1, FEED_K))).doesNotContain(public1, listed);
                assertFeeds(s, direct, ops, state, watched, "after " + x + " and " + f1 + " thawed");

                // More shares than k: the cached feed keeps the newest k, in order.
                for (int j = 0; j < FEED_K; j++) {
                    long id = state.newShareId(x);
                    long r = feedGraph.resourceId(x, j % feedGraph.spec().resourcesPerMember());
                    s.shareResource(id(x), r, id, null);
                    state.share(x, id, r, null);
                }
                assertFeeds(s, direct, ops, state, watched, "after " + FEED_K + " more shares");

                store.clearShares();
                for (int m : watched) {
                    assertThat(ops.get("vnf:" + id(m)))
                            .as("clearShares drops the feed of %d", m)
                            .isNull();
                }
                assertFeeds(s, direct, ops, new GraphState(feedGraph), watched, "after clearShares");
            }
        }
    }

    /**
     * In ttl mode a share deletes nothing: a friend's cached feed goes on showing the feed without it until the TTL
     * passes, a VNF that BG's validation finds differs from every acceptable value (dissertation 6.1.4).
     */
    @Test
    void ttlModeServesAStaleFeedAfterAShare() throws Exception {
        long ttlMs = 3_000;
        try (CasqlStore store = open("ttl", "ttl", "3s")) {
            StoreConformanceSuite.load(store, feedGraph, 3);
            GraphState state = new GraphState(feedGraph);
            int x = 0;
            int f = state.friends(x)[0];
            CacheBackend.Ops ops = store.cache().ops();
            try (StoreSession s = store.openSession();
                    StoreSession direct = store.database().openSession()) {
                String before = feed(s, feedGraph, f, FEED_K).get();
                long cachedAt = System.nanoTime();
                long share = state.newShareId(x);
                long rid = feedGraph.resourceId(x, 0);
                s.shareResource(id(x), rid, share, null);
                state.share(x, share, rid, null);
                assertThat(isEntry(ops.get("vnf:" + id(f))))
                        .as("SR deletes nothing in ttl mode")
                        .isTrue();
                String oracle = oracle(state, f, FEED_K);
                assertThat(feed(direct, feedGraph, f, FEED_K).get())
                        .as("PostgreSQL has the share")
                        .isEqualTo(oracle);
                FeedList stale = new FeedList();
                s.viewNewsFeed(id(f), FEED_K, stale);
                assertThat(System.nanoTime() - cachedAt)
                        .as("the stale read happened well within the ttl")
                        .isLessThan(TimeUnit.MILLISECONDS.toNanos(ttlMs / 2));
                assertThat(show(stale))
                        .as("VNF within the ttl: the feed before the share")
                        .isEqualTo(before)
                        .isNotEqualTo(oracle);
                // What validation compares: the share ids read against those the oracle allows.
                assertThat(stale.shareIds())
                        .doesNotContain(share)
                        .isNotEqualTo(Arrays.stream(state.feed(f, FEED_K))
                                .mapToLong(Share::id)
                                .toArray());
                long deadline = cachedAt + TimeUnit.MILLISECONDS.toNanos(ttlMs + 1_500);
                LockSupport.parkNanos(Math.max(0, cachedAt + TimeUnit.MILLISECONDS.toNanos(ttlMs) - System.nanoTime()));
                while (!feed(s, feedGraph, f, FEED_K).get().equals(oracle) && System.nanoTime() < deadline) {
                    Thread.sleep(50);
                }
                assertThat(feed(s, feedGraph, f, FEED_K).get())
                        .as("VNF after the ttl")
                        .isEqualTo(oracle);
            }
        }
    }

    /** A feed entry filled for a smaller k is replaced by a VNF with a larger one, which then serves both. */
    @Test
    void aLargerKReplacesTheCachedFeedOfASmallerOne() {
        try (CasqlStore store = open("invalidate")) {
            StoreConformanceSuite.load(store, feedGraph, 3);
            GraphState state = new GraphState(feedGraph);
            int x = 0;
            int f = state.friends(x)[0];
            try (StoreSession s = store.openSession();
                    StoreSession direct = store.database().openSession()) {
                for (int j = 0; j < 5; j++) {
                    long id = state.newShareId(x);
                    long r = feedGraph.resourceId(x, j % feedGraph.spec().resourcesPerMember());
                    s.shareResource(id(x), r, id, null);
                    state.share(x, id, r, null);
                }
                CacheBackend.Ops ops = store.cache().ops();
                assertThat(feed(s, feedGraph, f, 2).get()).isEqualTo(oracle(state, f, 2));
                Object small = ops.get("vnf:" + id(f));
                assertThat(isEntry(small)).isTrue();
                assertThat(feed(s, feedGraph, f, 4).get())
                        .as("k=4 over a k=2 entry")
                        .isEqualTo(oracle(state, f, 4))
                        .isEqualTo(feed(direct, feedGraph, f, 4).get());
                assertThat(isEntry(ops.get("vnf:" + id(f))))
                        .as("the k=4 read cached its feed")
                        .isTrue();
                // The k=4 entry now answers k=2 and k=3 from the cache, with PostgreSQL's shares gone to prove it.
                store.database().clearShares();
                assertThat(feed(s, feedGraph, f, 2).get()).isEqualTo(oracle(state, f, 2));
                assertThat(feed(s, feedGraph, f, 3).get()).isEqualTo(oracle(state, f, 3));
            }
        }
    }

    /** Members of {@code watched} whose feed a public share of member {@code sharer} reaches: her current friends. */
    private static int[] audience(GraphState state, int sharer, int[] watched) {
        return Arrays.stream(watched)
                .filter(m -> state.relation(sharer, m) == Relation.FRIENDS)
                .toArray();
    }

    private static long[] ids(Share[] shares) {
        return Arrays.stream(shares).mapToLong(Share::id).toArray();
    }

    /** Caches every watched feed, runs {@code write}, and checks it deleted exactly the feed keys of {@code expected}. */
    private void assertFeedKeysDeleted(
            StoreSession s, CacheBackend.Ops ops, GraphState state, int[] watched, Runnable write, int[] expected) {
        for (int m : watched) {
            s.viewNewsFeed(id(m), FEED_K, new FeedList());
            assertThat(isEntry(ops.get("vnf:" + id(m))))
                    .as("feed of %d cached before the write", m)
                    .isTrue();
        }
        write.run();
        Set<String> gone = new LinkedHashSet<>();
        for (int m : watched) {
            if (ops.get("vnf:" + id(m)) == null) {
                gone.add("vnf:" + id(m));
            }
        }
        assertThat(gone)
                .as("feed keys the write deleted")
                .containsExactlyInAnyOrder(
                        Arrays.stream(expected).mapToObj(m -> "vnf:" + id(m)).toArray(String[]::new));
    }

    /** Each watched feed, read twice through the cache (fill or hit, then hit), equals the oracle and PostgreSQL. */
    private void assertFeeds(
            StoreSession s, StoreSession direct, CacheBackend.Ops ops, GraphState state, int[] watched, String when) {
        for (int m : watched) {
            String expected = oracle(state, m, FEED_K);
            assertThat(feed(direct, feedGraph, m, FEED_K).get())
                    .as("PostgreSQL's feed of %d %s", m, when)
                    .isEqualTo(expected);
            assertThat(feed(s, feedGraph, m, FEED_K).get())
                    .as("feed of %d %s", m, when)
                    .isEqualTo(expected);
            assertThat(isEntry(ops.get("vnf:" + id(m))))
                    .as("feed of %d cached %s", m, when)
                    .isTrue();
            assertThat(feed(s, feedGraph, m, FEED_K).get())
                    .as("cached feed of %d %s", m, when)
                    .isEqualTo(expected);
        }
    }

    /** The feed BG expects, as {@link #show(FeedList)} prints one. */
    private String oracle(GraphState state, int member, int k) {
        StringBuilder b = new StringBuilder();
        for (Share sh : state.feed(member, k)) {
            long r = sh.resource();
            b.append(sh.id())
                    .append('/')
                    .append(r)
                    .append('/')
                    .append(feedGraph.accountId(sh.account()))
                    .append('/')
                    .append(feedGraph.resourceType(r))
                    .append('/')
                    .append(feedGraph.resourceBody(r))
                    .append('/')
                    .append(feedGraph.resourceDoc(r))
                    .append(';');
        }
        return b.toString();
    }
}
