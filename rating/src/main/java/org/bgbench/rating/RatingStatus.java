package org.bgbench.rating;

import java.util.Locale;

/** How final a rating is. */
public enum RatingStatus {
    /**
     * A run of length Δ at this T met the SLA and measured a throughput within the confirmation tolerance of the δ
     * run's (or the search's runs were already of length Δ).
     */
    CONFIRMED,
    /** Found with runs of length δ &lt; Δ; confirmation was turned off. */
    UNCONFIRMED,
    /** The run of length Δ at this T missed the SLA: the value is the δ search's; δ is probably too short. */
    CONFIRMATION_FAILED,
    /**
     * Every run of length Δ at this T (the first and {@link Rating#CONFIRMATION_REPEATS} repeats) met the SLA but
     * measured a throughput more than the confirmation tolerance away from the δ run's: the value is the δ run's, the
     * confirmation runs' figures are beside it; δ is probably too short or the host too noisy.
     */
    UNSTABLE,
    /** T = 1 missed the SLA: the rating is 0 [dissertation 7.1]. */
    ZERO,
    /** The rating stopped before this value was final: it is the best seen so far, a lower bound. */
    INCOMPLETE;

    /** Lower-case name with dashes, as in the JSON. */
    public String label() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}
