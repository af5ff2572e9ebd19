package org.bgbench.emulator;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.bgbench.emulator.open.ArrivalClock;

/**
 * The phases of one run, as its members and its driver see them: the session gate (no member acts before every
 * member has opened its session), the warm-up and the start of the measured period, and the stop (the end of the
 * run or an abort). One instance per run; its flags are read by every member on each request.
 */
final class RunPhases {
    /**
     * How long members wait for the others' sessions at most; then those that have one start (as before this wait
     * existed), and a session still opening shows as a stalled call.
     */
    private static final long SESSIONS_WAIT_NANOS = TimeUnit.SECONDS.toNanos(60);

    volatile boolean stop;
    volatile boolean measuring;
    /**
     * {@link #measuring} as 0 or 1, for the members' loop: it passes the value on rather than branching on it, so the
     * JIT's code for the loop, compiled during the warm-up, stays valid when the measured period starts.
     */
    volatile int measuredPeriod;

    private volatile String abortReason;
    /** The open model's arrivals (null: closed model), made when the run starts. */
    volatile ArrivalClock clock;

    private final long warmupOperations;
    private final AtomicLong warmupLeft;
    private Runnable warmupEnded = () -> {};
    /** Counted down as each member has opened its session (or failed to). */
    private final CountDownLatch sessionsOpened;
    /** Opened once every member has its session: none acts before. */
    private final CountDownLatch go = new CountDownLatch(1);

    RunPhases(int members, long warmupOperations) {
        this.warmupOperations = warmupOperations;
        this.warmupLeft = new AtomicLong(warmupOperations);
        this.sessionsOpened = new CountDownLatch(members);
    }

    /** What runs once, when the measured period starts; set before the members start. */
    void onWarmupEnd(Runnable hook) {
        this.warmupEnded = hook;
    }

    /** Why the run stopped early, or null. */
    String abortReason() {
        return abortReason;
    }

    /** Stops the run with {@code reason}; the first reason given stays. */
    void abort(String reason) {
        if (abortReason == null) {
            abortReason = reason;
        }
        stop = true;
    }

    /** A member has opened its session, or failed to. */
    void sessionOpened() {
        sessionsOpened.countDown();
    }

    /**
     * Waits until every member has opened its session, or one failed (the run aborts), or none is left, or
     * {@link #SESSIONS_WAIT_NANOS} passed; the caller then lets the members act ({@link #letMembersAct()}).
     */
    void awaitSessions(AtomicInteger running) throws InterruptedException {
        long deadline = System.nanoTime() + SESSIONS_WAIT_NANOS;
        while (!sessionsOpened.await(50, TimeUnit.MILLISECONDS)) {
            if (abortReason != null || stop || running.get() == 0 || System.nanoTime() > deadline) {
                return;
            }
        }
    }

    /** Opens the gate: members waiting in {@link #awaitGo()} act. */
    void letMembersAct() {
        go.countDown();
    }

    /** Waits for the gate to open; an interrupted member gives up (the run is being stopped). */
    void awaitGo() {
        try {
            go.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Ends the warm-up exactly once, whichever thread gets there first. */
    synchronized void startMeasuring() {
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

    /** Counts a warm-up request; the first one past the warm-up's count starts the measured period. */
    void warmupGate() {
        // The count first: with a warm-up of time it is 0 in both periods, and the JIT sees no branch change.
        if (warmupOperations > 0 && !measuring) {
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
    }

    /**
     * A warm-up of N actions: the member that issues the N-th starts the measured period and wakes the caller, so its
     * clock starts then (at least every 50 ms it looks for an abort or the members' end).
     */
    synchronized void awaitMeasuring(AtomicInteger running) throws InterruptedException {
        while (!measuring && abortReason == null && running.get() > 0) {
            wait(50);
        }
    }

    /** Waits until {@code deadline} ({@link System#nanoTime()}), an abort or the end of every member. */
    void waitUntil(long deadline, CountDownLatch ended) throws InterruptedException {
        while (abortReason == null && ended.getCount() > 0) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return;
            }
            // Wakes when the last member ends; at least every 50 ms to see an abort.
            ended.await(Math.min(TimeUnit.MILLISECONDS.toNanos(50), left), TimeUnit.NANOSECONDS);
        }
    }
}
