package org.bgbench.measurement;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;

/**
 * The recording state: S stripes, each one {@code long[]} holding, for every kind, a block of HdrHistogram-layout
 * latency slots followed by six counters, and after the blocks the stripe's BG-wait counters and the set of kinds
 * recorded in it. Writers only ever do atomic adds (and set a kind's bit the first time they record it); readers sum
 * the stripes. Nothing is ever reset, so an interval is the difference of two cumulative snapshots: every value lands
 * in exactly one interval and the intervals add up to the totals.
 *
 * <p>The kinds' set spares the once-a-second reader the blocks no one has written: a stripe holds ~25 K slots per kind
 * for 21 kinds, and a mix uses 1 to 8 of them. Summing all of them was a quarter of the sampler thread's CPU
 * (docs/benchmarks.md).
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
    /**
     * A bit per kind recorded in the stripe (a snapshot: in any stripe), set before the kind's first value and never
     * cleared. A block whose bit a reader does not see yet counts as zeros, its values are read in a later snapshot:
     * every slot only grows, so each snapshot is still at or above the one before.
     */
    static final int KINDS_RECORDED = 2;

    private static final int STRIPE_COUNTERS = 3;

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
        if (kinds > Long.SIZE) {
            throw new IllegalArgumentException("at most " + Long.SIZE + " kinds: " + kinds);
        }
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

    /**
     * Overwrites {@code target} (length {@link #snapshotLength}) with the sum of all stripes, reading only the blocks
     * of kinds recorded so far; {@code target[stripeCounters() + KINDS_RECORDED]} gets the set of those kinds. The
     * blocks of the others are left as they are: zeros, in every array this has only ever been given (the set grows).
     */
    void sumInto(long[] target) {
        int counters = kinds * stride;
        long[] masks = new long[stripes.length];
        long recorded = 0;
        for (int s = 0; s < stripes.length; s++) {
            masks[s] = (long) SLOT.getOpaque(stripes[s], PAD + counters + KINDS_RECORDED);
            recorded |= masks[s];
        }
        for (long left = recorded; left != 0; left &= left - 1) {
            int kind = Long.numberOfTrailingZeros(left);
            long bit = 1L << kind;
            int from = kind * stride;
            Arrays.fill(target, from, from + stride, 0L);
            for (int s = 0; s < stripes.length; s++) {
                if ((masks[s] & bit) != 0) {
                    addBlock(stripes[s], target, from, stride);
                }
            }
        }
        Arrays.fill(target, counters, snapshotLength, 0L);
        for (long[] stripe : stripes) {
            addBlock(stripe, target, counters, KINDS_RECORDED);
        }
        target[counters + KINDS_RECORDED] = recorded;
    }

    /** Adds {@code length} slots of a stripe from snapshot offset {@code from} into {@code target}. */
    private static void addBlock(long[] stripe, long[] target, int from, int length) {
        for (int i = from; i < from + length; i++) {
            // Opaque: each slot is read whole and fresh; no cross-slot atomicity is needed (see class comment).
            target[i] += (long) SLOT.getOpaque(stripe, PAD + i);
        }
    }

    /** Whether a snapshot (from {@link #sumInto}) holds values of {@code kind}. */
    boolean recorded(long[] snapshot, int kind) {
        return (snapshot[kinds * stride + KINDS_RECORDED] & (1L << kind)) != 0;
    }

    long bytes() {
        return (long) stripes.length * stripes[0].length * Long.BYTES;
    }
}
