package org.bgbench.store.conformance;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.TreeSet;
import org.bgbench.model.generator.SocialGraph;
import org.bgbench.model.state.GraphState;
import org.bgbench.model.state.Share;
import org.bgbench.store.CommentList;
import org.bgbench.store.DataStore;
import org.bgbench.store.FeedList;
import org.bgbench.store.MemberList;
import org.bgbench.store.ProfileView;
import org.bgbench.store.StoreCounts;
import org.bgbench.store.StoreSession;

/**
 * Compares what a store holds, read through its own actions, with BG's expected state: every member's friends,
 * pending invitations and counts, and every resource's comments. Used after runs and by the conformance suite.
 */
public final class StateComparison {
    private StateComparison() {}

    /** Differences found (at most {@code limit}); empty when the store holds exactly the expected state. */
    public static List<String> differences(DataStore store, GraphState state, int limit) {
        return differences(store, state, limit, null);
    }

    /**
     * Differences for {@code members} only (member indexes; a worker's share of the graph), or for all members when
     * null; the store-wide counts are compared only for all members.
     */
    /** k of the VNF compared for each member: enough to see several producers' shares, small enough to be cheap. */
    public static final int FEED_K = 10;

    public static List<String> differences(DataStore store, GraphState state, int limit, int[] members) {
        SocialGraph g = state.graph();
        List<String> diffs = new ArrayList<>();
        FeedList feed = new FeedList();
        long friendships = 0;
        long pending = 0;
        long comments = 0;
        try (StoreSession s = store.openConsistentSession()) {
            ProfileView profile = new ProfileView(g.attributeCount());
            MemberList list = new MemberList(g.attributeCount());
            CommentList commentList = new CommentList();
            int n = members == null ? g.members() : members.length;
            for (int x = 0; x < n && diffs.size() < limit; x++) {
                int i = members == null ? x : members[x];
                int id = g.memberId(i);
                int[] friends = ids(g, state.friends(i));
                int[] inviters = ids(g, state.inviters(i));
                friendships += friends.length;
                pending += inviters.length;
                profile.clear();
                s.viewProfile(id, id, profile);
                if (profile.friendCount != friends.length) {
                    diffs.add("member " + id + ": VP friend count " + profile.friendCount + ", expected "
                            + friends.length);
                }
                if (profile.pendingCount != inviters.length) {
                    diffs.add("member " + id + ": VP pending count " + profile.pendingCount + ", expected "
                            + inviters.length);
                }
                list.clear();
                s.listFriends(id, id, list);
                if (!Arrays.equals(list.sortedIds(), friends)) {
                    diffs.add("member " + id + ": LF " + Arrays.toString(list.sortedIds()) + ", expected "
                            + Arrays.toString(friends));
                }
                list.clear();
                s.viewFriendRequests(id, list);
                if (!Arrays.equals(list.sortedIds(), inviters)) {
                    diffs.add("member " + id + ": VFR " + Arrays.toString(list.sortedIds()) + ", expected "
                            + Arrays.toString(inviters));
                }
                if (g.pages() > 0 || state.shareCount() > 0) {
                    feedDifferences(s, state, i, FEED_K, feed, diffs);
                }
                for (int j = 0; j < g.resourcesPerMember() && diffs.size() < limit; j++) {
                    long rid = g.resourceId(i, j);
                    long[] expected = state.comments(rid);
                    comments += expected.length;
                    commentList.clear();
                    s.viewCommentsOnResource(id, id, rid, commentList);
                    if (!Arrays.equals(commentList.sortedIds(), expected)) {
                        diffs.add("resource " + rid + ": VCR " + Arrays.toString(commentList.sortedIds())
                                + ", expected " + Arrays.toString(expected));
                    }
                }
            }
        }
        if (diffs.isEmpty() && members == null) {
            StoreCounts c = store.counts();
            StoreCounts want = new StoreCounts(
                    new StoreCounts.Social(g.members(), friendships / 2, pending, g.totalResources(), comments),
                    new StoreCounts.Feed(g.pages(), g.totalFollows(), g.totalPageResources(), state.shareCount()));
            if (!c.equals(want)) {
                diffs.add("totals: " + describe(c, want));
            }
        }
        return diffs;
    }

    /**
     * The totals a store holding {@code state} counts, computed from the generator's totals and the touched members
     * only (so it costs nothing for an untouched graph of any size).
     */
    public static StoreCounts expectedCounts(GraphState state) {
        SocialGraph g = state.graph();
        long[] delta = new long[3];
        state.forEachTouched(i -> {
            delta[0] += state.friendCount(i) - g.initialFriendCount(i);
            delta[1] += state.pendingCount(i) - g.initialPendingCount(i);
            for (int j = 0; j < g.resourcesPerMember(); j++) {
                delta[2] += state.commentCount(g.resourceId(i, j)) - g.spec().commentsPerResource();
            }
        });
        return new StoreCounts(
                new StoreCounts.Social(
                        g.members(),
                        g.totalFriendships() + delta[0] / 2,
                        g.totalPendingInvitations() + delta[1],
                        g.totalResources(),
                        g.totalInitialComments() + delta[2]),
                new StoreCounts.Feed(g.pages(), g.totalFollows(), g.totalPageResources(), state.shareCount()));
    }

    /**
     * Compares member {@code i}'s View News Feed of {@code k} with {@link GraphState#feed}: the same shares in the same
     * order (most recent first), each with its resource, sharer and the resource's attributes.
     */
    public static void feedDifferences(
            StoreSession s, GraphState state, int i, int k, FeedList feed, List<String> diffs) {
        SocialGraph g = state.graph();
        Share[] want = state.feed(i, k);
        feed.clear();
        s.viewNewsFeed(g.memberId(i), k, feed);
        long[] wantIds = new long[want.length];
        for (int x = 0; x < want.length; x++) {
            wantIds[x] = want[x].id();
        }
        if (!Arrays.equals(feed.shareIds(), wantIds)) {
            diffs.add("member " + g.memberId(i) + ": VNF shares " + Arrays.toString(feed.shareIds()) + ", expected "
                    + Arrays.toString(wantIds));
            return;
        }
        for (int x = 0; x < want.length; x++) {
            FeedList.Row row = feed.get(x);
            long rid = want[x].resource();
            if (row.resourceId != rid
                    || row.sharerId != g.accountId(want[x].account())
                    || !g.resourceType(rid).equals(row.type)
                    || !g.resourceBody(rid).equals(row.body)
                    || !g.resourceDoc(rid).equals(row.doc)) {
                diffs.add("member " + g.memberId(i) + ": VNF share " + row.shareId + " shows resource " + row.resourceId
                        + " by " + row.sharerId + " (" + row.type + ", " + row.body + ", " + row.doc + "), expected "
                        + rid + " by " + g.accountId(want[x].account()));
                return;
            }
        }
    }

    /**
     * A cheap check that a store holds {@code state}: up to {@code n} members drawn from those writes touched and up to
     * {@code n} drawn from all members, each compared in full (VP counts, LF, VFR, every resource's comments), then
     * the store's totals against {@link #expectedCounts} (one count per table: a row added or removed anywhere shows).
     * Returns the differences found (at most {@code limit}); empty when the sample agrees.
     */
    public static List<String> sampled(DataStore store, GraphState state, int n, long seed, int limit) {
        SocialGraph g = state.graph();
        SplittableRandom rnd = new SplittableRandom(seed);
        it.unimi.dsi.fastutil.ints.IntArrayList touched = new it.unimi.dsi.fastutil.ints.IntArrayList();
        state.forEachTouched(touched::add);
        TreeSet<Integer> pick = new TreeSet<>();
        // A partial Fisher–Yates shuffle: n distinct touched members.
        int[] t = touched.toIntArray();
        for (int k = 0; k < Math.min(n, t.length); k++) {
            int j = k + rnd.nextInt(t.length - k);
            int x = t[j];
            t[j] = t[k];
            t[k] = x;
            pick.add(x);
        }
        for (int k = 0; k < Math.min(n, g.members()); k++) {
            pick.add(rnd.nextInt(g.members()));
        }
        int[] members = pick.stream().mapToInt(Integer::intValue).toArray();
        List<String> diffs = new ArrayList<>(differences(store, state, limit, members));
        if (diffs.size() < limit) {
            StoreCounts c = store.counts();
            StoreCounts want = expectedCounts(state);
            if (!c.equals(want)) {
                diffs.add("totals: " + describe(c, want));
            }
        }
        return diffs;
    }

    /** The totals that differ, e.g. {@code friendships 1,199, expected 1,200}. */
    private static String describe(StoreCounts c, StoreCounts want) {
        List<String> parts = new ArrayList<>();
        String[] names = {"members", "friendships", "pending invitations", "resources", "comments"};
        long[] have = {c.members(), c.friendships(), c.pending(), c.resources(), c.comments()};
        long[] expected = {want.members(), want.friendships(), want.pending(), want.resources(), want.comments()};
        for (int k = 0; k < names.length; k++) {
            if (have[k] != expected[k]) {
                parts.add(String.format(Locale.ROOT, "%s %,d, expected %,d", names[k], have[k], expected[k]));
            }
        }
        return String.join("; ", parts);
    }

    private static int[] ids(SocialGraph g, int[] indexes) {
        int[] out = new int[indexes.length];
        for (int k = 0; k < indexes.length; k++) {
            out[k] = g.memberId(indexes[k]);
        }
        Arrays.sort(out);
        return out;
    }
}
