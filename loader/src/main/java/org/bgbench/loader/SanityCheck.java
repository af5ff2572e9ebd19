package org.bgbench.loader;

import java.util.ArrayList;
import java.util.List;
import org.bgbench.model.generator.SocialGraph;
import org.bgbench.store.DataStore;
import org.bgbench.store.ProfileView;
import org.bgbench.store.StoreCounts;
import org.bgbench.store.StoreSession;

/**
 * The check that ends every load (dissertation 5.1): the store's totals must equal the generator's, and a sample of members
 * must show the generated friend, pending and resource counts through View Profile. A store that fails it is not
 * benchmarked.
 */
public final class SanityCheck {
    private SanityCheck() {
    }

    /** The problems found; empty when the store holds the freshly generated graph. */
    public static List<String> problems(DataStore store, SocialGraph g, StoreCounts counts, int sample) {
        List<String> problems = new ArrayList<>();
        StoreCounts want = new StoreCounts(g.members(), g.totalFriendships(), g.totalPendingInvitations(),
                g.totalResources(), g.totalInitialComments());
        compare(problems, "members", counts.members(), want.members());
        compare(problems, "confirmed friendships", counts.friendships(), want.friendships());
        compare(problems, "pending invitations", counts.pending(), want.pending());
        compare(problems, "resources", counts.resources(), want.resources());
        compare(problems, "comments", counts.comments(), want.comments());
        if (!problems.isEmpty()) {
            return problems;
        }
        try (StoreSession s = store.openSession()) {
            ProfileView p = new ProfileView(g.attributeCount());
            int step = Math.max(1, g.members() / Math.max(1, sample));
            for (int i = 0; i < g.members() && problems.size() < 10; i += step) {
                int id = g.memberId(i);
                p.clear();
                s.viewProfile(id, id, p);
                if (p.friendCount != g.initialFriendCount(i) || p.pendingCount != g.initialPendingCount(i)
                        || p.resourceCount != g.resourcesPerMember()) {
                    problems.add("member " + id + " shows " + p.friendCount + " friends, " + p.pendingCount
                            + " pending, " + p.resourceCount + " resources; generated: " + g.initialFriendCount(i)
                            + ", " + g.initialPendingCount(i) + ", " + g.resourcesPerMember());
                }
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
