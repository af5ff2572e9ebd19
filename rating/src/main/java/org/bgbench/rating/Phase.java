package org.bgbench.rating;

import java.util.Locale;

/** Which step of the rating ran an experiment (the first to ask for it; later steps reuse it from the cache). */
public enum Phase {
    /** SoAR: T = 1, r, r², … while the SLA holds and throughput rises [dissertation 7.1]. */
    SOAR_CLIMB,
    /** SoAR: the Optimal or Approximate local search around the peak of the climb [dissertation 7.1]. */
    SOAR_LOCAL,
    /** Socialites: T = 1, 2, 4, … while the SLA holds [dissertation 7.1]. */
    SOCIALITES_DOUBLING,
    /** Socialites: the binary search between the last success and the first failure [dissertation 7.1]. */
    SOCIALITES_BINARY,
    /** The run of length Δ at the chosen T [dissertation 7.1, last paragraphs]. */
    CONFIRMATION;

    /** Lower-case name with dashes, as in the JSON: {@code soar-climb}, {@code confirmation}, … */
    public String label() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** Parses {@link #label()} or the constant's name. */
    public static Phase parse(String text) {
        return valueOf(text.trim().toUpperCase(Locale.ROOT).replace('-', '_'));
    }
}
