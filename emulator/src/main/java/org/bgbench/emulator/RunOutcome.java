package org.bgbench.emulator;

import java.util.List;

/**
 * How a run ended.
 *
 * @param completed     the run reached its duration or operation count
 * @param abortReason   why it stopped early (a failing store), or null
 * @param stuckThreads  threads still inside a store call when the run gave up waiting for them
 * @param errorSamples  the first error message seen for each kind that failed, for the report
 */
public record RunOutcome(boolean completed, String abortReason, int stuckThreads, List<String> errorSamples) {
}
