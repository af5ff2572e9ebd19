package org.bgbench.rating;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;
import org.bgbench.model.Durations;

/**
 * The runs of length Δ at a rating's T (dissertation 7.1, last paragraphs), and whether the last one agreed with the
 * δ run within the confirmation tolerance. A run that meets the SLA but disagrees is repeated, at most
 * {@link #REPEATS} times, so that one noisy run neither confirms nor sinks the rating.
 *
 * @param runs   every confirmation run, in the order they ran (the δ run itself when δ = Δ)
 * @param agrees whether the last run's throughput is within the tolerance of the δ run's
 */
record Confirmation(List<Experiment> runs, boolean agrees) {
    /** Repeats of a confirmation run that disagrees with its δ run, after the first. */
    static final int REPEATS = 2;

    Confirmation {
        runs = List.copyOf(runs);
    }

    /** Runs the confirmation at the search's T: from the cache unless {@code again}, which runs it once more. */
    @FunctionalInterface
    interface Runs {
        Experiment run(boolean again);
    }

    Experiment last() {
        return runs.getLast();
    }

    /**
     * Runs the confirmation of length Δ at the search's T. One that meets the SLA but whose throughput is more than the
     * tolerance away from the δ run's is repeated up to {@link #REPEATS} times; the last run decides.
     */
    static Confirmation run(
            String rating, Experiment search, Runs measure, RatingSettings settings, Consumer<String> warn) {
        Sla sla = settings.sla();
        List<Experiment> runs = new ArrayList<>();
        Experiment c = measure.run(false);
        runs.add(c);
        if (c == search) {
            return new Confirmation(runs, true);
        }
        while (c.success() && disagrees(c, search, settings) && runs.size() <= REPEATS) {
            c = measure.run(true);
            runs.add(c);
        }
        if (!c.success()) {
            warn.accept(String.format(
                    Locale.ROOT,
                    "%s: the confirmation run of Δ=%s at T=%d missed the SLA (%s), although "
                            + "the run of δ=%s met it: the rating does not hold for Δ; rate again with a longer δ "
                            + "(dissertation 7.1, 7.3).",
                    rating,
                    Durations.format(sla.duration()),
                    c.threads(),
                    String.join("; ", c.failures()),
                    Durations.format(search.duration())));
        }
        boolean agrees = !disagrees(c, search, settings);
        if (runs.size() > 1 || !agrees) {
            warn.accept(String.format(
                    Locale.ROOT,
                    "%s: at T=%d the run of δ=%s measured %,.0f actions/s, the confirmation %s of Δ=%s %s "
                            + "(more than the %s%% tolerated%s)%s",
                    rating,
                    c.threads(),
                    Durations.format(search.duration()),
                    search.throughput(),
                    runs.size() == 1 ? "run" : "runs",
                    Durations.format(sla.duration()),
                    figures(runs, search),
                    Figures.of(settings.confirmationTolerancePct()),
                    runs.size() == 1 ? "" : " in " + (agrees ? "all but the last" : "each"),
                    agrees
                            ? ": the last agreed and confirms the rating."
                            : c.success()
                                    ? ": the rating is unstable, not confirmed; δ is probably too short or the host "
                                            + "too busy: rate with a longer δ (bg delta finds one) or on a quieter "
                                            + "host (dissertation 7.3, Delta Analyzer)."
                                    : ": δ is probably too short: rate with a longer δ (bg delta finds one) "
                                            + "(dissertation 7.3, Delta Analyzer)."));
        }
        return new Confirmation(runs, agrees);
    }

    /** Whether a confirmation run's throughput is more than the tolerance away from its δ run's. */
    private static boolean disagrees(Experiment confirmation, Experiment search, RatingSettings settings) {
        double x = search.throughput();
        return x > 0 && Math.abs(confirmation.throughput() - x) / x * 100 > settings.confirmationTolerancePct();
    }

    /** Each run's throughput with its difference from the δ run: {@code 10,728 (-76.7%), 11,002 (-76.1%)}. */
    private static String figures(List<Experiment> runs, Experiment search) {
        List<String> parts = new ArrayList<>();
        double x = search.throughput();
        for (Experiment r : runs) {
            parts.add(
                    x > 0
                            ? String.format(
                                    Locale.ROOT, "%,.0f (%+.1f%%)", r.throughput(), (r.throughput() - x) / x * 100)
                            : String.format(Locale.ROOT, "%,.0f", r.throughput()));
        }
        return String.join(", ", parts);
    }
}
