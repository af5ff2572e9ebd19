package org.bgbench.emulator;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.bgbench.emulator.open.ArrivalClock;
import org.bgbench.model.Kind;
import org.bgbench.model.log.ArrivalRecorder;

/**
 * The open model's driver for one member thread: takes the next arrival from the run's clock, waits until it is due
 * (when the thread is free before then), and issues it as the closed model issues a request. Its response time counts
 * from when it was due: the wait for a free thread and for its socialite are part of it.
 */
final class OpenModel {
    /** A thread waiting for an arrival's due time looks at least this often whether the run has stopped. */
    private static final long STOP_CHECK_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

    private final Member m;
    private final RunPhases phases;
    private final Workload workload;
    private final MemberLocks locks;
    private final ArrivalRecorder arrivalRecorder;
    private final boolean unique;

    /** {@code arrivalRecorder}: where this member's start delays go (its service times go there too). */
    OpenModel(Member m, ArrivalRecorder arrivalRecorder) {
        this.m = m;
        this.phases = m.run.phases();
        this.workload = m.run.workload();
        this.locks = m.run.locks();
        this.arrivalRecorder = arrivalRecorder;
        this.unique = m.run.config().members().uniqueSocialites();
        m.sessions.arrivalRecorder = arrivalRecorder;
        m.s.recordServiceTimes(arrivalRecorder);
    }

    void run() {
        ArrivalClock c = phases.clock;
        Sessions sessions = m.sessions;
        while (!phases.stop) {
            long due = c.claim(m.rnd);
            if (due == Long.MAX_VALUE) {
                return;
            }
            boolean queued = System.nanoTime() >= due;
            if (!queued && !sleepUntil(due)) {
                return;
            }
            phases.warmupGate();
            boolean measured = phases.measuring;
            m.s.logReads(measured);
            Kind kind = Kind.byIndex(workload.pickKind(m.rnd.nextDouble()));
            int socialite = unique ? awaitSocialite() : workload.pickSocialite(m.rnd);
            if (socialite < 0) {
                return;
            }
            long delay = Math.max(0, System.nanoTime() - due);
            sessions.arrivalDelay = delay;
            if (measured) {
                arrivalRecorder.started(c.phaseOf(due), delay, queued);
            }
            m.s.arrival(delay, measured);
            sessions.arrivalMeasured = measured;
            try {
                m.issue(kind, socialite);
            } finally {
                m.s.arrival(0, false);
                sessions.arrivalDelay = 0;
            }
            m.requestDone();
        }
    }

    /** Parks until {@code due} ({@link System#nanoTime()}); false when the run stopped meanwhile. */
    private boolean sleepUntil(long due) {
        for (long left = due - System.nanoTime(); left > 0; left = due - System.nanoTime()) {
            if (phases.stop) {
                return false;
            }
            LockSupport.parkNanos(Math.min(left, STOP_CHECK_NANOS));
        }
        return !phases.stop;
    }

    /**
     * With unique socialites an arrival's socialite busy with an earlier one is waited for (that wait counts in its
     * response time), where the closed model draws another.
     */
    private int awaitSocialite() {
        int s = workload.pickSocialite(m.rnd);
        if (locks.tryLock(s)) {
            return s;
        }
        long t0 = System.nanoTime();
        int tries = 0;
        while (!phases.stop) {
            if (locks.tryLock(s)) {
                m.rec.bgWait(System.nanoTime() - t0);
                return s;
            }
            if (++tries % 64 == 0) {
                LockSupport.parkNanos(10_000);
            } else {
                Thread.onSpinWait();
            }
        }
        m.rec.bgWait(System.nanoTime() - t0);
        return -1;
    }
}
