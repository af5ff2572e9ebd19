package org.bgbench.model.log;

/**
 * Where one emulator thread reports what happened (the measurement module's recorder implements it, so the emulator
 * needs no measurement code); must be allocation-free and lock-free. {@code kind} is the
 * {@link org.bgbench.model.Kind#index()} of an action or a session.
 */
public interface ActionRecorder {
    void ok(int kind, long latencyNanos);

    /** The kind had no valid target (e.g. AFR with no pending invitation) and was not issued. */
    void noop(int kind);

    void error(int kind, long latencyNanos);

    /** Time the thread spent waiting inside BG: for a free socialite or a member lock. */
    void bgWait(long nanos);

    /**
     * CPU time the thread spent on one sampled execution of {@code kind}'s store call, ns (the emulator samples a
     * share of the calls). Recorders that do not report it ignore it.
     */
    default void cpu(int kind, long nanos) {}
}
