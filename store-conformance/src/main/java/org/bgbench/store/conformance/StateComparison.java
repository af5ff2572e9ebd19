package org.bgbench.store.conformance;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.bgbench.model.generator.SocialGraph;
import org.bgbench.model.state.GraphState;
import org.bgbench.store.CommentList;
import org.bgbench.store.DataStore;
import org.bgbench.store.MemberList;
import org.bgbench.store.ProfileView;
import org.bgbench.store.StoreCounts;
import org.bgbench.store.StoreSession;

/**
 * Compares what a store holds, read through its own actions, with BG's expected state: every member's friends,
 * pending invitations and counts, and every resource's comments. Used after runs and by the conformance suite.
 */
public final class StateComparison {
    private StateComparison() {
    }

    /** Differences found (at most {@code limit}); empty when the store holds exactly the expected state. */
    public static List<String> differences(DataStore store, GraphState state, int limit) {
        return differences(store, state, limit, null);
    }

    /**
     * Differences for {@code members} only (member indexes; a worker's share of the graph), or for all members when
     * null; the store-wide counts are compared only for all members.
     */
    public static List<String> differences(DataStore store, GraphState state, int limit, int[] members) {
        SocialGraph g = state.graph();
        List<String> diffs = new ArrayList<>();
        long friendships = 0;
        long pending = 0;
        long comments = 0;
        try (StoreSession s = store.openSession()) {
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
                    diffs.add("member " + id + ": VP friend count " + profile.friendCount + ", expected " + friends.length);
                }
                if (profile.pendingCount != inviters.length) {
                    diffs.add("member " + id + ": VP pending count " + profile.pendingCount + ", expected " + inviters.length);
                }
                list.clear();
                s.listFriends(id, id, list);
                if (!Arrays.equals(list.sortedIds(), friends)) {
                    diffs.add("member " + id + ": LF " + Arrays.toString(list.sortedIds()) + ", expected " + Arrays.toString(friends));
                }
                list.clear();
                s.viewFriendRequests(id, list);
                if (!Arrays.equals(list.sortedIds(), inviters)) {
                    diffs.add("member " + id + ": VFR " + Arrays.toString(list.sortedIds()) + ", expected " + Arrays.toString(inviters));
                }
                for (int j = 0; j < g.resourcesPerMember() && diffs.size() < limit; j++) {
                    long rid = g.resourceId(i, j);
                    long[] expected = state.comments(rid);
                    comments += expected.length;
                    commentList.clear();
                    s.viewCommentsOnResource(id, id, rid, commentList);
                    if (!Arrays.equals(commentList.sortedIds(), expected)) {
                        diffs.add("resource " + rid + ": VCR " + Arrays.toString(commentList.sortedIds()) + ", expected " + Arrays.toString(expected));
                    }
                }
            }
        }
        if (diffs.isEmpty() && members == null) {
            StoreCounts c = store.counts();
            StoreCounts want = new StoreCounts(g.members(), friendships / 2, pending, g.totalResources(), comments);
            if (!c.equals(want)) {
                diffs.add("counts " + c + ", expected " + want);
            }
        }
        return diffs;
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
