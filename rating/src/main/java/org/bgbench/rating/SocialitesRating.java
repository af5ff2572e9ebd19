package org.bgbench.rating;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The Socialites rating: the highest T at which the SLA holds.
 *
 * @param threads      the rating, 0 when T = 1 missed the SLA
 * @param throughput   the throughput observed at {@code threads} (confirmation run when confirmed, else δ run)
 * @param status       how final it is
 * @param search       the δ experiment at {@code threads} (null when none succeeded)
 * @param confirmation the Δ experiment at {@code threads} (null when not run)
 */
public record SocialitesRating(
        int threads, double throughput, RatingStatus status, Experiment search, Experiment confirmation) {
    /** JSON-friendly form: {@code threads}, {@code throughput}, {@code status}, … */
    public Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("threads", threads);
        m.put("throughput", throughput);
        m.put("status", status.label());
        m.put("search_experiment", search == null ? null : search.index());
        m.put("confirmation_experiment", confirmation == null ? null : confirmation.index());
        return m;
    }
}
