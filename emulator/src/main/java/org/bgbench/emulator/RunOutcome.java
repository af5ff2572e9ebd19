package org.bgbench.emulator;

import java.util.List;

/**
 * How a run ended.
 *
 * @param completed     the run reached its duration or operation count
 * @param abortReason   why it stopped early (a failing store), or null
 * @param stuckThreads  threads still inside a store call when the run gave up waiting for them, {@link
 *                      Emulator#grace()} after the measured period
 * @param errorSamples  the first error message seen for each kind that failed, for the report
 * @param inFlight      the calls still waiting on the store when the measured period ended, with how long each had
 *                      waited (a lower bound of its latency)
 */
public record RunOutcome(
        boolean completed,
        String abortReason,
        int stuckThreads,
        List<String> errorSamples,
        List<InFlight.Call> inFlight) {
    public RunOutcome {
        errorSamples = errorSamples == null ? List.of() : List.copyOf(errorSamples);
        inFlight = inFlight == null ? List.of() : List.copyOf(inFlight);
    }

    /** A run whose calls all returned. */
    public RunOutcome(boolean completed, String abortReason, int stuckThreads, List<String> errorSamples) {
        this(completed, abortReason, stuckThreads, errorSamples, List.of());
    }
}
