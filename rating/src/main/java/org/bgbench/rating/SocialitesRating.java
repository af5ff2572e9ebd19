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
 * @param confirmation the last Δ experiment at {@code threads} (null when not run)
 * @param notes        every confirmation run, whether the rating is a lower bound and why
 */
public record SocialitesRating(
        int threads,
        double throughput,
        RatingStatus status,
        Experiment search,
        Experiment confirmation,
        RatingNotes notes) {
    public SocialitesRating {
        notes = notes == null ? RatingNotes.NONE : notes;
    }

    /** Without notes: no bound. */
    public SocialitesRating(
            int threads, double throughput, RatingStatus status, Experiment search, Experiment confirmation) {
        this(threads, throughput, status, search, confirmation, RatingNotes.NONE);
    }

    /** Whether the rating is only a lower bound ("≥"), see {@link RatingNotes#lowerBound()}. */
    public boolean lowerBound() {
        return notes.isLowerBound();
    }

    SocialitesRating withNotes(RatingNotes n) {
        return new SocialitesRating(threads, throughput, status, search, confirmation, n);
    }

    /** JSON-friendly form: {@code threads}, {@code throughput}, {@code status}, … */
    public Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("threads", threads);
        m.put("throughput", throughput);
        m.put("status", status.label());
        m.put("search_experiment", search == null ? null : search.index());
        m.put("confirmation_experiment", confirmation == null ? null : confirmation.index());
        notes.putInto(m);
        return m;
    }
}
