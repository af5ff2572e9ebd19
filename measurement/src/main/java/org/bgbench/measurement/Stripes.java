package org.bgbench.measurement;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;

/**
 * The recording state: S stripes, each one {@code long[]} holding, for every kind, a block of HdrHistogram-layout
 * latency slots followed by six counters, and after the blocks the stripe's BG-wait counters. Writers only ever do
 * atomic adds; readers sum the stripes. Nothing is ever reset, so an interval is the difference of two cumulative
 * snapshots: every value lands in exactly one interval and the intervals add up to the totals.
 */
final class Stripes {
    static final VarHandle SLOT = MethodHandles.arrayElementVarHandle(long[].class);
    /** Leading and trailing padding of each stripe (16 longs = 128 bytes, two cache lines against adjacent-line prefetch). */
    static final int PAD = 16;

    // Offsets after a kind's latency slots.
    static final int ABOVE_BETA = 0;
    static final int NOOPS = 1;
    static final int ERRORS = 2;
    static final int ERROR_NANOS = 3;
    /** BG's thread CPU in the sampled store calls of the kind, ns, and how many calls were sampled. */
    static final int CPU_NANOS = 4;
    static final int CPU_SAMPLES = 5;
    private static final int KIND_COUNTERS = 6;

    // Offsets after the last kind block.
    static final int BG_WAIT_NANOS = 0;
    static final int BG_WAIT_COUNT = 1;
    private static final int STRIPE_COUNTERS = 2;

    final LatencyLayout layout;
    final int kinds;
    /** Slots per kind block; a multiple of 8 so each block's counters start on their own cache line more often than not. */
    final int stride;
    /** Index of the slot that holds β (clamped into the range), and β itself, for the exact within-β split. */
    final int betaIndex;
    final long betaNanos;
    /** Length of a snapshot: all kind blocks plus the stripe counters, without padding. */
    final int snapshotLength;
    final long[][] stripes;

    Stripes(LatencyLayout layout, int kinds, int stripeCount, long betaNanos) {
        if (Integer.bitCount(stripeCount) != 1) {
            throw new IllegalArgumentException("stripe count must be a power of two: " + stripeCount);
        }
        this.layout = layout;
        this.kinds = kinds;
        this.stride = (layout.length + KIND_COUNTERS + 7) & ~7;
        this.betaNanos = betaNanos;
        this.betaIndex = layout.index(layout.clamp(betaNanos));
        this.snapshotLength = kinds * stride + STRIPE_COUNTERS;
        this.stripes = new long[stripeCount][PAD + snapshotLength + PAD];
    }

    /** Offset of a kind's counters (after its latency slots) within a kind block. */
    int counters() {
        return layout.length;
    }

    /** Offset of the stripe counters within a snapshot. */
    int stripeCounters() {
        return kinds * stride;
    }

    /** Overwrites {@code target} (length {@link #snapshotLength}) with the sum of all stripes. */
    void sumInto(long[] target) {
        Arrays.fill(target, 0L);
        for (long[] stripe : stripes) {
            for (int i = 0; i < snapshotLength; i++) {
                // Opaque: each slot is read whole and fresh; no cross-slot atomicity is needed (see class comment).
                target[i] += (long) SLOT.getOpaque(stripe, PAD + i);
            }
        }
    }

    long bytes() {
        return (long) stripes.length * stripes[0].length * Long.BYTES;
    }
}
