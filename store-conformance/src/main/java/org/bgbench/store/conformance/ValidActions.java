package org.bgbench.store.conformance;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.bgbench.model.Action;
import org.bgbench.model.generator.Relation;
import org.bgbench.model.generator.SocialGraph;
import org.bgbench.model.state.GraphState;
import org.bgbench.store.StoreSession;

/**
 * Picks and performs random <em>valid</em> write actions against a store, keeping a {@link GraphState} in step. The
 * caller must make sure no other thread acts on the same members at the same time (the suite uses member locks).
 */
final class ValidActions {
    private final GraphState state;
    private final SocialGraph g;

    ValidActions(GraphState state) {
        this.state = state;
        this.g = state.graph();
    }

    /**
     * A second member for a two-member write by {@code a}, or -1: the caller locks both before {@link #perform}. For SR
     * it is the page account that shares instead of {@code a}, or -1 when {@code a} shares herself.
     */
    int partner(Action action, int a, SplittableRandom rnd) {
        return switch (action) {
            case IF -> {
                int fragment = g.fragmentOf(a);
                int start = g.fragmentStart(fragment);
                for (int tries = 0; tries < 20; tries++) {
                    int b = start + rnd.nextInt(g.fragmentSize(fragment));
                    if (b != a && state.relation(a, b) == Relation.NONE) {
                        yield b;
                    }
                }
                yield -1;
            }
            case SR -> {
                // One share in five is a page's (a page a follows: pages and members of a fragment act together).
                int[] pages = followed(a);
                yield pages.length > 0 && rnd.nextInt(5) == 0 ? g.pageAccount(pages[rnd.nextInt(pages.length)]) : -1;
            }
            case AFR, RFR -> state.pickInviter(a, rnd.nextInt());
            case TF -> state.pickFriend(a, rnd.nextInt());
            default -> -1;
        };
    }

    private int[] followed(int a) {
        it.unimi.dsi.fastutil.ints.IntArrayList out = new it.unimi.dsi.fastutil.ints.IntArrayList();
        g.forEachFollowedPage(a, out::add);
        return out.toIntArray();
    }

    /** Who may see {@code account}'s shares now: a member's friends, a page's followers (member indexes). */
    int[] audience(int account) {
        if (!g.isPageAccount(account)) {
            return state.friends(account);
        }
        it.unimi.dsi.fastutil.ints.IntArrayList out = new it.unimi.dsi.fastutil.ints.IntArrayList();
        g.forEachFollower(account - g.members(), out::add);
        return out.toIntArray();
    }

    /** Performs {@code action} by member {@code a} (with partner {@code b} for friendship writes); false if no-op. */
    boolean perform(StoreSession s, Action action, int a, int b, SplittableRandom rnd) {
        switch (action) {
            case IF -> {
                if (b < 0 || state.relation(a, b) != Relation.NONE) {
                    return false;
                }
                s.inviteFriend(g.memberId(a), g.memberId(b));
                state.invite(a, b);
            }
            case AFR, RFR -> {
                if (b < 0 || state.relation(a, b) != Relation.INVITED_BY) {
                    return false;
                }
                if (action == Action.AFR) {
                    s.acceptFriendRequest(g.memberId(a), g.memberId(b));
                    state.accept(a, b);
                } else {
                    s.rejectFriendRequest(g.memberId(a), g.memberId(b));
                    state.reject(a, b);
                }
            }
            case TF -> {
                if (b < 0 || state.relation(a, b) != Relation.FRIENDS) {
                    return false;
                }
                s.thawFriendship(g.memberId(a), g.memberId(b));
                state.thaw(a, b);
            }
            case PCR -> {
                if (g.resourcesPerMember() == 0) {
                    return false;
                }
                int owner = rnd.nextInt(g.members());
                long rid = g.resourceId(owner, rnd.nextInt(g.resourcesPerMember()));
                long mid = state.newCommentId();
                s.postCommentOnResource(
                        g.memberId(a),
                        g.memberId(owner),
                        rid,
                        mid,
                        System.currentTimeMillis(),
                        SocialGraph.text(mid, g.spec().commentLength()));
                state.postComment(rid, mid);
            }
            case DCR -> {
                long rid = state.pickResourceWithComments(a, rnd.nextInt());
                if (rid < 0) {
                    return false;
                }
                long mid = state.pickComment(rid, rnd.nextInt());
                s.deleteCommentFromResource(g.memberId(a), rid, mid);
                state.deleteComment(rid, mid);
            }
            case SR -> {
                int account = b >= 0 ? b : a;
                if (g.resourcesOf(account) == 0) {
                    return false;
                }
                long rid = g.accountResourceId(account, rnd.nextInt(g.resourcesOf(account)));
                int[] recipients = null;
                if (rnd.nextInt(3) == 0) {
                    // A list: some of the sharer's audience, leaving others out (they must not see it).
                    int[] audience = audience(account);
                    recipients = Arrays.stream(audience)
                            .filter(x -> rnd.nextBoolean())
                            .toArray();
                }
                long shareId = state.newShareId(account);
                s.shareResource(
                        g.accountId(account),
                        rid,
                        shareId,
                        recipients == null
                                ? null
                                : Arrays.stream(recipients).map(g::memberId).toArray());
                state.share(account, shareId, rid, recipients);
            }
            default -> throw new IllegalArgumentException("not a write: " + action);
        }
        return true;
    }
}
