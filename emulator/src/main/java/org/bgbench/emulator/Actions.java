package org.bgbench.emulator;

import it.unimi.dsi.fastutil.ints.IntArrayList;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.bgbench.model.Action;
import org.bgbench.model.FeedWorkload;
import org.bgbench.model.generator.Relation;
import org.bgbench.model.generator.SocialGraph;
import org.bgbench.model.log.ActionRecorder;
import org.bgbench.model.state.GraphState;

/**
 * One member's actions (dissertation table 4.1): picks each write's target from the {@link GraphState}, locks the
 * members table 5.1 says, re-checks under the lock, issues the action through the member's {@link MeasuredSession} and
 * updates the expected state once the store has acknowledged it. A target that cannot be found is a no-op.
 */
final class Actions {
    /** How many targets a thread tries before it records a no-op. */
    private static final int TARGET_TRIES = 8;

    final MeasuredSession s;
    final ActionRecorder rec;
    final SplittableRandom rnd;
    private final GraphState state;
    private final SocialGraph graph;
    private final Workload workload;
    private final EmulatorConfig config;
    private final MemberLocks locks;
    private final RunPhases phases;
    private final boolean locking;
    private final boolean unique;
    private final String commentText;

    Actions(RunContext run, MeasuredSession s, ActionRecorder rec, SplittableRandom rnd, String commentText) {
        this.s = s;
        this.rec = rec;
        this.rnd = rnd;
        this.state = run.state();
        this.graph = run.state().graph();
        this.workload = run.workload();
        this.config = run.config();
        this.locks = run.locks();
        this.phases = run.phases();
        this.locking = config.members().locks();
        this.unique = config.members().uniqueSocialites();
        this.commentText = commentText;
    }

    /** Locks a second member (IF, TF) or the socialite itself when socialites are not unique. */
    private boolean lockOther(int m) {
        return !locking || locks.tryLock(m);
    }

    private void unlockOther(int m) {
        if (locking) {
            locks.unlock(m);
        }
    }

    /** With locks on but socialites not unique, writes lock the socialite; waits a bounded time for it. */
    private boolean lockSelf(int a) {
        if (!locking || unique) {
            return true;
        }
        if (locks.tryLock(a)) {
            return true;
        }
        long t0 = System.nanoTime();
        long deadline = t0 + TimeUnit.MILLISECONDS.toNanos(100);
        while (!phases.stop && System.nanoTime() < deadline) {
            Thread.yield();
            if (locks.tryLock(a)) {
                rec.bgWait(System.nanoTime() - t0);
                return true;
            }
        }
        rec.bgWait(System.nanoTime() - t0);
        return false;
    }

    private void unlockSelf(int a) {
        if (locking && !unique) {
            locks.unlock(a);
        }
    }

    /** Issues one action; returns false if it was a no-op or failed (a session then ends). */
    boolean action(Action action, int a) {
        return switch (action) {
            case VP -> s.viewProfile(a, workload.pickTarget(rnd));
            case LF -> s.listFriends(a, workload.pickTarget(rnd));
            case VFR -> s.viewFriendRequests(a);
            case IF -> inviteFriend(a, -1);
            case AFR -> answerInvitation(a, true);
            case RFR -> answerInvitation(a, false);
            case TF -> thawFriendship(a, -1);
            case VTR -> s.viewTopKResources(a, workload.pickTarget(rnd));
            case VCR -> viewComments(a, randomResource(workload.pickTarget(rnd)));
            case PCR -> postComment(a, randomResource(workload.pickTarget(rnd)));
            case DCR -> deleteComment(a, -1);
            case SR -> shareResource(a);
            case VNF -> s.viewNewsFeed(a, config.actions().feeds().k());
        };
    }

    /**
     * SR by {@code a}, or (a {@code pageshareratio} of the time) by a page {@code a} follows: one of the
     * sharer's resources, publicly or (a {@code sharelistratio} of the time) with a list drawn from its friends
     * or followers. A member's share locks her as the other writes do; a page's needs no lock (a page only shares).
     */
    private boolean shareResource(int a) {
        FeedWorkload f = config.actions().feeds();
        int account = a;
        if (graph.pagesPerMember() > 0 && f.pageShareFraction() > 0 && rnd.nextDouble() < f.pageShareFraction()) {
            int nth = rnd.nextInt(graph.pagesPerMember());
            int[] page = {-1};
            int[] j = {0};
            graph.forEachFollowedPage(a, p -> {
                if (j[0]++ == nth) {
                    page[0] = p;
                }
            });
            account = graph.pageAccount(page[0]);
        }
        int resources = graph.resourcesOf(account);
        if (resources == 0) {
            rec.noop(Action.SR.index());
            return false;
        }
        boolean member = account == a;
        if (member && !lockSelf(a)) {
            rec.noop(Action.SR.index());
            return false;
        }
        try {
            long rid = graph.accountResourceId(account, rnd.nextInt(resources));
            int[] recipients = null;
            if (f.listFraction() > 0 && rnd.nextDouble() < f.listFraction()) {
                recipients = recipients(account, f.listSize());
            }
            long shareId = state.newShareId(account);
            if (!s.shareResource(account, rid, shareId, recipients)) {
                return false;
            }
            state.share(account, shareId, rid, recipients);
            return true;
        } finally {
            if (member) {
                unlockSelf(a);
            }
        }
    }

    /** Up to {@code n} distinct members drawn from {@code account}'s friends (a member) or followers (a page). */
    private int[] recipients(int account, int n) {
        int[] audience;
        if (graph.isPageAccount(account)) {
            IntArrayList followers = new IntArrayList();
            graph.forEachFollower(account - graph.members(), followers::add);
            audience = followers.elements();
            audience = Arrays.copyOf(audience, followers.size());
        } else {
            audience = state.friends(account);
        }
        int take = Math.min(n, audience.length);
        // A partial Fisher–Yates shuffle: the first take entries become a uniform sample.
        for (int i = 0; i < take; i++) {
            int j = i + rnd.nextInt(audience.length - i);
            int x = audience[i];
            audience[i] = audience[j];
            audience[j] = x;
        }
        return Arrays.copyOf(audience, take);
    }

    long randomResource(int owner) {
        int rho = graph.resourcesPerMember();
        return rho == 0 ? -1 : graph.resourceId(owner, rnd.nextInt(rho));
    }

    /** VCR of {@code rid}; a no-op when there is no resource. */
    private boolean viewComments(int a, long rid) {
        if (rid < 0) {
            rec.noop(Action.VCR.index());
            return false;
        }
        return s.viewComments(a, rid);
    }

    /** IF by {@code a} to {@code target} (or a random unrelated member when -1). */
    boolean inviteFriend(int a, int target) {
        if (!lockSelf(a)) {
            rec.noop(Action.IF.index());
            return false;
        }
        try {
            for (int t = 0; t < TARGET_TRIES; t++) {
                int b = target >= 0 ? target : workload.pickTarget(rnd);
                if (b == a || state.relation(a, b) != Relation.NONE || !lockOther(b)) {
                    continue;
                }
                try {
                    if (state.relation(a, b) != Relation.NONE) {
                        continue;
                    }
                    if (!s.inviteFriend(a, b)) {
                        return false;
                    }
                    state.invite(a, b);
                    return true;
                } finally {
                    unlockOther(b);
                }
            }
            rec.noop(Action.IF.index());
            return false;
        } finally {
            unlockSelf(a);
        }
    }

    /** AFR or RFR by {@code a} of a random pending invitation. */
    boolean answerInvitation(int a, boolean accept) {
        Action action = accept ? Action.AFR : Action.RFR;
        if (!lockSelf(a)) {
            rec.noop(action.index());
            return false;
        }
        try {
            int inviter = state.pickInviter(a, rnd.nextInt());
            if (inviter < 0) {
                rec.noop(action.index());
                return false;
            }
            if (accept) {
                if (!s.acceptFriendRequest(a, inviter)) {
                    return false;
                }
                state.accept(a, inviter);
            } else {
                if (!s.rejectFriendRequest(a, inviter)) {
                    return false;
                }
                state.reject(a, inviter);
            }
            return true;
        } finally {
            unlockSelf(a);
        }
    }

    /** TF of {@code a} with {@code friend} (or a random friend when -1). */
    boolean thawFriendship(int a, int friend) {
        if (!lockSelf(a)) {
            rec.noop(Action.TF.index());
            return false;
        }
        try {
            for (int t = 0; t < TARGET_TRIES; t++) {
                int b = friend >= 0 ? friend : state.pickFriend(a, rnd.nextInt());
                if (b < 0) {
                    break;
                }
                if (!lockOther(b)) {
                    continue;
                }
                try {
                    if (state.relation(a, b) != Relation.FRIENDS) {
                        continue;
                    }
                    if (!s.thawFriendship(a, b)) {
                        return false;
                    }
                    state.thaw(a, b);
                    return true;
                } finally {
                    unlockOther(b);
                }
            }
            rec.noop(Action.TF.index());
            return false;
        } finally {
            unlockSelf(a);
        }
    }

    /** PCR by {@code a} on {@code rid}, with a new comment id; a no-op when there is no resource. */
    boolean postComment(int a, long rid) {
        if (rid < 0) {
            rec.noop(Action.PCR.index());
            return false;
        }
        long mid = state.newCommentId();
        if (!s.postComment(a, rid, mid, commentText)) {
            return false;
        }
        state.postComment(rid, mid);
        return true;
    }

    /** DCR by {@code a} on her resource {@code rid} (or one with comments when -1). */
    boolean deleteComment(int a, long rid) {
        if (!lockSelf(a)) {
            rec.noop(Action.DCR.index());
            return false;
        }
        try {
            long r = rid >= 0 ? rid : state.pickResourceWithComments(a, rnd.nextInt());
            long mid = r < 0 ? -1 : state.pickComment(r, rnd.nextInt());
            if (mid < 0) {
                rec.noop(Action.DCR.index());
                return false;
            }
            if (!s.deleteComment(a, r, mid)) {
                return false;
            }
            state.deleteComment(r, mid);
            return true;
        } finally {
            unlockSelf(a);
        }
    }
}
