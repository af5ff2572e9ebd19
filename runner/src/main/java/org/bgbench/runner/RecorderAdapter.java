package org.bgbench.runner;

import org.bgbench.emulator.Recorder;

/** Hands the emulator's recordings to a measurement recorder (both use the same kind numbers). */
final class RecorderAdapter implements Recorder {
    private final org.bgbench.measurement.Recorder r;

    RecorderAdapter(org.bgbench.measurement.Recorder r) {
        this.r = r;
    }

    @Override
    public void ok(int kind, long latencyNanos) {
        r.ok(kind, latencyNanos);
    }

    @Override
    public void noop(int kind) {
        r.noop(kind);
    }

    @Override
    public void error(int kind, long latencyNanos) {
        r.error(kind, latencyNanos);
    }

    @Override
    public void bgWait(long nanos) {
        r.bgWait(nanos);
    }
}
