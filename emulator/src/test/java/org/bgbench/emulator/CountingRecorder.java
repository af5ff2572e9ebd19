package org.bgbench.emulator;

import java.util.concurrent.atomic.AtomicLongArray;

/** Test recorder: exact per-kind counts shared by all threads. */
final class CountingRecorder implements Recorder {
    final AtomicLongArray ok = new AtomicLongArray(Kinds.COUNT + 1);
    final AtomicLongArray noop = new AtomicLongArray(Kinds.COUNT + 1);
    final AtomicLongArray errors = new AtomicLongArray(Kinds.COUNT + 1);

    @Override
    public void ok(int kind, long latencyNanos) {
        ok.incrementAndGet(kind);
    }

    @Override
    public void noop(int kind) {
        noop.incrementAndGet(kind);
    }

    @Override
    public void error(int kind, long latencyNanos) {
        errors.incrementAndGet(kind);
    }

    @Override
    public void bgWait(long nanos) {
    }

    long total(AtomicLongArray a, int from, int to) {
        long n = 0;
        for (int i = from; i < to; i++) {
            n += a.get(i);
        }
        return n;
    }
}
