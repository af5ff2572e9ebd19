package org.bgbench.emulator;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import org.bgbench.model.Action;
import org.bgbench.model.generator.SocialGraph;
import org.bgbench.model.log.ActionRecorder;
import org.bgbench.model.log.ArrivalRecorder;
import org.bgbench.model.log.ValidationLog;
import org.bgbench.store.CommentList;
import org.bgbench.store.FeedList;
import org.bgbench.store.MemberList;
import org.bgbench.store.ProfileView;
import org.bgbench.store.ResourceList;
import org.bgbench.store.StoreSession;

/**
 * One emulated member's {@link StoreSession}, measured, in the manner of YCSB's DBWrapper: each action times the
 * store's call, records it ({@link ActionRecorder#ok} with its latency, or {@link ActionRecorder#error}), logs what validation needs
 * (reads of validated items in the measured period, every write's deltas) and returns whether the store acknowledged.
 * What BG decides itself — which targets are valid, the member locks, no-ops, BG's expected state — stays in the
 * {@link Emulator}, which calls this only with valid targets and updates its state when this returns true.
 *
 * <p>On one call in {@value #CPU_EVERY} it also records the CPU time its thread spent in the store's call
 * ({@link ActionRecorder#cpu}): the store binding, its driver, TLS, system calls. Platform threads only: a virtual
 * thread has no CPU clock of its own, and nothing is recorded.
 *
 * <p>Members are BG's member indexes; this class turns them into the store's ids. Read actions fill views owned by
 * this class and reused, so an action allocates nothing here. One instance per member thread, not thread-safe.
 */
final class MeasuredSession {
    // Kinds as constants: the hot path records and logs them without a call.
    private static final int VP = Action.VP.index();
    private static final int LF = Action.LF.index();
    private static final int VFR = Action.VFR.index();
    private static final int IF = Action.IF.index();
    private static final int AFR = Action.AFR.index();
    private static final int RFR = Action.RFR.index();
    private static final int TF = Action.TF.index();
    private static final int VTR = Action.VTR.index();
    private static final int VCR = Action.VCR.index();
    private static final int PCR = Action.PCR.index();
    private static final int DCR = Action.DCR.index();
    private static final int SR = Action.SR.index();
    private static final int VNF = Action.VNF.index();

    /**
     * Every how many calls the thread's CPU clock is read, before and after the call. A read is a system call
     * (clock_gettime of the thread's CPU clock, ~0.3 µs, up to ~0.8 µs on some machines): on every call the two reads
     * would add a noticeable share to a fast store's action; on one call in 8 they cost ~0.1 µs per action, and a
     * run still gets thousands of samples a second. A power of two.
     */
    static final int CPU_EVERY = 8;
    /** The JVM's thread CPU clock, or null when it has none. */
    private static final ThreadMXBean CPU_CLOCK = cpuClock();

    private final StoreSession store;
    private final SocialGraph graph;
    private final ActionRecorder rec;
    /** Null when the run is not validated. */
    private final ValidationLog log;

    private final StoreErrors errors;
    /** Where this member shows which call it is in, and since when. */
    private final InFlight inFlight;

    private final int slot;
    private final int topK;
    private final ProfileView profile;
    private final MemberList members;
    private final ResourceList resources = new ResourceList();
    private final CommentList comments = new CommentList();
    private final FeedList feed = new FeedList();
    /** The share ids a VNF returned, as logged; grows to the largest feed seen. */
    private long[] feedIds = new long[16];
    /** Whether reads go to the log: whenever there is one (the log keeps them in the measured period only). */
    private final boolean logReads;
    /** The open model's recorder of service times, or null (closed model). */
    private ArrivalRecorder arrivals;
    /** Whether the current arrival is measured (its service times are recorded). */
    private boolean measuredArrival;
    /**
     * How long the current arrival waited to start, added to the response time of its next recorded action (the first
     * one, which the arrival's wait delayed); 0 in the closed model and after that action.
     */
    private long startDelay;
    /** Calls started, for sampling the CPU clock. */
    private int calls;
    /** The thread's CPU time when the current sampled call started, ns; -1 when the call is not sampled. */
    private long cpuAtStart = -1;

    /**
     * @param log    where this member's reads and writes go for validation, or null
     * @param errors counts the store's failures across all members
     * @param topK   k of View Top-K Resources
     */
    MeasuredSession(
            StoreSession store,
            SocialGraph graph,
            ActionRecorder rec,
            ValidationLog log,
            StoreErrors errors,
            int topK) {
        this(store, graph, rec, log, errors, new InFlight(1), 0, topK);
    }

    /** @param thread this member's thread, whose slot of {@code inFlight} shows the call it is in */
    MeasuredSession(
            StoreSession store,
            SocialGraph graph,
            ActionRecorder rec,
            ValidationLog log,
            StoreErrors errors,
            InFlight inFlight,
            int thread,
            int topK) {
        this.store = store;
        this.inFlight = inFlight;
        this.slot = inFlight.slot(thread);
        this.graph = graph;
        this.rec = rec;
        this.log = log;
        this.errors = errors;
        this.topK = topK;
        this.profile = new ProfileView(graph.attributeCount());
        this.members = new MemberList(graph.attributeCount());
        this.logReads = log != null;
        if (log != null) {
            log.keepReads(0);
        }
    }

    /**
     * Logs reads from now on ({@code true}) or not. Writes are always logged, from the first request on, so the logs
     * hold every change since the expected state was taken; reads only count in the measured period.
     */
    void logReads(boolean on) {
        logReads(on ? 1 : 0);
    }

    /**
     * As {@link #logReads(boolean)}: 1 in the measured period, 0 in the warm-up. The reads go to the log either way
     * and the log drops the warm-up's ({@link ValidationLog#keepReads}), so the code that runs does not change when
     * the measured period starts.
     */
    void logReads(int measured) {
        if (logReads) {
            log.keepReads(measured);
        }
    }

    /** The open model: service times go to {@code arrivals} beside the response times. */
    void recordServiceTimes(ArrivalRecorder arrivals) {
        this.arrivals = arrivals;
    }

    /**
     * An arrival starts now, {@code delayNanos} after it was due: its first action's response time counts from when it
     * was due. Returns the delay, which the caller adds to a session's own response time.
     */
    void arrival(long delayNanos, boolean measured) {
        this.startDelay = Math.max(0, delayNanos);
        this.measuredArrival = measured;
    }

    // ---- reads ----

    /** VP of {@code member} by {@code requester}; logs the friend count and (her own profile) the pending count. */
    boolean viewProfile(int requester, int member) {
        profile.clear();
        long t0 = start(VP);
        try {
            store.viewProfile(graph.memberId(requester), graph.memberId(member), profile);
        } catch (RuntimeException e) {
            return failed(VP, t0, e);
        }
        long t1 = acknowledged(VP, t0);
        if (logReads) {
            log.read((byte) VP, ValidationLog.FRIENDS, member, t0, t1, profile.friendCount);
            if (profile.pendingCount >= 0) {
                log.read((byte) VP, ValidationLog.PENDING, member, t0, t1, profile.pendingCount);
            }
        }
        return true;
    }

    /** LF of {@code member}; logs her friend count as the list's size. */
    boolean listFriends(int requester, int member) {
        members.clear();
        long t0 = start(LF);
        try {
            store.listFriends(graph.memberId(requester), graph.memberId(member), members);
        } catch (RuntimeException e) {
            return failed(LF, t0, e);
        }
        long t1 = acknowledged(LF, t0);
        if (logReads) {
            log.read((byte) LF, ValidationLog.FRIENDS, member, t0, t1, members.size());
        }
        return true;
    }

    /** VFR of {@code member}; logs her pending count as the list's size. */
    boolean viewFriendRequests(int member) {
        members.clear();
        long t0 = start(VFR);
        try {
            store.viewFriendRequests(graph.memberId(member), members);
        } catch (RuntimeException e) {
            return failed(VFR, t0, e);
        }
        long t1 = acknowledged(VFR, t0);
        if (logReads) {
            log.read((byte) VFR, ValidationLog.PENDING, member, t0, t1, members.size());
        }
        return true;
    }

    /** VTR of {@code member}'s wall; nothing to validate. */
    boolean viewTopKResources(int requester, int member) {
        resources.clear();
        long t0 = start(VTR);
        try {
            store.viewTopKResources(graph.memberId(requester), graph.memberId(member), topK, resources);
        } catch (RuntimeException e) {
            return failed(VTR, t0, e);
        }
        acknowledged(VTR, t0);
        return true;
    }

    /** VCR of {@code resource}; logs its comment count as the list's size. */
    boolean viewComments(int requester, long resource) {
        comments.clear();
        long t0 = start(VCR);
        try {
            store.viewCommentsOnResource(
                    graph.memberId(requester), graph.memberId(graph.resourceOwner(resource)), resource, comments);
        } catch (RuntimeException e) {
            return failed(VCR, t0, e);
        }
        long t1 = acknowledged(VCR, t0);
        if (logReads) {
            log.read((byte) VCR, ValidationLog.COMMENTS, resource, t0, t1, comments.size());
        }
        return true;
    }

    // ---- writes: each logs the change it makes to every validated item ----

    /** IF: one more pending invitation for {@code invitee}. */
    boolean inviteFriend(int inviter, int invitee) {
        long t0 = start(IF);
        try {
            store.inviteFriend(graph.memberId(inviter), graph.memberId(invitee));
        } catch (RuntimeException e) {
            return failed(IF, t0, e);
        }
        long t1 = acknowledged(IF, t0);
        if (log != null) {
            log.delta((byte) IF, ValidationLog.PENDING, invitee, t0, t1, 1);
        }
        return true;
    }

    /** AFR: one pending invitation fewer for {@code invitee}, one friend more for both. */
    boolean acceptFriendRequest(int invitee, int inviter) {
        long t0 = start(AFR);
        try {
            store.acceptFriendRequest(graph.memberId(invitee), graph.memberId(inviter));
        } catch (RuntimeException e) {
            return failed(AFR, t0, e);
        }
        long t1 = acknowledged(AFR, t0);
        if (log != null) {
            log.delta((byte) AFR, ValidationLog.PENDING, invitee, t0, t1, -1);
            log.delta((byte) AFR, ValidationLog.FRIENDS, invitee, t0, t1, 1);
            log.delta((byte) AFR, ValidationLog.FRIENDS, inviter, t0, t1, 1);
            log.friendship((byte) AFR, invitee, inviter, t0, t1, true);
        }
        return true;
    }

    /** RFR: one pending invitation fewer for {@code invitee}. */
    boolean rejectFriendRequest(int invitee, int inviter) {
        long t0 = start(RFR);
        try {
            store.rejectFriendRequest(graph.memberId(invitee), graph.memberId(inviter));
        } catch (RuntimeException e) {
            return failed(RFR, t0, e);
        }
        long t1 = acknowledged(RFR, t0);
        if (log != null) {
            log.delta((byte) RFR, ValidationLog.PENDING, invitee, t0, t1, -1);
        }
        return true;
    }

    /** TF: one friend fewer for both. */
    boolean thawFriendship(int member, int friend) {
        long t0 = start(TF);
        try {
            store.thawFriendship(graph.memberId(member), graph.memberId(friend));
        } catch (RuntimeException e) {
            return failed(TF, t0, e);
        }
        long t1 = acknowledged(TF, t0);
        if (log != null) {
            log.delta((byte) TF, ValidationLog.FRIENDS, member, t0, t1, -1);
            log.delta((byte) TF, ValidationLog.FRIENDS, friend, t0, t1, -1);
            log.friendship((byte) TF, member, friend, t0, t1, false);
        }
        return true;
    }

    /** PCR: comment {@code commentId} with {@code text} on {@code resource}, posted now; one comment more. */
    boolean postComment(int commenter, long resource, long commentId, String text) {
        long t0 = start(PCR);
        try {
            store.postCommentOnResource(
                    graph.memberId(commenter),
                    graph.memberId(graph.resourceOwner(resource)),
                    resource,
                    commentId,
                    System.currentTimeMillis(),
                    text);
        } catch (RuntimeException e) {
            return failed(PCR, t0, e);
        }
        long t1 = acknowledged(PCR, t0);
        if (log != null) {
            log.delta((byte) PCR, ValidationLog.COMMENTS, resource, t0, t1, 1);
        }
        return true;
    }

    /** DCR by the resource's {@code owner}: one comment fewer. */
    boolean deleteComment(int owner, long resource, long commentId) {
        long t0 = start(DCR);
        try {
            store.deleteCommentFromResource(graph.memberId(owner), resource, commentId);
        } catch (RuntimeException e) {
            return failed(DCR, t0, e);
        }
        long t1 = acknowledged(DCR, t0);
        if (log != null) {
            log.delta((byte) DCR, ValidationLog.COMMENTS, resource, t0, t1, -1);
        }
        return true;
    }

    // ---- feed following (dissertation 3.2, 8.4) ----

    /**
     * SR by account {@code account} (member or page index) of its resource {@code resource} as {@code shareId}, with
     * {@code recipients} (member indexes) or publicly when null.
     */
    boolean shareResource(int account, long resource, long shareId, int[] recipients) {
        int[] ids = null;
        if (recipients != null) {
            ids = new int[recipients.length];
            for (int i = 0; i < ids.length; i++) {
                ids[i] = graph.memberId(recipients[i]);
            }
        }
        long t0 = start(SR);
        try {
            store.shareResource(graph.accountId(account), resource, shareId, ids);
        } catch (RuntimeException e) {
            return failed(SR, t0, e);
        }
        long t1 = acknowledged(SR, t0);
        if (log != null) {
            log.share((byte) SR, account, shareId, resource, t0, t1, recipients);
        }
        return true;
    }

    /** VNF of {@code member}'s {@code k} most recent shares; logs the share ids it showed. */
    boolean viewNewsFeed(int member, int k) {
        feed.clear();
        long t0 = start(VNF);
        try {
            store.viewNewsFeed(graph.memberId(member), k, feed);
        } catch (RuntimeException e) {
            return failed(VNF, t0, e);
        }
        long t1 = acknowledged(VNF, t0);
        if (logReads) {
            int n = feed.size();
            if (n > feedIds.length) {
                feedIds = new long[Math.max(n, feedIds.length * 2)];
            }
            for (int i = 0; i < n; i++) {
                feedIds[i] = feed.get(i).shareId;
            }
            log.feedRead((byte) VNF, member, k, t0, t1, feedIds, n);
        }
        return true;
    }

    // ---- outcomes ----

    private static ThreadMXBean cpuClock() {
        try {
            ThreadMXBean threads = ManagementFactory.getThreadMXBean();
            return threads.isCurrentThreadCpuTimeSupported() ? threads : null;
        } catch (RuntimeException | LinkageError e) {
            return null;
        }
    }

    /**
     * The start of a call of {@code kind}, shown in {@link InFlight} until it is acknowledged or fails. The CPU clock
     * is read before the call's start time, so its cost is not in the latency.
     */
    private long start(int kind) {
        cpuAtStart = (++calls & (CPU_EVERY - 1)) == 0 && CPU_CLOCK != null ? CPU_CLOCK.getCurrentThreadCpuTime() : -1;
        long t0 = System.nanoTime();
        inFlight.begin(slot, kind, t0);
        return t0;
    }

    /** Records an acknowledged action that started at {@code t0}; returns its end time, which its log records carry. */
    private long acknowledged(int kind, long t0) {
        long t1 = System.nanoTime();
        cpuUsed(kind);
        inFlight.end(slot);
        rec.ok(kind, t1 - t0 + startDelay);
        if (arrivals != null) {
            serviced(kind, t1 - t0);
        }
        errors.succeeded();
        return t1;
    }

    private boolean failed(int kind, long t0, RuntimeException e) {
        long t1 = System.nanoTime();
        cpuUsed(kind);
        inFlight.end(slot);
        rec.error(kind, t1 - t0 + startDelay);
        startDelay = 0;
        errors.failed(kind, t0, e);
        return false;
    }

    /**
     * A sampled call of {@code kind} has returned: records the CPU time its thread spent since {@link #start}, unless
     * the clock could not be read (-1: a virtual thread, or thread CPU time measurement is disabled).
     */
    private void cpuUsed(int kind) {
        if (cpuAtStart >= 0) {
            long now = CPU_CLOCK.getCurrentThreadCpuTime();
            long used = now < 0 ? -1 : now - cpuAtStart;
            if (used >= 0) {
                rec.cpu(kind, used);
            }
            cpuAtStart = -1;
        }
    }

    /** The open model: the service time of the action just acknowledged; its arrival's wait is now counted. */
    private void serviced(int kind, long nanos) {
        if (measuredArrival) {
            arrivals.service(kind, nanos);
        }
        startDelay = 0;
    }
}
