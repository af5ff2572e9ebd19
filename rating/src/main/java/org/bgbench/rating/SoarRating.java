package org.bgbench.rating;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The SoAR: the highest throughput at which the SLA holds, and the T that produced it.
 *
 * @param actionsPerSecond the SoAR: the throughput of the confirmation run when {@link RatingStatus#CONFIRMED},
 *                         otherwise the search's (δ) throughput at {@code threads}; 0 when T = 1 missed the SLA
 * @param threads          the T of the SoAR, 0 when none met the SLA
 * @param status           how final it is
 * @param search           the δ experiment at {@code threads} (null when none succeeded)
 * @param confirmation     the last Δ experiment at {@code threads} (null when not run)
 * @param notes            every confirmation run, whether the value is a lower bound, why it is below a measured one
 */
public record SoarRating(
        double actionsPerSecond,
        int threads,
        RatingStatus status,
        Experiment search,
        Experiment confirmation,
        RatingNotes notes) {
    public SoarRating {
        notes = notes == null ? RatingNotes.NONE : notes;
    }

    /** Without notes: no bound, nothing measured above it. */
    public SoarRating(
            double actionsPerSecond, int threads, RatingStatus status, Experiment search, Experiment confirmation) {
        this(actionsPerSecond, threads, status, search, confirmation, RatingNotes.NONE);
    }

    /** Whether the SoAR is only a lower bound ("≥"), see {@link RatingNotes#lowerBound()}. */
    public boolean lowerBound() {
        return notes.isLowerBound();
    }

    SoarRating withNotes(RatingNotes n) {
        return new SoarRating(actionsPerSecond, threads, status, search, confirmation, n);
    }

    /** JSON-friendly form: {@code actions_per_second}, {@code threads}, {@code status}, … */
    public Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("actions_per_second", actionsPerSecond);
        m.put("threads", threads);
        m.put("status", status.label());
        m.put("search_experiment", search == null ? null : search.index());
        m.put("search_throughput", search == null ? null : search.throughput());
        m.put("confirmation_experiment", confirmation == null ? null : confirmation.index());
        m.put("confirmation_throughput", confirmation == null ? null : confirmation.throughput());
        notes.putInto(m);
        return m;
    }
}
