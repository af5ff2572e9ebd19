package org.bgbench.rating;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * Checks measurements against the assumptions of the heuristic search [dissertation 7.1, figure 7.9; dissertation chapter 7]:
 *
 * <ol>
 *   <li>throughput is unimodal in T (a square root or a concave inverse parabola): it never falls and then rises
 *       again (figure 7.8 shows a store that does); below its peak it is concave (never above-linear growth);</li>
 *   <li>response time does not fall as T grows, so the percentage of actions within β does not rise;</li>
 *   <li>unpredictable reads do not fall as T grows — together with 2: once T misses the SLA, every larger T does.</li>
 * </ol>
 *
 * Experiments of one duration are compared; throughput differences within the throughput tolerance and within-β
 * differences within the within-β tolerance count as noise. The decline after the peak may be convex (a contention
 * penalty makes it 1/T-like): that does not hurt the search and is not reported.
 */
final class AssumptionChecks {
    private static final int LISTED = 4;

    private AssumptionChecks() {}

    static List<String> check(List<Experiment> sameDuration, RatingSettings settings) {
        List<Experiment> e = new ArrayList<>(sameDuration);
        e.sort(Comparator.comparingInt(Experiment::threads));
        List<String> w = new ArrayList<>();
        if (e.size() < 2) {
            return w;
        }
        double tol = settings.throughputTolerancePct() / 100;
        int n = e.size();

        // 1a. Unimodal: no point clearly below the best on its left and the best on its right.
        int[] leftBest = new int[n];
        int[] rightBest = new int[n];
        leftBest[0] = -1;
        for (int i = 1; i < n; i++) {
            int p = leftBest[i - 1];
            leftBest[i] = p < 0 || x(e, i - 1) > x(e, p) ? i - 1 : p;
        }
        rightBest[n - 1] = -1;
        for (int i = n - 2; i >= 0; i--) {
            int p = rightBest[i + 1];
            rightBest[i] = p < 0 || x(e, i + 1) > x(e, p) ? i + 1 : p;
        }
        List<String> dips = new ArrayList<>();
        boolean[] dip = new boolean[n];
        for (int i = 1; i < n - 1; i++) {
            double lim = Math.min(x(e, leftBest[i]), x(e, rightBest[i]));
            if (x(e, i) < lim * (1 - tol)) {
                dip[i] = true;
                dips.add(String.format(
                        Locale.ROOT,
                        "%s at T=%d between %s at T=%d and %s at T=%d",
                        Figures.of(x(e, i)),
                        e.get(i).threads(),
                        Figures.of(x(e, leftBest[i])),
                        e.get(leftBest[i]).threads(),
                        Figures.of(x(e, rightBest[i])),
                        e.get(rightBest[i]).threads()));
            }
        }
        if (!dips.isEmpty()) {
            w.add("Throughput is not unimodal in T: it falls and rises again: " + list(dips) + " (actions/s). The hill "
                    + "climbing may have stopped at a local peak, so the SoAR may be higher than reported; rate with "
                    + "a longer δ, or on a quieter host, to see whether the dip stays (dissertation 7.1, assumption 1; "
                    + "figure 7.8).");
        }

        // 1b. Concave below the peak: no point clearly below the chord of its neighbours.
        int peak = 0;
        for (int i = 1; i < n; i++) {
            if (x(e, i) > x(e, peak)) {
                peak = i;
            }
        }
        List<String> convex = new ArrayList<>();
        for (int i = 1; i < peak; i++) {
            if (dip[i]) {
                continue;
            }
            Experiment a = e.get(i - 1);
            Experiment b = e.get(i);
            Experiment c = e.get(i + 1);
            double chord = a.throughput()
                    + (c.throughput() - a.throughput())
                            * (b.threads() - a.threads())
                            / (double) (c.threads() - a.threads());
            if (b.throughput() < chord * (1 - tol)) {
                convex.add(String.format(
                        Locale.ROOT,
                        "%s at T=%d against %s on the line from T=%d to T=%d",
                        Figures.of(b.throughput()),
                        b.threads(),
                        Figures.of(chord),
                        a.threads(),
                        c.threads()));
            }
        }
        if (!convex.isEmpty()) {
            w.add("Throughput is not concave in T below its peak: it grows faster than linearly: " + list(convex)
                    + " (actions/s). The search still finds the peak if throughput is unimodal; a warm-up or δ too "
                    + "short for caches to warm is a common cause, so rate with a longer --warmup or --delta "
                    + "(dissertation 7.1, assumption 1).");
        }

        // 2. Within-β % does not rise with T.
        int violations = 0;
        int worstLow = -1;
        int worstHigh = -1;
        double worstRise = 0;
        int minLeft = 0;
        for (int i = 1; i < n; i++) {
            double rise = wb(e, i) - wb(e, minLeft);
            if (rise > settings.withinBetaTolerancePct()) {
                violations++;
                if (rise > worstRise) {
                    worstRise = rise;
                    worstLow = minLeft;
                    worstHigh = i;
                }
            }
            if (wb(e, i) < wb(e, minLeft)) {
                minLeft = i;
            }
        }
        if (violations > 0) {
            w.add(String.format(
                    Locale.ROOT,
                    "The percentage of actions within β rises with T, although response time should not fall as T "
                            + "grows: %s%% at T=%d but %s%% at T=%d%s. The SLA's outcome at each T is noisy there; "
                            + "rate with a longer δ or on a quieter host (dissertation 7.1, assumption 2).",
                    Figures.of(wb(e, worstLow)),
                    e.get(worstLow).threads(),
                    Figures.of(wb(e, worstHigh)),
                    e.get(worstHigh).threads(),
                    violations > 1 ? " (" + Figures.of(violations) + " points rise above a smaller T's value)" : ""));
        }

        // 3. The SLA's outcome is monotone: a failure at T means failures at every larger T.
        Experiment firstFailure = null;
        for (Experiment x : e) {
            if (!x.success()) {
                firstFailure = x;
                break;
            }
        }
        if (firstFailure != null) {
            Experiment lastSuccess = null;
            for (Experiment x : e) {
                if (x.success() && x.threads() > firstFailure.threads()) {
                    lastSuccess = x;
                }
            }
            if (lastSuccess != null) {
                w.add(String.format(
                        Locale.ROOT,
                        "T=%d missed the SLA (%s) but the larger T=%d met it, so the binary searches may have "
                                + "ended at the wrong T and Socialites and SoAR may be wrong; rate again with a longer "
                                + "δ or on a quieter host (dissertation 7.1, assumptions 2 and 3).",
                        firstFailure.threads(),
                        String.join("; ", firstFailure.failures()),
                        lastSuccess.threads()));
            }
        }
        return w;
    }

    private static double x(List<Experiment> e, int i) {
        return e.get(i).throughput();
    }

    private static double wb(List<Experiment> e, int i) {
        return e.get(i).measurement().withinBetaPct();
    }

    private static String list(List<String> items) {
        if (items.size() <= LISTED) {
            return String.join("; ", items);
        }
        return String.join("; ", items.subList(0, LISTED)) + "; and " + Figures.of(items.size() - LISTED) + " more";
    }
}
