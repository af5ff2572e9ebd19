package org.bgbench.emulator;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.List;

/**
 * Which store call each member thread is in, and since when: one slot per thread, written by its thread when a call
 * starts and when it returns, read by the sampler (is anyone waiting on the store?) and at the end of the run (which
 * actions are still waiting?). The hot path is two opaque stores per action into the thread's own slot: no
 * allocation, no lock, no fence, and slots 128 bytes apart so no two threads share a cache line. A reader may see a
 * slot a moment late; that is all the precision stall detection needs.
 *
 * <p>A slot holds 0 (no call) or {@code (start − origin) << KIND_BITS | (kind + 1)}, {@code start} the
 * {@link System#nanoTime()} at which the call began.
 */
public final class InFlight {
    /** Kind of the call that opens a thread's store session (not an action). */
    public static final int OPENING = 62;

    private static final int KIND_BITS = 6;
    private static final long KIND_MASK = (1L << KIND_BITS) - 1;
    /** Longs between two slots: 128 bytes, so adjacent-line prefetching does not pair two threads' slots either. */
    private static final int PAD = 16;

    private static final VarHandle SLOT = MethodHandles.arrayElementVarHandle(long[].class);

    private final long[] slots;
    private final int threads;
    private final long origin;

    /** A call still waiting on the store: its {@link org.bgbench.model.Kind#index()} and how long it has waited. */
    public record Call(int thread, int kind, long elapsedNanos) {
        /** Whether it is an action (not a thread opening its session). */
        public boolean action() {
            return kind != OPENING;
        }
    }

    public InFlight(int threads) {
        this.threads = threads;
        this.slots = new long[(threads + 2) * PAD];
        this.origin = System.nanoTime();
    }

    /** The slot index of thread {@code thread}, for {@link #begin} and {@link #end}. */
    int slot(int thread) {
        return (thread + 1) * PAD;
    }

    /** Thread of {@code slot} starts a call of {@code kind} at {@code start} ({@link System#nanoTime()}). */
    void begin(int slot, int kind, long start) {
        SLOT.setOpaque(slots, slot, ((start - origin) << KIND_BITS) | (kind + 1));
    }

    /** Thread of {@code slot} left its call. */
    void end(int slot) {
        SLOT.setOpaque(slots, slot, 0L);
    }

    /** Whether some thread has been inside one store call since {@code since} ({@link System#nanoTime()}) or longer. */
    public boolean waitingSince(long since) {
        long bound = since - origin;
        for (int t = 0; t < threads; t++) {
            long v = (long) SLOT.getOpaque(slots, slot(t));
            if (v != 0 && (v >>> KIND_BITS) <= bound) {
                return true;
            }
        }
        return false;
    }

    /** The calls in progress at {@code now} that started before it, with how long each has waited. */
    public List<Call> at(long now) {
        List<Call> calls = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            long v = (long) SLOT.getOpaque(slots, slot(t));
            if (v != 0) {
                long elapsed = now - origin - (v >>> KIND_BITS);
                if (elapsed >= 0) {
                    calls.add(new Call(t, (int) (v & KIND_MASK) - 1, elapsed));
                }
            }
        }
        return calls;
    }
}
