package org.bgbench.scaling.elasticity;

/** What runs the request sets: BG's experiments against a store, or a script in tests. */
public interface RequestSets {
    /** Runs one set of {@code requests} requests on {@code threads} threads, members drawn with {@code seed}. */
    SetRun run(int requests, int threads, long seed);

    /**
     * One set's outcome.
     *
     * @param seconds     the set's time
     * @param meanLatency its requests' mean response time, seconds
     * @param errors      requests the store failed
     */
    record SetRun(double seconds, double meanLatency, long errors) {}
}
