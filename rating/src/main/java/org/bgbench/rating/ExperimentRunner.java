package org.bgbench.rating;

import java.time.Duration;

/**
 * Runs one experiment for the rating: T emulated socialites (threads) against the store for a duration, then reports
 * what it measured. Whatever the experiment needs around the run (reloading or repairing the database, warm-up,
 * validation of the reads) is the runner's business; the rating only times the call.
 *
 * <p>Throwing stops the rating: it returns what it has with the exception as its stop reason (the store died, a
 * worker was lost). An experiment that ran but missed the SLA is not an exception: report its measurement.
 */
@FunctionalInterface
public interface ExperimentRunner {
    /**
     * Runs T threads for {@code duration} (warm-up not included).
     *
     * @param threads  T, at least 1
     * @param duration δ during the search, Δ for the confirmation run
     */
    Measurement run(int threads, Duration duration) throws Exception;
}
