package org.bgbench.rating;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What a reader of a rating's value must know besides the value: every confirmation run at its T, whether the value is
 * only a lower bound and why, and why it is below an SLA-meeting throughput BG measured, when it is.
 *
 * @param confirmations    the runs of length Δ at the rating's T, repeats included, in the order they ran
 * @param lowerBound       why the value is a lower bound (a limit of the search reached with the SLA still met), or
 *                         null when it is not one
 * @param belowMeasured    why the value is below the throughput of an experiment that met the SLA, or null when it
 *                         is not below any
 */
public record RatingNotes(List<Experiment> confirmations, String lowerBound, String belowMeasured) {
    /** No confirmation, no bound, nothing measured above the value. */
    public static final RatingNotes NONE = new RatingNotes(List.of(), null, null);

    public RatingNotes {
        confirmations = List.copyOf(confirmations);
    }

    /** Whether the value is only a lower bound ("≥"). */
    public boolean isLowerBound() {
        return lowerBound != null;
    }

    RatingNotes withLowerBound(String reason) {
        return new RatingNotes(confirmations, reason, belowMeasured);
    }

    RatingNotes withBelowMeasured(String reason) {
        return new RatingNotes(confirmations, lowerBound, reason);
    }

    /** Adds the JSON keys: {@code confirmation_experiments}, {@code confirmation_throughputs}, {@code lower_bound}, … */
    void putInto(Map<String, Object> m) {
        List<Object> indexes = new ArrayList<>();
        List<Object> throughputs = new ArrayList<>();
        for (Experiment e : confirmations) {
            indexes.add(e.index());
            throughputs.add(e.throughput());
        }
        m.put("confirmation_experiments", indexes);
        m.put("confirmation_throughputs", throughputs);
        m.put("lower_bound", isLowerBound());
        m.put("lower_bound_reason", lowerBound);
        m.put("below_measured", belowMeasured);
    }
}
