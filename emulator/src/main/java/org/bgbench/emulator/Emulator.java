package org.bgbench.emulator;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntFunction;
import org.bgbench.emulator.open.ArrivalClock;
import org.bgbench.model.InvalidParameterException;
import org.bgbench.model.generator.SocialGraph;
import org.bgbench.model.log.ActionRecorder;
import org.bgbench.model.log.ArrivalRecorder;
import org.bgbench.model.log.ValidationLog;
import org.bgbench.model.state.GraphState;
import org.bgbench.store.DataStore;
import org.bgbench.store.ErrorText;
import org.bgbench.store.StoreSession;

/**
 * The emulator: T threads, each emulating members against the store, in the closed model ({@link ClosedModel}: pick a
 * socialite, issue an action or a session, wait ψ) or the open model ({@link OpenModel}: arrivals at a rate). Every
 * write is valid by construction: its target comes from the {@link GraphState}, is locked as the dissertation's table
 * 5.1 says, re-checked under the lock, and the state is updated once the store has acknowledged the write
 * ({@link Actions}). After the run the state is what the store must hold.
 *
 * <p>This class runs one run: it starts the members on their threads ({@link ThreadStrategy}), opens the gate once
 * every member has its session, ends the warm-up and the measured period ({@link RunPhases}), and gives the members a
 * grace period to leave the store. The store is called through a {@link MeasuredSession} per member, which times,
 * records and logs each action.
 */
public final class Emulator {
    /** The least time threads get to leave the store after the measured period, whatever the store's timeout. */
    static final Duration MIN_GRACE = Duration.ofSeconds(5);
    /** Where arrivals are recorded when the caller gave no place: nowhere. */
    static final ArrivalRecorder NO_ARRIVALS = new ArrivalRecorder() {
        @Override
        public void started(int phase, long delayNanos, boolean queued) {}

        @Override
        public void service(int kind, long nanos) {}
    };

    private final DataStore store;
    private final SocialGraph graph;
    private final EmulatorConfig config;
    private final IntFunction<ActionRecorder> recorders;
    private final StoreErrors errors;
    private final InFlight inFlight;
    private final ThreadStrategy threads;
    private final RunPhases phases;
    private final RunContext context;
    private IntFunction<? extends ValidationLog> logs;
    private Runnable beforeFirstAction = () -> {};
    private IntFunction<? extends ArrivalRecorder> arrivalRecorders = t -> NO_ARRIVALS;

    /**
     * @param recorders gives each thread (by index) where to record; called once per thread
     */
    public Emulator(
            DataStore store,
            GraphState state,
            Workload workload,
            EmulatorConfig config,
            IntFunction<ActionRecorder> recorders) {
        // Bad input is refused before anything is sized by it.
        check(config, state.graph().members(), store);
        this.store = store;
        this.graph = state.graph();
        this.config = config;
        this.recorders = recorders;
        this.phases = new RunPhases(config.threads(), config.warmup().operations());
        this.errors = new StoreErrors(Math.max(1000, 20L * config.threads()), this::abort);
        this.inFlight = new InFlight(config.threads());
        this.threads = new ThreadStrategy(config.members().threadKind(), config.threads(), store);
        this.context = new RunContext(
                state, workload, config, new MemberLocks(graph.members()), phases, threads.yieldBetweenRequests());
    }

    /**
     * Refuses (an {@link InvalidParameterException}) a configuration this emulator cannot run against {@code store}
     * with a graph of {@code members} members: more threads than members with unique socialites. The constructor
     * checks it first; a caller checks it before it marks the store as being written.
     */
    public static void check(EmulatorConfig config, int members, DataStore store) {
        if (config.members().uniqueSocialites() && config.threads() > members) {
            throw new InvalidParameterException(
                    "--threads",
                    "T=" + config.threads() + " exceeds the " + members
                            + " members; with unique socialites each thread needs its own member");
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
    public Emulator withArrivals(IntFunction<? extends ArrivalRecorder> recorders) {
        this.arrivalRecorders = recorders;
        return this;
    }

    /** The open model's arrival clock once the run has started; null for the closed model or before. */
    public ArrivalClock arrivalClock() {
        return phases.clock;
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
    public Duration grace() {
        Duration t = store.callTimeout();
        return t.compareTo(MIN_GRACE) > 0 ? t : MIN_GRACE;
    }

    /** What runs the members: "virtual" or "platform" (a thread each). */
    public String threadKindName() {
        return threads.name();
    }

    /**
     * Runs until the duration or operation count is reached, or the store fails persistently. {@code warmupEnded} runs
     * once, when the measured period starts (the caller resets its measurements there).
     */
    public RunOutcome run(Runnable warmupEnded) {
        return run(warmupEnded, () -> {});
    }

    /**
     * Runs until the duration or operation count is reached, or the store fails persistently, or the run is aborted.
     * {@code warmupEnded} runs once, when the measured period starts (the caller resets its measurements there);
     * {@code periodEnded} runs once, when it ends (the caller stops measuring there, so nothing that returns later
     * counts). Then the calls still waiting on the store are taken ({@link RunOutcome#inFlight()}), and the threads
     * get {@link #grace()} to leave the store; those still inside are abandoned ({@link RunOutcome#stuckThreads()}).
     */
    public RunOutcome run(Runnable warmupEnded, Runnable periodEnded) {
        int count = config.threads();
        AtomicLong remaining = new AtomicLong(
                config.length().operations() > 0 ? config.length().operations() : Long.MAX_VALUE);
        AtomicInteger running = new AtomicInteger(count);
        // Counted down as each member ends, so a run of N requests ends the moment its last member does, not at the
        // next poll (which made a short run's measured period up to 50 ms too long).
        CountDownLatch ended = new CountDownLatch(count);
        List<Thread> members = new ArrayList<>(count);
        for (int t = 0; t < count; t++) {
            int index = t;
            ActionRecorder rec = recorders.apply(t);
            ValidationLog log = logs == null ? null : logs.apply(t);
            members.add(threads.thread(t, () -> {
                try {
                    emulate(index, rec, log, remaining);
                } finally {
                    running.decrementAndGet();
                    ended.countDown();
                }
            }));
        }
        long warmupNanos = config.warmup().time().toNanos();
        phases.onWarmupEnd(warmupEnded);
        members.forEach(Thread::start);
        boolean completed = true;
        try {
            // Every member opens its session before any acts: a server that forks a backend and checks a password
            // per connection accepted them too slowly while the first members already loaded it (T=64 platform
            // threads against PostgreSQL on 2 cores: sessions timed out), and the warm-up measured set-up.
            RuntimeException refused = null;
            try {
                phases.awaitSessions(running);
                if (phases.abortReason() == null && !phases.stop) {
                    try {
                        beforeFirstAction.run();
                    } catch (RuntimeException e) {
                        refused = e;
                        phases.stop = true;
                    }
                }
                if (config.open()) {
                    phases.clock = new ArrivalClock(config.arrivals(), System.nanoTime());
                }
                if (warmupNanos <= 0 && config.warmup().operations() <= 0) {
                    phases.startMeasuring();
                }
            } finally {
                phases.letMembersAct();
            }
            if (refused != null) {
                // Each member sees stop when it wakes and leaves without acting.
                ended.await();
                throw refused;
            }
            if (warmupNanos > 0) {
                phases.waitUntil(System.nanoTime() + warmupNanos, ended);
                phases.startMeasuring();
            } else {
                phases.awaitMeasuring(running);
            }
            if (config.length().operations() > 0) {
                phases.waitUntil(Long.MAX_VALUE, ended);
            } else {
                phases.waitUntil(System.nanoTime() + config.length().duration().toNanos(), ended);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            phases.abort("interrupted");
        } finally {
            phases.stop = true;
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
                if (left <= 0 || !m.join(Duration.ofNanos(left))) {
                    stuck++;
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                stuck++;
            }
        }
        String abortReason = phases.abortReason();
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
        phases.abort(reason);
    }

    /** Thread {@code index}'s life: opens its store session and emulates a member until the run ends. */
    private void emulate(int index, ActionRecorder rec, ValidationLog log, AtomicLong remaining) {
        int slot = inFlight.slot(index);
        // Opening a session may wait on the store too (a connection): it shows as a call, though not an action.
        inFlight.begin(slot, InFlight.OPENING, System.nanoTime());
        StoreSession opening;
        try {
            opening = store.openSession();
            inFlight.end(slot);
        } catch (RuntimeException e) {
            inFlight.end(slot);
            errors.failed("store session", e);
            abort("a thread could not use the store: " + ErrorText.of(e));
            return;
        } finally {
            phases.sessionOpened();
        }
        try (StoreSession session = opening) {
            phases.awaitGo();
            if (phases.stop || phases.abortReason() != null) {
                return;
            }
            MeasuredSession measured = new MeasuredSession(
                    session,
                    graph,
                    rec,
                    log,
                    errors,
                    inFlight,
                    index,
                    config.actions().topK());
            Member member = new Member(context, index, rec, measured);
            if (config.open()) {
                new OpenModel(member, arrivalRecorders.apply(index)).run();
            } else {
                new ClosedModel(member, remaining).run();
            }
        } catch (RuntimeException e) {
            inFlight.end(slot);
            errors.failed("store session", e);
            abort("a thread could not use the store: " + ErrorText.of(e));
        }
    }
}
