package org.bgbench.rating;

/**
 * Told about the rating as it goes, so that a caller can print and save every experiment as it finishes. Called on
 * the thread that runs {@link Rating#rate()}. An exception thrown by the listener does not stop the rating: it
 * becomes a warning of the result.
 */
@FunctionalInterface
public interface RatingListener {
    /** Does nothing. */
    RatingListener NONE = e -> {};

    /** An experiment finished (not called for results reused from the cache or resumed from an earlier rating). */
    void experimentFinished(Experiment experiment);

    /** A warning was added to the result (e.g. a measurement contradicts the search's assumptions). */
    default void warning(String warning) {}
}
