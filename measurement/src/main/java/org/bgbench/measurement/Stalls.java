package org.bgbench.measurement;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * When the store stopped answering during a run: the result's words for it and the {@code config} keys that carry it.
 * A run is incomplete when an action was stuck (still waiting on the store when the measured period ended, for longer
 * than max(β, 1 s)), when a second of the series stalled (nothing returned while a call waited throughout), when the
 * store refused a second (it failed every call in it: nothing completed, and every call that returned failed), or
 * when threads were still inside the store after the time they were given to leave it; such a run does not meet the
 * SLA.
 */
public final class Stalls {
    /** {@code config} key: the stalled seconds of the series, in order. */
    public static final String STALLED_SECONDS = "stalled_seconds";
    /** {@code config} key: the seconds of the series in which the store failed every call, in order. */
    public static final String REFUSED_SECONDS = "refused_seconds";
    /** {@code config} key: why the run is incomplete, in words; null when it is complete. */
    public static final String INCOMPLETE_REASON = "incomplete_reason";
    /** The last sentence of every {@link #reason}. */
    public static final String VERDICT = "The run does not meet the SLA.";

    /** The longest failure message a reason quotes. */
    private static final int CAUSE_CHARS = 240;

    private Stalls() {}

    /**
     * A second of the series in which the store failed every call.
     *
     * @param second the {@link SeriesPoint#second()}
     * @param cause  the last failure's message by then, or null when unknown
     */
    public record Refusal(int second, String cause) {}

    /**
     * Whether the run's writes may have reached the store other than BG's state says, so BG cannot vouch for the
     * store afterwards: actions were stuck when it ended, threads were abandoned inside the store, or the store failed
     * every call for a second (it died or lost its connections: a write in flight then, or acknowledged just before
     * a crash, may or may not be there).
     */
    public static boolean writesUncertain(RunResult r) {
        return r.total().stuck() > 0
                || r.config().get("stuck_threads") instanceof Number n && n.intValue() > 0
                || r.config().get(REFUSED_SECONDS) instanceof List<?> refused && !refused.isEmpty();
    }

    /** The seconds of {@code refusals}, in order. */
    public static List<Integer> seconds(List<Refusal> refusals) {
        return refusals.stream().map(Refusal::second).toList();
    }

    /** {@link #reason(long, long, List, List, int, double)} without refused seconds. */
    public static String reason(
            long stuckActions, long longestNanos, List<Integer> stalledSeconds, int abandoned, double graceSeconds) {
        return reason(stuckActions, longestNanos, stalledSeconds, List.of(), abandoned, graceSeconds);
    }

    /**
     * The sentence a result carries when the store stopped answering, or null when nothing was stuck or stalled, e.g.
     * "The store stopped answering: 16 actions were still waiting when the run ended, the longest for 12.3 s; seconds
     * 5–19 completed nothing. The run does not meet the SLA."
     *
     * @param stuckActions   actions still waiting when the measured period ended (beyond max(β, 1 s))
     * @param longestNanos   the longest of their waits
     * @param stalledSeconds the stalled seconds of the series
     * @param refusals       the seconds in which the store failed every call, e.g. "the store refused every call
     *                       from second 5 to 13: connection refused"
     * @param abandoned      threads still inside the store after the grace they were given
     * @param graceSeconds   that grace
     */
    public static String reason(
            long stuckActions,
            long longestNanos,
            List<Integer> stalledSeconds,
            List<Refusal> refusals,
            int abandoned,
            double graceSeconds) {
        if (stuckActions == 0 && stalledSeconds.isEmpty() && refusals.isEmpty() && abandoned == 0) {
            return null;
        }
        List<String> parts = new ArrayList<>();
        if (stuckActions > 0) {
            parts.add(String.format(
                    Locale.ROOT,
                    "%,d %s still waiting %swhen the run ended, the longest for %.1f s",
                    stuckActions,
                    stuckActions == 1 ? "action was" : "actions were",
                    stalledSeconds.isEmpty() ? "on the store " : "",
                    longestNanos / 1e9));
        }
        if (!stalledSeconds.isEmpty()) {
            parts.add((stalledSeconds.size() == 1 ? "second " : "seconds ") + ranges(stalledSeconds)
                    + " completed nothing" + (stuckActions > 0 ? "" : " while actions waited on the store"));
        }
        if (!refusals.isEmpty()) {
            parts.add(refused(refusals));
        }
        if (abandoned > 0) {
            parts.add(String.format(
                    Locale.ROOT,
                    "%,d %s still inside the store %.0f s after the run ended and " + "%s abandoned",
                    abandoned,
                    abandoned == 1 ? "thread was" : "threads were",
                    graceSeconds,
                    abandoned == 1 ? "was" : "were"));
        }
        String said = String.join("; ", parts);
        String head = stalledSeconds.isEmpty() ? capitalized(said) : "The store stopped answering: " + said;
        return head + ". " + VERDICT;
    }

    /**
     * The refused seconds in words, grouped by the failure's message: "the store refused every call from second 5 to
     * 13: connection refused", "… in seconds 2–3, 7: …".
     */
    static String refused(List<Refusal> refusals) {
        Map<String, List<Integer>> byCause = new LinkedHashMap<>();
        for (Refusal r : refusals) {
            byCause.computeIfAbsent(cause(r.cause()), k -> new ArrayList<>()).add(r.second());
        }
        List<String> said = new ArrayList<>();
        byCause.forEach((cause, seconds) -> said.add(when(seconds) + ": " + cause));
        return "the store refused every call " + String.join("; and ", said);
    }

    /** "from second 5 to 13", "in second 5", "in seconds 2–3, 7". */
    private static String when(List<Integer> seconds) {
        int first = seconds.get(0);
        int last = seconds.get(seconds.size() - 1);
        if (seconds.size() == 1) {
            return "in second " + first;
        }
        return last - first == seconds.size() - 1
                ? "from second " + first + " to " + last
                : "in seconds " + ranges(seconds);
    }

    /** A failure's message fit for a sentence: one line, not too long, without its final full stop. */
    private static String cause(String message) {
        if (message == null || message.isBlank()) {
            return "no message";
        }
        String line = message.strip().replaceAll("\\s+", " ");
        if (line.length() > CAUSE_CHARS) {
            line = line.substring(0, CAUSE_CHARS - 1) + "…";
        }
        return line.endsWith(".") ? line.substring(0, line.length() - 1) : line;
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
