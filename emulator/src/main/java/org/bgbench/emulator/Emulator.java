package org.bgbench.emulator;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntFunction;
import java.util.concurrent.locks.LockSupport;
import org.bgbench.model.Action;
import org.bgbench.model.generator.Relation;
import org.bgbench.model.generator.SocialGraph;
import org.bgbench.model.state.GraphState;
import org.bgbench.store.CommentList;
import org.bgbench.store.DataStore;
import org.bgbench.store.MemberList;
import org.bgbench.store.ProfileView;
import org.bgbench.store.ResourceList;
import org.bgbench.store.StoreSession;
import org.bgbench.validation.log.LogWriter;

/**
 * The closed-model emulator [SPEC §7]: T virtual threads, each repeatedly picking a socialite, issuing an action or a
 * session against the store, and waiting ψ. Every write is valid by construction: its target comes from the
 * {@link GraphState}, is locked as the dissertation's table 5.1 says, re-checked under the lock, and the state is
 * updated once the store has acknowledged the write. After the run the state is what the store must hold.
 */
public final class Emulator {
    /** How many targets a thread tries before it records a no-op. */
    private static final int TARGET_TRIES = 8;
    /** Virtual threads against an in-process store yield every 8 requests (see {@link #yieldBetweenRequests}). */
    private static final int YIELD_EVERY_MASK = 7;

    private final DataStore store;
    private final GraphState state;
    private final SocialGraph graph;
    private final Workload workload;
    private final EmulatorConfig config;
    private final IntFunction<Recorder> recorders;
    private final MemberLocks locks;
    private final AtomicLong consecutiveErrors = new AtomicLong();
    private final long errorLimit;
    private final Map<String, String> errorSamples = new ConcurrentSkipListMap<>();
    private volatile boolean stop;
    private volatile boolean measuring;
    private volatile String abortReason;
    private final AtomicLong warmupLeft;
    private Runnable warmupEnded;
    private final boolean virtual;
    private final boolean yieldBetweenRequests;
    private IntFunction<LogWriter> logs;

    /**
     * @param recorders gives each thread (by index) where to record; called once per thread
     */
    public Emulator(DataStore store, GraphState state, Workload workload, EmulatorConfig config,
                    IntFunction<Recorder> recorders) {
        this.store = store;
        this.state = state;
        this.graph = state.graph();
        this.workload = workload;
        this.config = config;
        this.recorders = recorders;
        this.locks = new MemberLocks(graph.members());
        this.errorLimit = Math.max(1000, 20L * config.threads());
        this.warmupLeft = new AtomicLong(config.warmupOperations());
        this.virtual = switch (config.threadKind()) {
            case VIRTUAL -> true;
            case PLATFORM -> false;
            case AUTO -> config.threads() > (store.inProcess() ? EmulatorConfig.ThreadKind.PLATFORM_LIMIT
                    : 2 * Runtime.getRuntime().availableProcessors());
        };
        this.yieldBetweenRequests = virtual && store.inProcess()
                && config.threads() > Runtime.getRuntime().availableProcessors();
        if (config.uniqueSocialites() && config.threads() > graph.members()) {
            throw new org.bgbench.model.InvalidParameterException("--threads", "T=" + config.threads()
                    + " exceeds the " + graph.members() + " members; with unique socialites each thread needs its own member");
        }
    }

    /**
     * Runs until the duration or operation count is reached, or the store fails persistently. {@code warmupEnded} runs
     * once, when the measured period starts (the caller resets its measurements there).
     */
    /**
     * Switches on the read and write logs of validation [SPEC §10]: thread t writes to {@code logs.apply(t)}. Writes
     * are logged from the start (warm-up included, so the logs hold every change since the expected state was
     * taken), reads only in the measured period. Call before {@link #run}.
     */
    public Emulator withLogs(IntFunction<LogWriter> logs) {
        this.logs = logs;
        return this;
    }

    /** Whether the members run on virtual threads (else platform threads). */
    public boolean virtualThreads() {
        return virtual;
    }

    public RunOutcome run(Runnable warmupEnded) {
        int threads = config.threads();
        AtomicLong remaining = new AtomicLong(config.operations() > 0 ? config.operations() : Long.MAX_VALUE);
        AtomicInteger running = new AtomicInteger(threads);
        List<Thread> members = new ArrayList<>(threads);
        for (int t = 0; t < threads; t++) {
            Member m = new Member(t, recorders.apply(t), remaining, logs == null ? null : logs.apply(t));
            members.add((virtual ? Thread.ofVirtual() : Thread.ofPlatform().daemon()).name("bg-member-" + t).unstarted(() -> {
                try {
                    m.loop();
                } finally {
                    running.decrementAndGet();
                }
            }));
        }
        long warmupNanos = config.warmup().toNanos();
        this.warmupEnded = warmupEnded;
        if (warmupNanos <= 0 && config.warmupOperations() <= 0) {
            startMeasuring();
        }
        members.forEach(Thread::start);
        boolean completed = true;
        try {
            if (warmupNanos > 0) {
                waitUntil(System.nanoTime() + warmupNanos, running);
                startMeasuring();
            } else {
                while (!measuring && abortReason == null && running.get() > 0) {
                    Thread.sleep(5);
                }
            }
            if (config.operations() > 0) {
                waitUntil(Long.MAX_VALUE, running);
            } else {
                waitUntil(System.nanoTime() + config.duration().toNanos(), running);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            abortReason = "interrupted";
        } finally {
            stop = true;
        }
        int stuck = 0;
        long graceEnd = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        for (Thread m : members) {
            try {
                long left = graceEnd - System.nanoTime();
                if (left <= 0 || !m.join(java.time.Duration.ofNanos(left))) {
                    stuck++;
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                stuck++;
            }
        }
        if (abortReason != null) {
            completed = false;
        }
        List<String> samples = new ArrayList<>();
        errorSamples.forEach((k, v) -> samples.add(k + ": " + v));
        return new RunOutcome(completed, abortReason, stuck, samples);
    }

    /**
     * Ends the run early, from any thread (a coordinator stopping the others when one worker failed): the members
     * stop after their current action and {@link #run} returns what was measured, with {@code reason} as the abort
     * reason.
     */
    public void abort(String reason) {
        if (abortReason == null) {
            abortReason = reason;
        }
        stop = true;
    }

    /** Ends the warm-up exactly once, whichever thread gets there first. */
    private synchronized void startMeasuring() {
        if (!measuring) {
            warmupEnded.run();
            measuring = true;
        }
    }

    private void waitUntil(long deadline, AtomicInteger running) throws InterruptedException {
        while (abortReason == null && running.get() > 0) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return;
            }
            Thread.sleep(Math.min(50, Math.max(1, TimeUnit.NANOSECONDS.toMillis(left))));
        }
    }

    private void failed(int kind, RuntimeException e) {
        String name = kind < Kinds.FIRST_SESSION ? Action.byOrdinal(kind).name() : "session " + kind;
        errorSamples.putIfAbsent(name, String.valueOf(e.getMessage()));
        if (consecutiveErrors.incrementAndGet() >= errorLimit && abortReason == null) {
            abortReason = "the store failed " + errorLimit + " actions in a row; last error: " + e.getMessage();
            stop = true;
        }
    }

    private void succeeded() {
        if (consecutiveErrors.getPlain() != 0) {
            consecutiveErrors.set(0);
        }
    }

    /** One emulated-member thread: its store session, random generator and reusable result views. */
    private final class Member {
        private final Recorder rec;
        private final LogWriter log;
        /** End time of the last action {@link #ok} recorded, for its log records. */
        private long end;
        private final AtomicLong remaining;
        private final SplittableRandom rnd;
        private final ProfileView profile;
        private final MemberList members;
        private final ResourceList resources = new ResourceList();
        private final CommentList comments = new CommentList();
        private final String commentText;
        private StoreSession s;
        private int requests;

        Member(int index, Recorder rec, AtomicLong remaining, LogWriter log) {
            this.rec = rec;
            this.log = log;
            this.remaining = remaining;
            this.rnd = new SplittableRandom(config.seed() * 0x9e3779b97f4a7c15L + index);
            this.profile = new ProfileView(graph.attributeCount());
            this.members = new MemberList(graph.attributeCount());
            this.commentText = SocialGraph.text(config.seed() + index, config.commentLength());
        }

        void loop() {
            try (StoreSession session = store.openSession()) {
                s = session;
                while (!stop) {
                    if (!measuring && config.warmupOperations() > 0) {
                        // The first request after the warm-up count starts the measured period; later ones wait
                        // for it so none is recorded into the discarded warm-up.
                        long left = warmupLeft.decrementAndGet();
                        if (left == -1) {
                            startMeasuring();
                        } else if (left < -1) {
                            while (!measuring && !stop) {
                                Thread.yield();
                            }
                        }
                    }
                    if (measuring && config.operations() > 0 && remaining.getAndDecrement() <= 0) {
                        return;
                    }
                    int kind = workload.pickKind(rnd.nextDouble());
                    int socialite = acquireSocialite();
                    if (socialite < 0) {
                        return;
                    }
                    try {
                        if (kind < Kinds.FIRST_SESSION) {
                            action(kind, socialite);
                        } else {
                            session(kind, socialite);
                        }
                    } finally {
                        if (config.uniqueSocialites()) {
                            locks.unlock(socialite);
                        }
                    }
                    pause(config.interArrivalMs());
                    if (yieldBetweenRequests && (++requests & YIELD_EVERY_MASK) == 0) {
                        // Virtual threads are not time-sliced: against an in-process store that never blocks, a
                        // thread woken from a contended monitor would wait until another thread blocks. Yielding
                        // between requests bounds that wait, at a cost in throughput (see ThreadKind.AUTO).
                        Thread.yield();
                    }
                }
            } catch (RuntimeException e) {
                failed(Kinds.COUNT, e);
                if (abortReason == null) {
                    abortReason = "a thread could not use the store: " + e.getMessage();
                    stop = true;
                }
            }
        }

        private void pause(int ms) {
            if (ms > 0 && !stop) {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(ms));
            }
        }

        /** Draws socialites until a free one is found (unique socialites), timing the search as BG wait. */
        private int acquireSocialite() {
            int m = workload.pickSocialite(rnd);
            if (!config.uniqueSocialites() || locks.tryLock(m)) {
                return m;
            }
            long t0 = System.nanoTime();
            int tries = 0;
            while (!stop) {
                m = workload.pickSocialite(rnd);
                if (locks.tryLock(m)) {
                    rec.bgWait(System.nanoTime() - t0);
                    return m;
                }
                if (++tries % 64 == 0) {
                    Thread.yield();
                }
            }
            rec.bgWait(System.nanoTime() - t0);
            return -1;
        }

        /** Locks a second member (IF, TF) or the socialite itself when socialites are not unique. */
        private boolean lockOther(int m) {
            return !config.locks() || locks.tryLock(m);
        }

        private void unlockOther(int m) {
            if (config.locks()) {
                locks.unlock(m);
            }
        }

        /** With locks on but socialites not unique, writes lock the socialite; waits a bounded time for it. */
        private boolean lockSelf(int a) {
            if (!config.locks() || config.uniqueSocialites()) {
                return true;
            }
            if (locks.tryLock(a)) {
                return true;
            }
            long t0 = System.nanoTime();
            long deadline = t0 + TimeUnit.MILLISECONDS.toNanos(100);
            while (!stop && System.nanoTime() < deadline) {
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
            if (config.locks() && !config.uniqueSocialites()) {
                locks.unlock(a);
            }
        }

        /** Issues one action; returns false if it was a no-op or failed (a session then ends). */
        boolean action(int kind, int a) {
            return switch (kind) {
                case 0 -> viewProfile(a, workload.pickTarget(rnd));
                case 1 -> listFriends(a, workload.pickTarget(rnd));
                case 2 -> viewFriendRequests(a);
                case 3 -> inviteFriend(a, -1);
                case 4 -> answerInvitation(a, true);
                case 5 -> answerInvitation(a, false);
                case 6 -> thawFriendship(a, -1);
                case 7 -> viewTopK(a, workload.pickTarget(rnd));
                case 8 -> viewComments(a, randomResource(workload.pickTarget(rnd)));
                case 9 -> postComment(a, randomResource(workload.pickTarget(rnd)));
                case 10 -> deleteComment(a, -1);
                default -> throw new IllegalStateException("kind " + kind);
            };
        }

        private long randomResource(int owner) {
            int rho = graph.resourcesPerMember();
            return rho == 0 ? -1 : graph.resourceId(owner, rnd.nextInt(rho));
        }

        private boolean viewProfile(int a, int b) {
            long t0 = System.nanoTime();
            try {
                profile.clear();
                s.viewProfile(graph.memberId(a), graph.memberId(b), profile);
                ok(0, t0);
                if (log != null && measuring) {
                    log.read((byte) 0, LogWriter.FRIENDS, b, t0, end, profile.friendCount);
                    if (profile.pendingCount >= 0) {
                        log.read((byte) 0, LogWriter.PENDING, b, t0, end, profile.pendingCount);
                    }
                }
                return true;
            } catch (RuntimeException e) {
                return error(0, t0, e);
            }
        }

        private boolean listFriends(int a, int b) {
            long t0 = System.nanoTime();
            try {
                members.clear();
                s.listFriends(graph.memberId(a), graph.memberId(b), members);
                ok(1, t0);
                if (log != null && measuring) {
                    log.read((byte) 1, LogWriter.FRIENDS, b, t0, end, members.size());
                }
                return true;
            } catch (RuntimeException e) {
                return error(1, t0, e);
            }
        }

        private boolean viewFriendRequests(int a) {
            long t0 = System.nanoTime();
            try {
                members.clear();
                s.viewFriendRequests(graph.memberId(a), members);
                ok(2, t0);
                if (log != null && measuring) {
                    log.read((byte) 2, LogWriter.PENDING, a, t0, end, members.size());
                }
                return true;
            } catch (RuntimeException e) {
                return error(2, t0, e);
            }
        }

        private boolean viewTopK(int a, int b) {
            long t0 = System.nanoTime();
            try {
                resources.clear();
                s.viewTopKResources(graph.memberId(a), graph.memberId(b), config.topK(), resources);
                return ok(7, t0);
            } catch (RuntimeException e) {
                return error(7, t0, e);
            }
        }

        private boolean viewComments(int a, long rid) {
            if (rid < 0) {
                rec.noop(8);
                return false;
            }
            long t0 = System.nanoTime();
            try {
                comments.clear();
                s.viewCommentsOnResource(graph.memberId(a), graph.memberId(graph.resourceOwner(rid)), rid, comments);
                ok(8, t0);
                if (log != null && measuring) {
                    log.read((byte) 8, LogWriter.COMMENTS, rid, t0, end, comments.size());
                }
                return true;
            } catch (RuntimeException e) {
                return error(8, t0, e);
            }
        }

        /** IF by {@code a} to {@code target} (or a random unrelated member when -1). */
        private boolean inviteFriend(int a, int target) {
            final int kind = Action.IF.ordinal();
            if (!lockSelf(a)) {
                rec.noop(kind);
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
                        long t0 = System.nanoTime();
                        try {
                            s.inviteFriend(graph.memberId(a), graph.memberId(b));
                        } catch (RuntimeException e) {
                            return error(kind, t0, e);
                        }
                        state.invite(a, b);
                        ok(kind, t0);
                        if (log != null) {
                            log.delta((byte) kind, LogWriter.PENDING, b, t0, end, 1);
                        }
                        return true;
                    } finally {
                        unlockOther(b);
                    }
                }
                rec.noop(kind);
                return false;
            } finally {
                unlockSelf(a);
            }
        }

        private boolean answerInvitation(int a, boolean accept) {
            final int kind = accept ? Action.AFR.ordinal() : Action.RFR.ordinal();
            if (!lockSelf(a)) {
                rec.noop(kind);
                return false;
            }
            try {
                int inviter = state.pickInviter(a, rnd.nextInt());
                if (inviter < 0) {
                    rec.noop(kind);
                    return false;
                }
                long t0 = System.nanoTime();
                try {
                    if (accept) {
                        s.acceptFriendRequest(graph.memberId(a), graph.memberId(inviter));
                    } else {
                        s.rejectFriendRequest(graph.memberId(a), graph.memberId(inviter));
                    }
                } catch (RuntimeException e) {
                    return error(kind, t0, e);
                }
                if (accept) {
                    state.accept(a, inviter);
                } else {
                    state.reject(a, inviter);
                }
                ok(kind, t0);
                if (log != null) {
                    log.delta((byte) kind, LogWriter.PENDING, a, t0, end, -1);
                    if (accept) {
                        log.delta((byte) kind, LogWriter.FRIENDS, a, t0, end, 1);
                        log.delta((byte) kind, LogWriter.FRIENDS, inviter, t0, end, 1);
                    }
                }
                return true;
            } finally {
                unlockSelf(a);
            }
        }

        /** TF of {@code a} with {@code friend} (or a random friend when -1). */
        private boolean thawFriendship(int a, int friend) {
            final int kind = Action.TF.ordinal();
            if (!lockSelf(a)) {
                rec.noop(kind);
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
                        long t0 = System.nanoTime();
                        try {
                            s.thawFriendship(graph.memberId(a), graph.memberId(b));
                        } catch (RuntimeException e) {
                            return error(kind, t0, e);
                        }
                        state.thaw(a, b);
                        ok(kind, t0);
                        if (log != null) {
                            log.delta((byte) kind, LogWriter.FRIENDS, a, t0, end, -1);
                            log.delta((byte) kind, LogWriter.FRIENDS, b, t0, end, -1);
                        }
                        return true;
                    } finally {
                        unlockOther(b);
                    }
                }
                rec.noop(kind);
                return false;
            } finally {
                unlockSelf(a);
            }
        }

        private boolean postComment(int a, long rid) {
            final int kind = Action.PCR.ordinal();
            if (rid < 0) {
                rec.noop(kind);
                return false;
            }
            long mid = state.newCommentId();
            long t0 = System.nanoTime();
            try {
                s.postCommentOnResource(graph.memberId(a), graph.memberId(graph.resourceOwner(rid)), rid, mid,
                        System.currentTimeMillis(), commentText);
            } catch (RuntimeException e) {
                return error(kind, t0, e);
            }
            state.postComment(rid, mid);
            ok(kind, t0);
            if (log != null) {
                log.delta((byte) kind, LogWriter.COMMENTS, rid, t0, end, 1);
            }
            return true;
        }

        /** DCR by {@code a} on her resource {@code rid} (or one with comments when -1). */
        private boolean deleteComment(int a, long rid) {
            final int kind = Action.DCR.ordinal();
            if (!lockSelf(a)) {
                rec.noop(kind);
                return false;
            }
            try {
                long r = rid >= 0 ? rid : state.pickResourceWithComments(a, rnd.nextInt());
                long mid = r < 0 ? -1 : state.pickComment(r, rnd.nextInt());
                if (mid < 0) {
                    rec.noop(kind);
                    return false;
                }
                long t0 = System.nanoTime();
                try {
                    s.deleteCommentFromResource(graph.memberId(a), r, mid);
                } catch (RuntimeException e) {
                    return error(kind, t0, e);
                }
                state.deleteComment(r, mid);
                ok(kind, t0);
                if (log != null) {
                    log.delta((byte) kind, LogWriter.COMMENTS, r, t0, end, -1);
                }
                return true;
            } finally {
                unlockSelf(a);
            }
        }

        private boolean ok(int kind, long t0) {
            end = System.nanoTime();
            rec.ok(kind, end - t0);
            succeeded();
            return true;
        }

        private boolean error(int kind, long t0, RuntimeException e) {
            rec.error(kind, System.nanoTime() - t0);
            failed(kind, e);
            return false;
        }

        // ---- sessions [SPEC §5, D 3.3]: think time ε between steps; a session ends when a step is impossible ----

        /** Nanoseconds slept in think time by the current session. */
        private long thinking;

        /** Think time between two steps of a session; always true so it chains with {@code &&}. */
        private boolean then() {
            thinking += think();
            return true;
        }

        /** A random resource among the top k on {@code owner}'s wall, as a member picks one from VTR; -1 if none. */
        private long topKResource(int owner) {
            int rho = graph.resourcesPerMember();
            int shown = Math.min(config.topK(), rho);
            return shown == 0 ? -1 : graph.resourceId(owner, rho - 1 - rnd.nextInt(shown));
        }

        /**
         * The sessions of the dissertation's §3.3: each starts by viewing one's own profile and top-k resources, then
         * goes on as its name says; a session ends early when its next step is impossible.
         */
        private void session(int kind, int a) {
            long start = System.nanoTime();
            thinking = 0;
            boolean whole = viewProfile(a, a) && then() && viewTopK(a, a);
            switch (kind) {
                case Kinds.VIEW_SELF_PROFILE -> {
                }
                case Kinds.VIEW_FRIEND_PROFILE -> {
                    whole = whole && then() && listFriends(a, a);
                    int f = whole ? state.pickFriend(a, rnd.nextInt()) : -1;
                    whole = whole && f >= 0 && then() && viewProfile(a, f) && then() && viewTopK(a, f);
                }
                case Kinds.POST_COMMENT -> {
                    int b = workload.pickTarget(rnd);
                    whole = whole && then() && viewProfile(a, b) && then() && viewTopK(a, b);
                    long rid = whole ? topKResource(b) : -1;
                    whole = whole && rid >= 0 && then() && viewComments(a, rid) && then() && postComment(a, rid)
                            && then() && viewComments(a, rid);
                }
                case Kinds.DELETE_COMMENT -> {
                    long rid = whole ? topKResource(a) : -1;
                    whole = whole && rid >= 0 && then() && viewComments(a, rid) && state.commentCount(rid) > 0
                            && then() && deleteComment(a, rid) && then() && viewComments(a, rid);
                }
                case Kinds.INVITE_FRIEND -> whole = whole && then() && listFriends(a, a) && then()
                        && inviteFriend(a, -1) && then() && viewFriendRequests(a);
                case Kinds.ACCEPT_FRIEND_REQUEST, Kinds.REJECT_FRIEND_REQUEST -> whole = whole && then()
                        && listFriends(a, a) && then() && viewFriendRequests(a) && state.pendingCount(a) > 0
                        && then() && answerInvitation(a, kind == Kinds.ACCEPT_FRIEND_REQUEST)
                        && then() && viewFriendRequests(a) && then() && listFriends(a, a);
                case Kinds.THAW_FRIENDSHIP -> whole = whole && then() && listFriends(a, a)
                        && state.friendCount(a) > 0 && then() && thawFriendship(a, -1) && then() && listFriends(a, a);
                default -> throw new IllegalStateException("kind " + kind);
            }
            long elapsed = System.nanoTime() - start - thinking;
            if (whole) {
                rec.ok(kind, elapsed);
            } else {
                rec.noop(kind);
            }
        }

        /** Sleeps ε and returns the nanoseconds slept, so session latency excludes think time. */
        private long think() {
            if (config.thinkTimeMs() <= 0 || stop) {
                return 0;
            }
            long t0 = System.nanoTime();
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(config.thinkTimeMs()));
            return System.nanoTime() - t0;
        }
    }
}
