package org.bgbench.emulator;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.bgbench.model.Kind;

/**
 * The closed model's driver for one member: issues a request (an action or a session by a drawn socialite), waits ψ,
 * and again, until the run stops or the run's count of requests is used up.
 */
final class ClosedModel {
    private final Member m;
    private final RunPhases phases;
    private final Workload workload;
    private final MemberLocks locks;
    private final AtomicLong remaining;
    private final long operations;
    private final int interArrivalMs;
    private final boolean unique;

    /** {@code remaining}: the run's requests left, shared by its members (used when it runs for a count). */
    ClosedModel(Member m, AtomicLong remaining) {
        this.m = m;
        this.phases = m.run.phases();
        this.workload = m.run.workload();
        this.locks = m.run.locks();
        this.remaining = remaining;
        this.operations = m.run.config().length().operations();
        this.interArrivalMs = m.run.config().pacing().interArrivalMs();
        this.unique = m.run.config().members().uniqueSocialites();
    }

    void run() {
        while (!phases.stop) {
            phases.warmupGate();
            int measured = phases.measuredPeriod;
            if (operations > 0 && measured == 1 && remaining.getAndDecrement() <= 0) {
                return;
            }
            m.s.logReads(measured);
            Kind kind = Kind.byIndex(workload.pickKind(m.rnd.nextDouble()));
            int socialite = acquireSocialite();
            if (socialite < 0) {
                return;
            }
            m.issue(kind, socialite);
            pause(interArrivalMs);
            m.requestDone();
        }
    }

    private void pause(int ms) {
        if (ms > 0 && !phases.stop) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(ms));
        }
    }

    /** Draws socialites until a free one is found (unique socialites), timing the search as BG wait. */
    private int acquireSocialite() {
        int s = workload.pickSocialite(m.rnd);
        if (!unique || locks.tryLock(s)) {
            return s;
        }
        long t0 = System.nanoTime();
        int tries = 0;
        while (!phases.stop) {
            s = workload.pickSocialite(m.rnd);
            if (locks.tryLock(s)) {
                m.rec.bgWait(System.nanoTime() - t0);
                return s;
            }
            if (++tries % 64 == 0) {
                Thread.yield();
            }
        }
        m.rec.bgWait(System.nanoTime() - t0);
        return -1;
    }
}
