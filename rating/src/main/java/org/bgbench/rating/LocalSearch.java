package org.bgbench.rating;

/** The local search of SoAR after the hill climbing [dissertation 7.1]. */
public enum LocalSearch {
    /**
     * Probes the slope on both sides of a point, starting at the peak of the climb and continuing at the midpoint of
     * the half that rises, until a point higher than both neighbours: the exact peak among integers when throughput
     * is unimodal in T. Interval: the climbing points on either side of the peak (T/r², T).
     */
    OPTIMAL,
    /**
     * Bisects between the best point and the next climbing point (the first failure or drop), moving the start when
     * the midpoint succeeds with a higher throughput: fewer experiments, never looks left of the best point, within
     * about 10 % of the true SoAR on well-behaved curves (dissertation figure 7.5).
     */
    APPROXIMATE
}
