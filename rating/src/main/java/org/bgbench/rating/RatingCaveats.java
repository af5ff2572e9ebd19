package org.bgbench.rating;

import java.util.List;
import java.util.Locale;
import org.bgbench.model.Durations;

/**
 * Adds to a rating what its value alone would hide: that it is only a lower bound (a limit of the search reached with
 * the SLA still met, or the rating stopped early), and why it is below an experiment that met the SLA with a higher
 * throughput, when one did.
 */
final class RatingCaveats {
    /** Throughputs this close count as equal: the SoAR is a measured figure, not a sum. */
    private static final double SAME = 1e-9;

    private RatingCaveats() {}

    /**
     * The SoAR with its caveats.
     *
     * @param climbReachedMax whether the hill climbing reached max-threads with the SLA met and throughput not falling
     */
    static SoarRating soar(
            SoarRating s, boolean climbReachedMax, List<Experiment> experiments, RatingSettings settings) {
        RatingNotes notes = s.notes();
        if (s.status() == RatingStatus.INCOMPLETE && s.actionsPerSecond() > 0) {
            notes = notes.withLowerBound("the rating stopped before its search finished: this is the best seen so far");
        } else if (climbReachedMax && s.threads() == settings.maxThreads() && s.status() != RatingStatus.ZERO) {
            notes = notes.withLowerBound(settings.words("the hill climbing reached max-threads=" + settings.maxThreads()
                    + " with the SLA still met and throughput not falling; raise max-threads"));
        }
        if (s.status() != RatingStatus.ZERO) {
            Experiment above = highestAbove(s.actionsPerSecond(), experiments);
            if (above != null) {
                notes = notes.withBelowMeasured(settings.words(whyBelow(s, above, settings)));
            }
        }
        return s.withNotes(notes);
    }

    /** The Socialites rating (or the open model's) with its caveats. */
    static SocialitesRating socialites(SocialitesRating s, RatingSettings settings) {
        RatingNotes notes = s.notes();
        if (s.status() == RatingStatus.INCOMPLETE && s.threads() > 0) {
            notes = notes.withLowerBound("the rating stopped before its search finished: this is the best seen so far");
        } else if (s.threads() > 0 && s.threads() >= settings.maxThreads()) {
            notes = notes.withLowerBound(settings.words("T=max-threads=" + settings.maxThreads()
                    + ", the most the search tries, still met the SLA; raise max-threads"));
        }
        return s.withNotes(notes);
    }

    /** The experiment with the highest throughput above {@code value} that met the SLA, or null. */
    private static Experiment highestAbove(double value, List<Experiment> experiments) {
        Experiment best = null;
        for (Experiment e : experiments) {
            if (e.success()
                    && e.throughput() > value * (1 + SAME)
                    && (best == null || e.throughput() > best.throughput())) {
                best = e;
            }
        }
        return best;
    }

    private static String whyBelow(SoarRating s, Experiment above, RatingSettings settings) {
        Sla sla = settings.sla();
        String measured = String.format(
                Locale.ROOT,
                "experiment %d (T=%d, %s, %s) met the SLA with %,.0f actions/s, more than the SoAR",
                above.index(),
                above.threads(),
                Durations.format(above.duration()),
                above.phase().label(),
                above.throughput());
        boolean confirmationRun =
                above.phase() == Phase.CONFIRMATION && above.duration().equals(sla.duration());
        if (confirmationRun && above.threads() == s.threads()) {
            return measured + ": it was a confirmation attempt more than the " + tolerance(settings)
                    + " tolerated away from the δ run; "
                    + (s.status() == RatingStatus.CONFIRMED
                            ? "the SoAR is the figure of the repeat that agreed with the δ run."
                            : "no attempt agreed, so the SoAR is the δ run's figure and not confirmed.");
        }
        if (confirmationRun) {
            return measured + ": it was the confirmation of another rating at another T; the SoAR's search, with runs "
                    + "of δ=" + Durations.format(settings.experimentDuration()) + ", peaked at T=" + s.threads()
                    + ". Throughput varies from run to run by more than the difference: rate with a longer δ.";
        }
        if (s.status() == RatingStatus.CONFIRMED && s.confirmation() != null && s.confirmation() != s.search()) {
            return measured + ": it was a run of δ=" + Durations.format(above.duration())
                    + " of the search, and the SoAR is the figure of the confirmation run of Δ="
                    + Durations.format(sla.duration()) + " at T=" + s.threads() + ", which agreed with its own δ run "
                    + "within the " + tolerance(settings) + " tolerated.";
        }
        return measured + ": the SoAR is the figure of T=" + s.threads() + " ("
                + s.status().label() + ").";
    }

    private static String tolerance(RatingSettings settings) {
        return Figures.of(settings.confirmationTolerancePct()) + " %";
    }
}
