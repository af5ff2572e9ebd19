package org.bgbench.measurement;

import java.lang.invoke.VarHandle;
import java.util.Objects;
import org.bgbench.model.Action;
import org.bgbench.model.log.ActionRecorder;

/**
 * Where emulator threads record what they did. Obtained from {@link Measurements#recorder(int)}; threads whose index
 * maps to the same stripe share one instance, so any number of threads cost no extra memory. Every method is
 * allocation-free, lock-free and safe to call from any thread: a call is one bounds check, an index computation, a read
 * of the stripe's set of recorded kinds (an atomic or the first time a kind is recorded there) and one atomic add (two
 * for {@link #error}, {@link #bgWait} and {@link #cpu}). Kinds are
 * {@link org.bgbench.model.Kind#index()}: the actions, then the sessions.
 */
public final class Recorder implements ActionRecorder {
    private static final VarHandle SLOT = Stripes.SLOT;

    private final long[] slots;
    private final int kinds;
    private final int stride;
    // Copies of the layout's fields: final fields of this object keep the hot path to plain loads.
    private final int leadingZeroCountBase;
    private final long subBucketMask;
    private final int unitMagnitude;
    private final int subBucketHalfCountMagnitude;
    private final int subBucketHalfCount;
    private final long highest;
    private final int betaIndex;
    private final long betaNanos;
    private final int counters;
    private final int stripeCounters;
    private final int kindsRecorded;

    Recorder(Stripes stripes, int stripe) {
        LatencyLayout layout = stripes.layout;
        this.slots = stripes.stripes[stripe];
        this.kinds = stripes.kinds;
        this.stride = stripes.stride;
        this.leadingZeroCountBase = layout.leadingZeroCountBase;
        this.subBucketMask = layout.subBucketMask;
        this.unitMagnitude = layout.unitMagnitude;
        this.subBucketHalfCountMagnitude = layout.subBucketHalfCountMagnitude;
        this.subBucketHalfCount = layout.subBucketHalfCount;
        this.highest = layout.highest;
        this.betaIndex = stripes.betaIndex;
        this.betaNanos = stripes.betaNanos;
        this.counters = Stripes.PAD + stripes.counters();
        this.stripeCounters = Stripes.PAD + stripes.stripeCounters();
        this.kindsRecorded = stripeCounters + Stripes.KINDS_RECORDED;
    }

    /** Adds {@code kind} to the stripe's recorded kinds, before its first value (the reader skips kinds not there). */
    private void recorded(int kind) {
        long bit = 1L << kind;
        if (((long) SLOT.getOpaque(slots, kindsRecorded) & bit) == 0) {
            SLOT.getAndBitwiseOr(slots, kindsRecorded, bit);
        }
    }

    /** A completed action or session of {@code kind} that took {@code latencyNanos}. */
    public void ok(int kind, long latencyNanos) {
        int block = Objects.checkIndex(kind, kinds) * stride;
        recorded(kind);
        long value = latencyNanos < 0 ? 0 : Math.min(latencyNanos, highest);
        int bucket = leadingZeroCountBase - Long.numberOfLeadingZeros(value | subBucketMask);
        int subBucket = (int) (value >>> (bucket + unitMagnitude));
        int index = ((bucket + 1) << subBucketHalfCountMagnitude) + subBucket - subBucketHalfCount;
        // Values above β that share β's slot go to a side slot, which makes the within-β count exact to the ns;
        // comparing the unclamped latency keeps it exact for latencies beyond the histogram's range too.
        int slot = index == betaIndex && latencyNanos > betaNanos ? counters + Stripes.ABOVE_BETA : Stripes.PAD + index;
        SLOT.getAndAdd(slots, block + slot, 1L);
    }

    /** A completed action; same as {@code ok(action.index(), latencyNanos)}. */
    public void ok(Action action, long latencyNanos) {
        ok(action.index(), latencyNanos);
    }

    /** An action of {@code kind} the thread could not issue because no valid target existed (it did not reach the store). */
    public void noop(int kind) {
        int block = Objects.checkIndex(kind, kinds) * stride;
        recorded(kind);
        SLOT.getAndAdd(slots, block + counters + Stripes.NOOPS, 1L);
    }

    public void noop(Action action) {
        noop(action.index());
    }

    /** An action or session of {@code kind} that failed after {@code latencyNanos}; it is not part of the latency histogram. */
    public void error(int kind, long latencyNanos) {
        int block = Objects.checkIndex(kind, kinds) * stride + counters;
        recorded(kind);
        SLOT.getAndAdd(slots, block + Stripes.ERRORS, 1L);
        SLOT.getAndAdd(slots, block + Stripes.ERROR_NANOS, Math.max(latencyNanos, 0L));
    }

    public void error(Action action, long latencyNanos) {
        error(action.index(), latencyNanos);
    }

    /**
     * BG's thread CPU time in one sampled store call of {@code kind}, ns (negative values count as 0); the result
     * reports the mean over the sampled calls.
     */
    @Override
    public void cpu(int kind, long nanos) {
        int block = Objects.checkIndex(kind, kinds) * stride + counters;
        recorded(kind);
        SLOT.getAndAdd(slots, block + Stripes.CPU_NANOS, Math.max(nanos, 0L));
        SLOT.getAndAdd(slots, block + Stripes.CPU_SAMPLES, 1L);
    }

    /** Time a thread waited inside BG (member locks, searching for a free socialite); waits of 0 are not counted. */
    public void bgWait(long nanos) {
        if (nanos > 0) {
            SLOT.getAndAdd(slots, stripeCounters + Stripes.BG_WAIT_NANOS, nanos);
            SLOT.getAndAdd(slots, stripeCounters + Stripes.BG_WAIT_COUNT, 1L);
        }
    }
}
