package org.bgbench.rating;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.bgbench.model.Durations;

/**
 * The lines that state a rating's verdict in a terminal: each value with "≥" when it is only a lower bound, its status
 * with both figures when the confirmation disagreed, the line saying why it is below an SLA-meeting throughput BG
 * measured, and a noisy host named on the first line rather than in a footnote.
 */
public final class RatingHeadline {
    private RatingHeadline() {}

    /**
     * The verdict's lines, each ending with a line separator.
     *
     * @param result    the rating
     * @param axis      what the search varied (T, or the open model's arrival rate)
     * @param noisyHost what made the host noisy during the rating, or null when nothing did
     */
    public static String lines(RatingResult result, RatingReport.Axis axis, String noisyHost) {
        List<String> lines = new ArrayList<>();
        result.soar().ifPresent(s -> {
            lines.add(String.format(
                    Locale.ROOT,
                    "SoAR     %s %,.0f actions/s at T=%d (%s)",
                    s.lowerBound() ? "≥" : " ",
                    s.actionsPerSecond(),
                    s.threads(),
                    status(s.status(), s.search(), s.notes(), result.sla())));
            if (s.notes().belowMeasured() != null) {
                lines.add("  Why below a measured figure: " + s.notes().belowMeasured());
            }
        });
        result.socialites().ifPresent(s -> {
            String status = status(s.status(), s.search(), s.notes(), result.sla());
            lines.add(
                    axis == RatingReport.Axis.THREADS || RatingReport.Axis.THREADS.equals(axis)
                            ? String.format(
                                    Locale.ROOT,
                                    "Socialites %s%d (%,.0f actions/s, %s)",
                                    s.lowerBound() ? "≥ " : "",
                                    s.threads(),
                                    s.throughput(),
                                    status)
                            : String.format(
                                    Locale.ROOT,
                                    "Open-model rating %s%s arrivals/s (%,.0f actions/s, %s)",
                                    s.lowerBound() ? "≥ " : "",
                                    axis.value(s.threads()),
                                    s.throughput(),
                                    status));
        });
        if (noisyHost != null && !lines.isEmpty()) {
            lines.set(0, lines.getFirst() + " on a noisy host: " + noisyHost);
        }
        StringBuilder sb = new StringBuilder();
        lines.forEach(l -> sb.append(l).append(System.lineSeparator()));
        return sb.toString();
    }

    /** {@code CONFIRMED}, with the bound's reason, or {@code UNSTABLE} with the δ and Δ figures. */
    private static String status(RatingStatus status, Experiment search, RatingNotes notes, Sla sla) {
        StringBuilder s = new StringBuilder(status.name());
        if (status == RatingStatus.UNSTABLE && search != null) {
            List<String> figures = new ArrayList<>();
            notes.confirmations().forEach(c -> figures.add(String.format(Locale.ROOT, "%,.0f", c.throughput())));
            s.append(String.format(
                    Locale.ROOT,
                    ": not confirmed; the δ=%s run measured %,.0f actions/s, %s of Δ=%s %s",
                    Durations.format(search.duration()),
                    search.throughput(),
                    figures.size() == 1 ? "the confirmation run" : "the " + figures.size() + " confirmation runs",
                    Durations.format(sla.duration()),
                    String.join(", ", figures)));
        }
        if (notes.isLowerBound()) {
            s.append("; a lower bound: ").append(notes.lowerBound());
        }
        return s.toString();
    }
}
