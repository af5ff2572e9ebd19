package org.bgbench.loader;

import java.util.ArrayList;
import java.util.List;
import org.bgbench.model.generator.SocialGraph;
import org.bgbench.store.DataStore;
import org.bgbench.store.FeedList;
import org.bgbench.store.ProfileView;
import org.bgbench.store.StoreCounts;
import org.bgbench.store.StoreSession;

/**
 * The check that ends every load (dissertation 5.1): the store's totals must equal the generator's, and a sample of members
 * must show the generated friend, pending and resource counts through View Profile. A store that fails it is not
 * benchmarked. With pages (dissertation 5.1) it also compares pages, follows and page resources, and checks that the
 * store holds no share: a fresh graph has none, so a sample of members' news feeds (View News Feed) must be empty.
 * Which pages a member follows no read action shows on its own, so follows are checked by their total.
 */
public final class SanityCheck {
    private SanityCheck() {}

    /** The problems found; empty when the store holds the freshly generated graph. */
    public static List<String> problems(DataStore store, SocialGraph g, StoreCounts counts, int sample) {
        List<String> problems = new ArrayList<>();
        StoreCounts want = new StoreCounts(
                new StoreCounts.Social(
                        g.members(),
                        g.totalFriendships(),
                        g.totalPendingInvitations(),
                        g.totalResources(),
                        g.totalInitialComments()),
                new StoreCounts.Feed(g.pages(), g.totalFollows(), g.totalPageResources(), 0));
        compare(problems, "members", counts.members(), want.members());
        compare(problems, "confirmed friendships", counts.friendships(), want.friendships());
        compare(problems, "pending invitations", counts.pending(), want.pending());
        compare(problems, "resources", counts.resources(), want.resources());
        compare(problems, "comments", counts.comments(), want.comments());
        if (g.pages() > 0) {
            compare(problems, "pages", counts.pages(), want.pages());
            compare(problems, "follows", counts.follows(), want.follows());
            compare(problems, "page resources", counts.pageResources(), want.pageResources());
            compare(problems, "shares", counts.shares(), want.shares());
        }
        if (!problems.isEmpty()) {
            return problems;
        }
        try (StoreSession s = store.openConsistentSession()) {
            ProfileView p = new ProfileView(g.attributeCount());
            int step = Math.max(1, g.members() / Math.max(1, sample));
            for (int i = 0; i < g.members() && problems.size() < 10; i += step) {
                int id = g.memberId(i);
                p.clear();
                s.viewProfile(id, id, p);
                if (p.friendCount != g.initialFriendCount(i)
                        || p.pendingCount != g.initialPendingCount(i)
                        || p.resourceCount != g.resourcesPerMember()) {
                    problems.add("member " + id + " shows " + p.friendCount + " friends, " + p.pendingCount
                            + " pending, " + p.resourceCount + " resources; generated: " + g.initialFriendCount(i)
                            + ", " + g.initialPendingCount(i) + ", " + g.resourcesPerMember());
                }
            }
            if (g.pages() > 0) {
                problems.addAll(nonEmptyFeeds(s, g, sample, 10 - Math.min(10, problems.size())));
            }
        }
        return problems;
    }

    /** Members of an even sample whose news feed is not empty (a graph as generated has no shares); at most max. */
    public static List<String> nonEmptyFeeds(StoreSession s, SocialGraph g, int sample, int max) {
        List<String> problems = new ArrayList<>();
        FeedList feed = new FeedList();
        int step = Math.max(1, g.members() / Math.max(1, sample));
        for (int i = 0; i < g.members() && problems.size() < max; i += step) {
            int id = g.memberId(i);
            feed.clear();
            s.viewNewsFeed(id, 10, feed);
            if (feed.size() > 0) {
                problems.add("member " + id + "'s news feed shows " + feed.size() + " shares (first "
                        + feed.get(0).shareId + "); a graph as loaded has none");
            }
        }
        return problems;
    }

    private static void compare(List<String> problems, String what, long got, long want) {
        if (got != want) {
            problems.add("store holds " + got + " " + what + ", the graph has " + want);
        }
    }
}
