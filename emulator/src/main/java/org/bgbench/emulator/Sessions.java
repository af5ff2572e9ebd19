package org.bgbench.emulator;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.bgbench.model.SessionType;
import org.bgbench.model.generator.SocialGraph;
import org.bgbench.model.log.ActionRecorder;
import org.bgbench.model.log.ArrivalRecorder;
import org.bgbench.model.state.GraphState;

/**
 * One member's sessions (dissertation 3.3): sequences of actions with think time ε between their steps, each
 * starting with the member's own profile and top-k resources; a session ends early when its next step is impossible.
 * A whole session is recorded with its latency, think time excluded; one cut short is a no-op.
 */
final class Sessions {
    private final Actions actions;
    private final MeasuredSession s;
    private final ActionRecorder rec;
    private final SplittableRandom rnd;
    private final GraphState state;
    private final SocialGraph graph;
    private final Workload workload;
    private final EmulatorConfig config;
    private final RunPhases phases;
    /** The open model: where this member's service times go. */
    ArrivalRecorder arrivalRecorder = Emulator.NO_ARRIVALS;

    Sessions(RunContext run, Actions actions) {
        this.actions = actions;
        this.s = actions.s;
        this.rec = actions.rec;
        this.rnd = actions.rnd;
        this.state = run.state();
        this.graph = run.state().graph();
        this.workload = run.workload();
        this.config = run.config();
        this.phases = run.phases();
    }

    /** Nanoseconds slept in think time by the current session. */
    private long thinking;
    /** The open model: how long the current arrival waited to start (0 in the closed model). */
    long arrivalDelay;
    /** The open model: whether the current arrival is measured. */
    boolean arrivalMeasured;

    /** Think time between two steps of a session; always true so it chains with {@code &&}. */
    private boolean then() {
        thinking += think();
        return true;
    }

    /** A random resource among the top k on {@code owner}'s wall, as a member picks one from VTR; -1 if none. */
    private long topKResource(int owner) {
        int rho = graph.resourcesPerMember();
        int shown = Math.min(config.actions().topK(), rho);
        return shown == 0 ? -1 : graph.resourceId(owner, rho - 1 - rnd.nextInt(shown));
    }

    /**
     * The sessions of the dissertation's 3.3: each starts by viewing one's own profile and top-k resources, then
     * goes on as its name says; a session ends early when its next step is impossible.
     */
    void session(SessionType session, int a) {
        long start = System.nanoTime();
        thinking = 0;
        boolean whole = s.viewProfile(a, a) && then() && s.viewTopKResources(a, a);
        switch (session) {
            case VIEW_SELF_PROFILE -> {}
            case VIEW_FRIEND_PROFILE -> {
                whole = whole && then() && s.listFriends(a, a);
                int f = whole ? state.pickFriend(a, rnd.nextInt()) : -1;
                whole = whole && f >= 0 && then() && s.viewProfile(a, f) && then() && s.viewTopKResources(a, f);
            }
            case POST_COMMENT -> {
                int b = workload.pickTarget(rnd);
                whole = whole && then() && s.viewProfile(a, b) && then() && s.viewTopKResources(a, b);
                long rid = whole ? topKResource(b) : -1;
                whole = whole
                        && rid >= 0
                        && then()
                        && s.viewComments(a, rid)
                        && then()
                        && actions.postComment(a, rid)
                        && then()
                        && s.viewComments(a, rid);
            }
            case DELETE_COMMENT -> {
                long rid = whole ? topKResource(a) : -1;
                whole = whole
                        && rid >= 0
                        && then()
                        && s.viewComments(a, rid)
                        && state.commentCount(rid) > 0
                        && then()
                        && actions.deleteComment(a, rid)
                        && then()
                        && s.viewComments(a, rid);
            }
            case INVITE_FRIEND ->
                whole = whole
                        && then()
                        && s.listFriends(a, a)
                        && then()
                        && actions.inviteFriend(a, -1)
                        && then()
                        && s.viewFriendRequests(a);
            case ACCEPT_FRIEND_REQUEST, REJECT_FRIEND_REQUEST ->
                whole = whole
                        && then()
                        && s.listFriends(a, a)
                        && then()
                        && s.viewFriendRequests(a)
                        && state.pendingCount(a) > 0
                        && then()
                        && actions.answerInvitation(a, session == SessionType.ACCEPT_FRIEND_REQUEST)
                        && then()
                        && s.viewFriendRequests(a)
                        && then()
                        && s.listFriends(a, a);
            case THAW_FRIENDSHIP ->
                whole = whole
                        && then()
                        && s.listFriends(a, a)
                        && state.friendCount(a) > 0
                        && then()
                        && actions.thawFriendship(a, -1)
                        && then()
                        && s.listFriends(a, a);
        }
        long elapsed = System.nanoTime() - start - thinking;
        if (whole) {
            rec.ok(session.index(), elapsed + arrivalDelay);
            if (arrivalMeasured && phases.clock != null) {
                arrivalRecorder.service(session.index(), elapsed);
            }
        } else {
            rec.noop(session.index());
        }
    }

    /** Sleeps ε and returns the nanoseconds slept, so session latency excludes think time. */
    private long think() {
        if (config.pacing().thinkTimeMs() <= 0 || phases.stop) {
            return 0;
        }
        long t0 = System.nanoTime();
        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(config.pacing().thinkTimeMs()));
        return System.nanoTime() - t0;
    }
}
