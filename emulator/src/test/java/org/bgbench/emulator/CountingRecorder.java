package org.bgbench.emulator;

import java.util.concurrent.atomic.AtomicLongArray;
import org.bgbench.model.Kind;
import org.bgbench.model.log.ActionRecorder;

/** Test recorder: exact per-kind counts shared by all threads. */
final class CountingRecorder implements ActionRecorder {
    final AtomicLongArray ok = new AtomicLongArray(Kind.count());
    final AtomicLongArray noop = new AtomicLongArray(Kind.count());
    final AtomicLongArray errors = new AtomicLongArray(Kind.count());
    final AtomicLongArray nanos = new AtomicLongArray(Kind.count());
    /** BG's thread CPU in the sampled store calls, ns, and the calls sampled. */
    final AtomicLongArray cpuNanos = new AtomicLongArray(Kind.count());

    final AtomicLongArray cpuSamples = new AtomicLongArray(Kind.count());

    @Override
    public void ok(int kind, long latencyNanos) {
        ok.incrementAndGet(kind);
        nanos.addAndGet(kind, latencyNanos);
    }

    @Override
    public void noop(int kind) {
        noop.incrementAndGet(kind);
    }

    @Override
    public void error(int kind, long latencyNanos) {
        errors.incrementAndGet(kind);
        nanos.addAndGet(kind, latencyNanos);
    }

    @Override
    public void bgWait(long nanos) {}

    @Override
    public void cpu(int kind, long nanos) {
        cpuNanos.addAndGet(kind, nanos);
        cpuSamples.incrementAndGet(kind);
    }

    /** Mean CPU µs per sampled call of {@code kind}, or null without samples. */
    Double cpuMeanUs(int kind) {
        long n = cpuSamples.get(kind);
        return n == 0 ? null : cpuNanos.get(kind) / 1e3 / n;
    }

    /** Sum over every kind. */
    long total(AtomicLongArray a) {
        return total(a, 0, a.length());
    }

    long total(AtomicLongArray a, int from, int to) {
        long n = 0;
        for (int i = from; i < to; i++) {
            n += a.get(i);
        }
        return n;
    }
}
