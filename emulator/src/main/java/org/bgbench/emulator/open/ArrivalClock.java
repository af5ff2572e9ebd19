package org.bgbench.emulator.open;

import java.time.Duration;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * When each arrival of the open model is due: one shared sequence of intended start times, on the
 * {@link System#nanoTime()} clock, that the emulator's threads take from in turn ({@link #claim}). A thread takes the
 * next arrival when it is free, so arrivals that come due while every thread is busy wait, and their response time
 * counts from when they were due, not from when a thread got to them (what coordinated omission would hide).
 *
 * <p>The sequence is one compare-and-set per arrival, kept in 1/1024 ns from the clock's origin so that even, fractional
 * gaps (1.5 M/s: 666.67 ns) do not drift. The rate is the schedule's at the previous arrival's due time; a ramp that
 * starts from 0 starts at {@link #MIN_RATE}.
 */
public final class ArrivalClock {
    /** The lowest rate the clock spaces arrivals at, per second (a ramp from 0 would otherwise never start). */
    public static final double MIN_RATE = 1.0;

    private static final int SHIFT = 10;

    private final ArrivalSchedule schedule;
    private final long origin;
    /** The next arrival's due time: ns after {@link #origin}, times 1024. */
    private final AtomicLong next = new AtomicLong();
    /** When the schedule's clock started (the measured period's start), ns after the origin; MAX_VALUE until then. */
    private volatile long scheduleStart = Long.MAX_VALUE;
    /** When the schedule ends, ns after the origin; MAX_VALUE when it lasts as long as the run. */
    private volatile long end = Long.MAX_VALUE;

    /** A clock whose first arrival is due at {@code origin} ({@link System#nanoTime()}), at the warm-up's rate. */
    public ArrivalClock(ArrivalSchedule schedule, long origin) {
        this.schedule = schedule;
        this.origin = origin;
    }

    public ArrivalSchedule schedule() {
        return schedule;
    }

    /**
     * Starts the schedule's clock at {@code nanoTime} (the measured period's start): arrivals due from then on follow
     * its phases, and none is due after its end. Arrivals still due before it keep the warm-up's spacing.
     */
    public void startSchedule(long nanoTime) {
        long at = nanoTime - origin;
        Duration length = schedule.length();
        end = length == null ? Long.MAX_VALUE : at + length.toNanos();
        scheduleStart = at;
    }

    /**
     * The next arrival's due time ({@link System#nanoTime()}), or {@link Long#MAX_VALUE} when the schedule has ended.
     * {@code rnd} draws a Poisson process's gaps (the calling thread's own generator).
     */
    public long claim(SplittableRandom rnd) {
        while (true) {
            long cur = next.get();
            long due = cur >> SHIFT;
            if (due >= end) {
                return Long.MAX_VALUE;
            }
            long start = scheduleStart;
            double rate = due < start ? schedule.warmupRate() : schedule.rateAt(due - start);
            double gap = (1e9 * (1 << SHIFT)) / Math.max(rate, MIN_RATE);
            if (schedule.process() == ArrivalSchedule.Process.POISSON) {
                gap *= -Math.log(1.0 - rnd.nextDouble());
            }
            long after = cur + Math.max(1L, (long) gap);
            if (next.compareAndSet(cur, after)) {
                return origin + due;
            }
        }
    }

    /** The phase of the schedule an arrival due at {@code due} belongs to; -1 in the warm-up. */
    public int phaseOf(long due) {
        long start = scheduleStart;
        long at = due - origin;
        return at < start ? -1 : schedule.phaseAt(at - start);
    }

    /**
     * The arrivals due before {@code nanoTime} that no thread has taken yet (at the end of the measured period: the
     * backlog BG never started), as many as the schedule makes in that span; 0 when none is waiting.
     */
    public double untakenBefore(long nanoTime) {
        long start = scheduleStart;
        long due = next.get() >> SHIFT;
        long until = Math.min(nanoTime - origin, end);
        if (start == Long.MAX_VALUE || until <= due) {
            return 0;
        }
        return schedule.arrivalsUntil(until - start) - schedule.arrivalsUntil(Math.max(0, due - start));
    }

    /** The due time ({@link System#nanoTime()}) of the oldest arrival no thread has taken yet. */
    public long oldestUntaken() {
        return origin + (next.get() >> SHIFT);
    }
}
