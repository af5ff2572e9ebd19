package org.bgbench.measurement;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * When the store stopped answering during a run: the result's words for it and the {@code config} keys that carry it.
 * A run is incomplete when an action was stuck (still waiting on the store when the measured period ended, for longer
 * than max(β, 1 s)), when a second of the series stalled (nothing returned while a call waited throughout), or when
 * threads were still inside the store after the time they were given to leave it; such a run does not meet the SLA.
 */
public final class Stalls {
    /** {@code config} key: the stalled seconds of the series, in order. */
    public static final String STALLED_SECONDS = "stalled_seconds";
    /** {@code config} key: why the run is incomplete, in words; null when it is complete. */
    public static final String INCOMPLETE_REASON = "incomplete_reason";
    /** The last sentence of every {@link #reason}. */
    public static final String VERDICT = "The run does not meet the SLA.";

    private Stalls() {
    }

    /**
     * The sentence a result carries when the store stopped answering, or null when nothing was stuck or stalled, e.g.
     * "The store stopped answering: 16 actions were still waiting when the run ended, the longest for 12.3 s; seconds
     * 5–19 completed nothing. The run does not meet the SLA."
     *
     * @param stuckActions   actions still waiting when the measured period ended (beyond max(β, 1 s))
     * @param longestNanos   the longest of their waits
     * @param stalledSeconds the stalled seconds of the series
     * @param abandoned      threads still inside the store after the grace they were given
     * @param graceSeconds   that grace
     */
    public static String reason(long stuckActions, long longestNanos, List<Integer> stalledSeconds, int abandoned,
                                double graceSeconds) {
        if (stuckActions == 0 && stalledSeconds.isEmpty() && abandoned == 0) {
            return null;
        }
        List<String> parts = new ArrayList<>();
        if (stuckActions > 0) {
            parts.add(String.format(Locale.ROOT, "%,d %s still waiting %swhen the run ended, the longest for %.1f s",
                    stuckActions, stuckActions == 1 ? "action was" : "actions were",
                    stalledSeconds.isEmpty() ? "on the store " : "", longestNanos / 1e9));
        }
        if (!stalledSeconds.isEmpty()) {
            parts.add((stalledSeconds.size() == 1 ? "second " : "seconds ") + ranges(stalledSeconds)
                    + " completed nothing" + (stuckActions > 0 ? "" : " while actions waited on the store"));
        }
        if (abandoned > 0) {
            parts.add(String.format(Locale.ROOT, "%,d %s still inside the store %.0f s after the run ended and "
                    + "%s abandoned", abandoned, abandoned == 1 ? "thread was" : "threads were", graceSeconds,
                    abandoned == 1 ? "was" : "were"));
        }
        String said = String.join("; ", parts);
        String head = stalledSeconds.isEmpty() ? capitalized(said) : "The store stopped answering: " + said;
        return head + ". " + VERDICT;
    }

    /** Seconds as ranges, e.g. {@code 2–6, 9, 11–12}. */
    public static String ranges(List<Integer> seconds) {
        StringBuilder sb = new StringBuilder();
        int i = 0;
        while (i < seconds.size()) {
            int from = seconds.get(i);
            int to = from;
            while (i + 1 < seconds.size() && seconds.get(i + 1) == to + 1) {
                to = seconds.get(++i);
            }
            if (!sb.isEmpty()) {
                sb.append(", ");
            }
            sb.append(from);
            if (to > from) {
                sb.append('–').append(to);
            }
            i++;
        }
        return sb.toString();
    }

    private static String capitalized(String s) {
        return s.isEmpty() ? s : Character.toUpperCase(s.charAt(0)) + s.substring(1);
    }
}
