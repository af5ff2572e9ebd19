package org.bgbench.runner.observe;

import org.bgbench.measurement.RunResult;
import org.bgbench.measurement.SecondSample;

/**
 * Something outside the engine that follows every experiment of this process as it runs: the metrics endpoint, the
 * deck's live file. Registered once with {@link Observers}; each callback runs on the measuring thread, so it must be
 * quick and must not throw (a failure is logged and ignored: an observer can never change what is measured).
 */
public interface ExperimentObserver {

    /** An experiment is about to start its warm-up. */
    default void started(ExperimentInfo info) {}

    /** One sampled interval of that experiment (warm-up included, flagged). */
    default void second(ExperimentInfo info, SecondSample sample) {}

    /** The experiment's result as written (validated when validation ran); not called when the experiment failed. */
    default void finished(ExperimentInfo info, RunResult result) {}
}
