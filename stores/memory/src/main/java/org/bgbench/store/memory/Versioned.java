package org.bgbench.store.memory;

import java.lang.invoke.VarHandle;

/**
 * A sequence lock. Writers hold the object's monitor and keep {@code seq} odd while they change the object, so
 * readers can read without locking (no write to a shared cache line, which keeps hot members cheap to read from many
 * threads) and fall back to the monitor when a write overlapped their read. Reading under the monitor waits for the
 * writer, so a reader never observes a half-done write and a multi-member write becomes visible everywhere at once.
 */
abstract class Versioned {
    private volatile int seq;

    /** Marks the start of a change; the caller holds this object's monitor. */
    final void beginWrite() {
        seq = seq + 1;
        // The data stores that follow must not become visible before the odd sequence number.
        VarHandle.storeStoreFence();
    }

    /** Marks the end of a change; the volatile store publishes everything written since {@link #beginWrite}. */
    final void endWrite() {
        seq = seq + 1;
    }

    /** Stamp to pass to {@link #validate} after an optimistic read. */
    final int stamp() {
        return seq;
    }

    /** Whether nothing was written since {@code stamp}, so the plain reads in between saw one consistent state. */
    final boolean validate(int stamp) {
        // Keeps the plain data reads before the second read of seq.
        VarHandle.acquireFence();
        return (stamp & 1) == 0 && seq == stamp;
    }
}
