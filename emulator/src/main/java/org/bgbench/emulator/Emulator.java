package org.bgbench.emulator;

import org.bgbench.model.log.ActionRecorder;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntFunction;
import org.bgbench.model.Action;
import org.bgbench.model.InvalidParameterException;
import org.bgbench.model.Kind;
import org.bgbench.model.SessionType;
import org.bgbench.model.generator.Relation;
import org.bgbench.model.generator.SocialGraph;
import org.bgbench.model.log.ValidationLog;
import org.bgbench.model.state.GraphState;
import org.bgbench.store.DataStore;
import org.bgbench.store.StoreSession;

/**
 * The closed-model emulator: T threads, each repeatedly picking a socialite, issuing an action or a session against
 * the store, and waiting ψ. Every write is valid by construction: its target comes from the {@link GraphState}, is
 * locked as the dissertation's table 5.1 says, re-checked under the lock, and the state is updated once the store has
 * acknowledged the write. After the run the state is what the store must hold.
 *
 * <p>The store is called through a {@link MeasuredSession} per member, which times, records and logs each action;
 * this class only decides what to issue, to whom, under which locks, and what the expected state becomes.
 */
public final class Emulator {
    /** How many targets a thread tries before it records a no-op. */
    private static final int TARGET_TRIES = 8;
    /** Virtual threads against an in-process store yield every 8 requests (see {@link #yieldBetweenRequests}). */
    private static final int YIELD_EVERY_MASK = 7;
    /** The least time threads get to leave the store after the measured period, whatever the store's timeout. */
    static final java.time.Duration MIN_GRACE = java.time.Duration.ofSeconds(5);
    /** A thread waiting for an arrival's due time looks at least this often whether the run has stopped. */
    private static final long STOP_CHECK_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

    private final DataStore store;
    private final GraphState state;
    private final SocialGraph graph;
    private final Workload workload;
    private final EmulatorConfig config;
    private final IntFunction<ActionRecorder> recorders;
    private final MemberLocks locks;
    private final StoreErrors errors;
    private final InFlight inFlight;
    private volatile boolean stop;
    private volatile boolean measuring;
    /**
     * {@link #measuring} as 0 or 1, for the members' loop: it passes the value on rather than branching on it, so the
     * JIT's code for the loop, compiled during the warm-up, stays valid when the measured period starts.
     */
    private volatile int measuredPeriod;
    private volatile String abortReason;
    private final AtomicLong warmupLeft;
    private Runnable warmupEnded;
    private final boolean virtual;
    /** Members take turns on one platform thread per core ({@link EmulatorConfig.ThreadKind#SHARED}). */
    private final boolean shared;
    private final boolean yieldBetweenRequests;
    private IntFunction<? extends ValidationLog> logs;
    private Runnable beforeFirstAction = () -> { };
    /** The open model's arrivals (null: closed model), made when the run starts. */
    private volatile org.bgbench.emulator.open.ArrivalClock clock;
    /** Counted down as each member has opened its session (or failed to). */
    private CountDownLatch sessionsOpened;
    /** Opened once every member has its session: none acts before. */
    private volatile CountDownLatch go = new CountDownLatch(1);
    /**
     * How long members wait for the others' sessions at most; then those that have one start (as before this wait
     * existed), and a session still opening shows as a stalled call.
     */
    private static final long SESSIONS_WAIT_NANOS = TimeUnit.SECONDS.toNanos(60);
    private IntFunction<? extends org.bgbench.model.log.ArrivalRecorder> arrivalRecorders = t -> NO_ARRIVALS;
    private static final org.bgbench.model.log.ArrivalRecorder NO_ARRIVALS = new org.bgbench.model.log.ArrivalRecorder() {
        @Override
        public void started(int phase, long delayNanos, boolean queued) {
        }

        @Override
        public void service(int kind, long nanos) {
        }
    };

    /**
     * @param recorders gives each thread (by index) where to record; called once per thread
     */
    public Emulator(DataStore store, GraphState state, Workload workload, EmulatorConfig config,
                    IntFunction<ActionRecorder> recorders) {
        // Bad input is refused before anything is sized by it.
        check(config, state.graph().members(), store);
        this.store = store;
        this.state = state;
        this.graph = state.graph();
        this.workload = workload;
        this.config = config;
        this.recorders = recorders;
        this.locks = new MemberLocks(graph.members());
        this.errors = new StoreErrors(Math.max(1000, 20L * config.threads()), this::abort);
        this.inFlight = new InFlight(config.threads());
        this.warmupLeft = new AtomicLong(config.warmupOperations());
        this.shared = config.threadKind() == EmulatorConfig.ThreadKind.SHARED;
        this.virtual = switch (config.threadKind()) {
            case VIRTUAL -> true;
            case PLATFORM, SHARED -> false;
            case AUTO -> config.threads() > (store.inProcess() ? EmulatorConfig.ThreadKind.PLATFORM_LIMIT
                    : EmulatorConfig.ThreadKind.NETWORKED_PLATFORM_PER_CORE * Runtime.getRuntime().availableProcessors());
        };
        this.yieldBetweenRequests = virtual && store.inProcess()
                && config.threads() > Runtime.getRuntime().availableProcessors();
    }

    /**
     * Refuses (an {@link InvalidParameterException}) a configuration this emulator cannot run against {@code store}
     * with a graph of {@code members} members: shared threads where there are none or the store holds its thread
     * while it waits, more threads than members with unique socialites. The constructor checks it first; a caller
     * checks it before it marks the store as being written.
     */
    public static void check(EmulatorConfig config, int members, DataStore store) {
        boolean shared = config.threadKind() == EmulatorConfig.ThreadKind.SHARED;
        if (shared && SharedThreads.unavailable() != null) {
            throw new InvalidParameterException("threadkind", SharedThreads.unavailable());
        }
        if (shared && !store.handsOffWhileWaiting()) {
            throw new InvalidParameterException("threadkind", "shared needs a store whose sessions let other members"
                    + " run while they wait for a reply (postgres, mariadb); this one does not: use auto, virtual or"
                    + " platform");
        }
        if (config.uniqueSocialites() && config.threads() > members) {
            throw new InvalidParameterException("--threads", "T=" + config.threads()
                    + " exceeds the " + members + " members; with unique socialites each thread needs its own member");
        }
    }

    /**
     * Runs {@code hook} once every member has opened its session, right before the first may act: nothing reached
     * the store before it. When it throws, no member acts and {@link #run} throws what it threw once the members are
     * gone. Call before {@link #run}.
     */
    public Emulator beforeFirstAction(Runnable hook) {
        this.beforeFirstAction = hook;
        return this;
    }

    /**
     * Switches on the read and write logs of validation (dissertation ch. 6): thread t writes to
     * {@code logs.apply(t)}. Writes are logged from the start (warm-up included, so the logs hold every change since
     * the expected state was taken), reads only in the measured period. Call before {@link #run}.
     */
    public Emulator withLogs(IntFunction<? extends ValidationLog> logs) {
        this.logs = logs;
        return this;
    }

    /**
     * The open model: where each arrival's start delay and each action's service time go (response times, from when
     * an arrival was due, go to the run's recorders); thread t records to {@code recorders.apply(t)}. Call before
     * {@link #run}.
     */
    public Emulator withArrivals(IntFunction<? extends org.bgbench.model.log.ArrivalRecorder> recorders) {
        this.arrivalRecorders = recorders;
        return this;
    }

    /** The open model's arrival clock once the run has started; null for the closed model or before. */
    public org.bgbench.emulator.open.ArrivalClock arrivalClock() {
        return clock;
    }

    /** Which store call each member is in, and since when (stall detection reads it while the run goes on). */
    public InFlight inFlight() {
        return inFlight;
    }

    /**
     * Whether every store call that returned since the last success failed, the first of them having begun at or
     * before {@code nanoTime} ({@link System#nanoTime()}); refused-second detection reads it while the run goes on.
     */
    public boolean failingSince(long nanoTime) {
        return errors.failingSince(nanoTime);
    }

    /** The message of the store's last failure in this run, or null when it has not failed. */
    public String lastFailure() {
        return errors.lastFailure();
    }

    /**
     * How long after the measured period the threads get to leave the store before they are abandoned:
     * max(5 s, the store's {@link DataStore#callTimeout()}), the time by which every call that
     * was waiting has returned or failed if the store's timeouts work.
     */
    public java.time.Duration grace() {
        java.time.Duration t = store.callTimeout();
        return t.compareTo(MIN_GRACE) > 0 ? t : MIN_GRACE;
    }

    /** Whether the members run on virtual threads (else platform threads, of their own or shared). */
    public boolean virtualThreads() {
        return virtual;
    }

    /** What runs the members: "virtual", "platform" (a thread each) or "shared" (one thread per core, in turns). */
    public String threadKindName() {
        return shared ? "shared" : virtual ? "virtual" : "platform";
    }

    /** The platform threads that run the members in turns with {@code threadkind=shared}: one per core, at most T. */
    public int sharedThreads() {
        return shared ? Math.min(config.threads(), Runtime.getRuntime().availableProcessors()) : 0;
    }

    /**
     * Runs until the duration or operation count is reached, or the store fails persistently. {@code warmupEnded} runs
     * once, when the measured period starts (the caller resets its measurements there).
     */
    public RunOutcome run(Runnable warmupEnded) {
        return run(warmupEnded, () -> { });
    }

    /**
     * Runs until the duration or operation count is reached, or the store fails persistently, or the run is aborted.
     * {@code warmupEnded} runs once, when the measured period starts (the caller resets its measurements there);
     * {@code periodEnded} runs once, when it ends (the caller stops measuring there, so nothing that returns later
     * counts). Then the calls still waiting on the store are taken ({@link RunOutcome#inFlight()}), and the threads
     * get {@link #grace()} to leave the store; those still inside are abandoned ({@link RunOutcome#stuckThreads()}).
     */
    public RunOutcome run(Runnable warmupEnded, Runnable periodEnded) {
        int threads = config.threads();
        AtomicLong remaining = new AtomicLong(config.operations() > 0 ? config.operations() : Long.MAX_VALUE);
        AtomicInteger running = new AtomicInteger(threads);
        // Counted down as each member ends, so a run of N requests ends the moment its last member does, not at the
        // next poll (which made a short run's measured period up to 50 ms too long).
        CountDownLatch ended = new CountDownLatch(threads);
        sessionsOpened = new CountDownLatch(threads);
        go = new CountDownLatch(1);
        List<Thread> members = new ArrayList<>(threads);
        List<List<Runnable>> turns = new ArrayList<>();
        for (int c = 0; c < sharedThreads(); c++) {
            turns.add(new ArrayList<>());
        }
        for (int t = 0; t < threads; t++) {
            int index = t;
            ActionRecorder rec = recorders.apply(t);
            ValidationLog log = logs == null ? null : logs.apply(t);
            Runnable member = () -> {
                try {
                    emulate(index, rec, log, remaining);
                } finally {
                    running.decrementAndGet();
                    ended.countDown();
                }
            };
            if (shared) {
                turns.get(t % turns.size()).add(member);
            } else {
                members.add((virtual ? Thread.ofVirtual() : Thread.ofPlatform().daemon()).name("bg-member-" + t)
                        .unstarted(member));
            }
        }
        for (int c = 0; c < turns.size(); c++) {
            members.add(SharedThreads.carrier("bg-members-" + c, turns.get(c)));
        }
        long warmupNanos = config.warmup().toNanos();
        this.warmupEnded = warmupEnded;
        members.forEach(Thread::start);
        boolean completed = true;
        try {
            // Every member opens its session before any acts: a server that forks a backend and checks a password
            // per connection accepted them too slowly while the first members already loaded it (T=64 platform
            // threads against PostgreSQL on 2 cores: sessions timed out), and the warm-up measured set-up.
            RuntimeException refused = null;
            try {
                awaitSessions(running);
                if (abortReason == null && !stop) {
                    try {
                        beforeFirstAction.run();
                    } catch (RuntimeException e) {
                        refused = e;
                        stop = true;
                    }
                }
                if (config.open()) {
                    clock = new org.bgbench.emulator.open.ArrivalClock(config.arrivals(), System.nanoTime());
                }
                if (warmupNanos <= 0 && config.warmupOperations() <= 0) {
                    startMeasuring();
                }
            } finally {
                go.countDown();
            }
            if (refused != null) {
                // Each member sees stop when it wakes and leaves without acting.
                ended.await();
                throw refused;
            }
            if (warmupNanos > 0) {
                waitUntil(System.nanoTime() + warmupNanos, ended);
                startMeasuring();
            } else {
                // A warm-up of N actions: the member that issues the N-th starts the measured period and wakes us,
                // so its clock starts then (at least every 50 ms we look for an abort or the members' end).
                synchronized (this) {
                    while (!measuring && abortReason == null && running.get() > 0) {
                        wait(50);
                    }
                }
            }
            if (config.operations() > 0) {
                waitUntil(Long.MAX_VALUE, ended);
            } else {
                waitUntil(System.nanoTime() + config.duration().toNanos(), ended);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            abortReason = "interrupted";
        } finally {
            stop = true;
        }
        List<InFlight.Call> waiting;
        try {
            periodEnded.run();
        } finally {
            waiting = inFlight.at(System.nanoTime());
        }
        int stuck = 0;
        long graceEnd = System.nanoTime() + grace().toNanos();
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
        return new RunOutcome(completed, abortReason, stuck, errors.samples(), waiting);
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
            if (clock != null) {
                clock.startSchedule(System.nanoTime());
            }
            measuredPeriod = 1;
            measuring = true;
            notifyAll();
        }
    }

    private void waitUntil(long deadline, CountDownLatch ended) throws InterruptedException {
        while (abortReason == null && ended.getCount() > 0) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return;
            }
            // Wakes when the last member ends; at least every 50 ms to see an abort.
            ended.await(Math.min(TimeUnit.MILLISECONDS.toNanos(50), left), TimeUnit.NANOSECONDS);
        }
    }

    /**
     * Waits until every member has opened its session, or one failed (the run aborts), or none is left, or
     * {@link #SESSIONS_WAIT_NANOS} passed; the caller then lets the members act ({@link #go}).
     */
    private void awaitSessions(AtomicInteger running) throws InterruptedException {
        long deadline = System.nanoTime() + SESSIONS_WAIT_NANOS;
        while (!sessionsOpened.await(50, TimeUnit.MILLISECONDS)) {
            if (abortReason != null || stop || running.get() == 0 || System.nanoTime() > deadline) {
                return;
            }
        }
    }

    /** Thread {@code index}'s life: opens its store session and emulates a member until the run ends. */
    private void emulate(int index, ActionRecorder rec, ValidationLog log, AtomicLong remaining) {
        int slot = inFlight.slot(index);
        // Opening a session may wait on the store too (a connection): it shows as a call, though not an action.
        inFlight.begin(slot, InFlight.OPENING, System.nanoTime());
        StoreSession opening;
        try {
            opening = opened(store.openSession(), slot);
        } catch (RuntimeException e) {
            inFlight.end(slot);
            errors.failed("store session", e);
            abort("a thread could not use the store: " + org.bgbench.store.ErrorText.of(e));
            return;
        } finally {
            sessionsOpened.countDown();
        }
        try (StoreSession session = opening) {
            awaitGo();
            if (stop || abortReason != null) {
                return;
            }
            MeasuredSession measured = new MeasuredSession(session, graph, rec, log, errors, inFlight, index,
                    config.topK());
            Member member = new Member(index, rec, measured, remaining);
            if (config.open()) {
                member.arrivalRecorder = arrivalRecorders.apply(index);
                measured.recordServiceTimes(member.arrivalRecorder);
                member.arrivals();
            } else {
                member.loop();
            }
        } catch (RuntimeException e) {
            inFlight.end(slot);
            errors.failed("store session", e);
            abort("a thread could not use the store: " + org.bgbench.store.ErrorText.of(e));
        }
    }

    /** Waits for {@link #go}; an interrupted member gives up (the run is being stopped). */
    private void awaitGo() {
        try {
            if (SharedThreads.onSharedThread()) {
                // The thread's other members still have to open their sessions.
                while (go.getCount() > 0) {
                    SharedThreads.park(TimeUnit.MILLISECONDS.toNanos(1));
                }
                return;
            }
            go.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private StoreSession opened(StoreSession session, int slot) {
        inFlight.end(slot);
        return session;
    }

    /** One emulated-member thread: its measured store session, random generator and counters. */
    private final class Member {
        private final ActionRecorder rec;
        private final MeasuredSession s;
        private final AtomicLong remaining;
        private final SplittableRandom rnd;
        private final String commentText;
        private int requests;
        /** The open model: where this member's start delays and service times go. */
        private org.bgbench.model.log.ArrivalRecorder arrivalRecorder = NO_ARRIVALS;

        Member(int index, ActionRecorder rec, MeasuredSession s, AtomicLong remaining) {
            this.rec = rec;
            this.s = s;
            this.remaining = remaining;
            this.rnd = new SplittableRandom(config.seed() * 0x9e3779b97f4a7c15L + index);
            this.commentText = SocialGraph.text(config.seed() + index, config.commentLength());
        }

        /** Counts a warm-up request; the first one past the warm-up's count starts the measured period. */
        private void warmupGate() {
            // The count first: with a warm-up of time it is 0 in both periods, and the JIT sees no branch change.
            if (config.warmupOperations() > 0 && !measuring) {
                // The first request after the warm-up count starts the measured period; later ones wait
                // for it so none is recorded into the discarded warm-up.
                long left = warmupLeft.decrementAndGet();
                if (left == -1) {
                    startMeasuring();
                } else if (left < -1) {
                    while (!measuring && !stop) {
                        SharedThreads.yieldTurn();
                    }
                }
            }
        }

        /**
         * The open model: takes the next arrival from the clock, waits until it is due (when this thread is free
         * before then), and issues it as the closed model issues a request. Its response time counts from when it was
         * due: the wait for a free thread and for its socialite are part of it.
         */
        void arrivals() {
            org.bgbench.emulator.open.ArrivalClock c = clock;
            while (!stop) {
                long due = c.claim(rnd);
                if (due == Long.MAX_VALUE) {
                    return;
                }
                boolean queued = System.nanoTime() >= due;
                if (!queued && !sleepUntil(due)) {
                    return;
                }
                warmupGate();
                boolean measured = measuring;
                s.logReads(measured);
                Kind kind = Kind.byIndex(workload.pickKind(rnd.nextDouble()));
                int socialite = config.uniqueSocialites() ? awaitSocialite() : workload.pickSocialite(rnd);
                if (socialite < 0) {
                    return;
                }
                arrivalDelay = Math.max(0, System.nanoTime() - due);
                if (measured) {
                    arrivalRecorder.started(c.phaseOf(due), arrivalDelay, queued);
                }
                s.arrival(arrivalDelay, measured);
                arrivalMeasured = measured;
                try {
                    issue(kind, socialite);
                } finally {
                    s.arrival(0, false);
                    arrivalDelay = 0;
                }
                if (yieldBetweenRequests && (++requests & YIELD_EVERY_MASK) == 0) {
                    SharedThreads.yieldTurn();
                }
            }
        }

        /** Parks until {@code due} ({@link System#nanoTime()}); false when the run stopped meanwhile. */
        private boolean sleepUntil(long due) {
            for (long left = due - System.nanoTime(); left > 0; left = due - System.nanoTime()) {
                if (stop) {
                    return false;
                }
                SharedThreads.park(Math.min(left, STOP_CHECK_NANOS));
            }
            return !stop;
        }

        /**
         * The open model with unique socialites: an arrival's socialite busy with an earlier one is waited for (that
         * wait counts in its response time), where the closed model draws another.
         */
        private int awaitSocialite() {
            int m = workload.pickSocialite(rnd);
            if (locks.tryLock(m)) {
                return m;
            }
            long t0 = System.nanoTime();
            int tries = 0;
            while (!stop) {
                if (locks.tryLock(m)) {
                    rec.bgWait(System.nanoTime() - t0);
                    return m;
                }
                if (++tries % 64 == 0) {
                    SharedThreads.park(10_000);
                } else {
                    Thread.onSpinWait();
                }
            }
            rec.bgWait(System.nanoTime() - t0);
            return -1;
        }

        void loop() {
            while (!stop) {
                warmupGate();
                int measured = measuredPeriod;
                if (config.operations() > 0 && measured == 1 && remaining.getAndDecrement() <= 0) {
                    return;
                }
                s.logReads(measured);
                Kind kind = Kind.byIndex(workload.pickKind(rnd.nextDouble()));
                int socialite = acquireSocialite();
                if (socialite < 0) {
                    return;
                }
                issue(kind, socialite);
                pause(config.interArrivalMs());
                if (yieldBetweenRequests && (++requests & YIELD_EVERY_MASK) == 0) {
                    // Virtual threads are not time-sliced: against an in-process store that never blocks, a
                    // thread woken from a contended monitor would wait until another thread blocks. Yielding
                    // between requests bounds that wait, at a cost in throughput (see ThreadKind.AUTO).
                    SharedThreads.yieldTurn();
                }
            }
        }

        /** Issues an action or a session by {@code socialite}, then frees her (unique socialites). */
        private void issue(Kind kind, int socialite) {
            try {
                if (kind instanceof Action action) {
                    action(action, socialite);
                } else {
                    session((SessionType) kind, socialite);
                }
            } finally {
                if (config.uniqueSocialites()) {
                    locks.unlock(socialite);
                }
            }
        }

        private void pause(int ms) {
            if (ms > 0 && !stop) {
                SharedThreads.park(TimeUnit.MILLISECONDS.toNanos(ms));
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
                    SharedThreads.yieldTurn();
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
                SharedThreads.yieldTurn();
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
                case VNF -> s.viewNewsFeed(a, config.feeds().k());
            };
        }

        /**
         * SR by {@code a}, or (a {@code pageshareratio} of the time) by a page {@code a} follows: one of the
         * sharer's resources, publicly or (a {@code sharelistratio} of the time) with a list drawn from its friends
         * or followers. A member's share locks her as the other writes do; a page's needs no lock (a page only shares).
         */
        private boolean shareResource(int a) {
            org.bgbench.model.FeedWorkload f = config.feeds();
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
                it.unimi.dsi.fastutil.ints.IntArrayList followers = new it.unimi.dsi.fastutil.ints.IntArrayList();
                graph.forEachFollower(account - graph.members(), followers::add);
                audience = followers.elements();
                audience = java.util.Arrays.copyOf(audience, followers.size());
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
            return java.util.Arrays.copyOf(audience, take);
        }

        private long randomResource(int owner) {
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
        private boolean inviteFriend(int a, int target) {
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
        private boolean answerInvitation(int a, boolean accept) {
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
        private boolean thawFriendship(int a, int friend) {
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
        private boolean postComment(int a, long rid) {
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
        private boolean deleteComment(int a, long rid) {
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

        // ---- sessions (dissertation 3.3): think time ε between steps; a session ends when a step is impossible ----

        /** Nanoseconds slept in think time by the current session. */
        private long thinking;
        /** The open model: how long the current arrival waited to start (0 in the closed model). */
        private long arrivalDelay;
        /** The open model: whether the current arrival is measured. */
        private boolean arrivalMeasured;

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
         * The sessions of the dissertation's 3.3: each starts by viewing one's own profile and top-k resources, then
         * goes on as its name says; a session ends early when its next step is impossible.
         */
        private void session(SessionType session, int a) {
            long start = System.nanoTime();
            thinking = 0;
            boolean whole = s.viewProfile(a, a) && then() && s.viewTopKResources(a, a);
            switch (session) {
                case VIEW_SELF_PROFILE -> {
                }
                case VIEW_FRIEND_PROFILE -> {
                    whole = whole && then() && s.listFriends(a, a);
                    int f = whole ? state.pickFriend(a, rnd.nextInt()) : -1;
                    whole = whole && f >= 0 && then() && s.viewProfile(a, f) && then() && s.viewTopKResources(a, f);
                }
                case POST_COMMENT -> {
                    int b = workload.pickTarget(rnd);
                    whole = whole && then() && s.viewProfile(a, b) && then() && s.viewTopKResources(a, b);
                    long rid = whole ? topKResource(b) : -1;
                    whole = whole && rid >= 0 && then() && s.viewComments(a, rid) && then() && postComment(a, rid)
                            && then() && s.viewComments(a, rid);
                }
                case DELETE_COMMENT -> {
                    long rid = whole ? topKResource(a) : -1;
                    whole = whole && rid >= 0 && then() && s.viewComments(a, rid) && state.commentCount(rid) > 0
                            && then() && deleteComment(a, rid) && then() && s.viewComments(a, rid);
                }
                case INVITE_FRIEND -> whole = whole && then() && s.listFriends(a, a) && then()
                        && inviteFriend(a, -1) && then() && s.viewFriendRequests(a);
                case ACCEPT_FRIEND_REQUEST, REJECT_FRIEND_REQUEST -> whole = whole && then()
                        && s.listFriends(a, a) && then() && s.viewFriendRequests(a) && state.pendingCount(a) > 0
                        && then() && answerInvitation(a, session == SessionType.ACCEPT_FRIEND_REQUEST)
                        && then() && s.viewFriendRequests(a) && then() && s.listFriends(a, a);
                case THAW_FRIENDSHIP -> whole = whole && then() && s.listFriends(a, a)
                        && state.friendCount(a) > 0 && then() && thawFriendship(a, -1) && then() && s.listFriends(a, a);
            }
            long elapsed = System.nanoTime() - start - thinking;
            if (whole) {
                rec.ok(session.index(), elapsed + arrivalDelay);
                if (arrivalMeasured && clock != null) {
                    arrivalRecorder.service(session.index(), elapsed);
                }
            } else {
                rec.noop(session.index());
            }
        }

        /** Sleeps ε and returns the nanoseconds slept, so session latency excludes think time. */
        private long think() {
            if (config.thinkTimeMs() <= 0 || stop) {
                return 0;
            }
            long t0 = System.nanoTime();
            SharedThreads.park(TimeUnit.MILLISECONDS.toNanos(config.thinkTimeMs()));
            return System.nanoTime() - t0;
        }
    }
}
