package org.bgbench.model.log;

/**
 * Where the open model's emulator reports what a response time alone does not show (the measurement module implements
 * it): when each arrival started against when it was due, and each action's service time. Called from many threads;
 * must be lock-free. {@code kind} is the {@link org.bgbench.model.Kind#index()} of an action or a session.
 */
public interface ArrivalRecorder {
    /**
     * An arrival of the measured period started {@code delayNanos} after it was due (BG's schedule error, the wait for
     * a free thread, and the wait for its socialite), in phase {@code phase} of the schedule; {@code queued} when it
     * was already due as a thread took it (every thread was busy: the in-flight limit was reached).
     */
    void started(int phase, long delayNanos, boolean queued);

    /** The service time of a measured action or session: from its send to its reply, its wait to start excluded. */
    void service(int kind, long nanos);
}
