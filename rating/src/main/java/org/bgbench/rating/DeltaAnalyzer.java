package org.bgbench.rating;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import org.bgbench.model.InvalidParameterException;

/**
 * Delta Analyzer (dissertation 7.3.1): the shortest experiment duration δ that gives the same throughput as a long run.
 *
 * <p>Works on the per-second series of one long run at a saturating T. For each candidate δ (shortest first) it cuts
 * the series, after skipping the first {@code skipSeconds}, into the first m consecutive non-overlapping windows of
 * length δ; δ is accepted when every window's throughput is within π % of the windows' mean (the "constant throughput
 * ± π % marginal error" of D 7.3.1) and, where per-second counts per action type are given, the mix issued in every
 * window matches the configured mix within {@code mixTolerance} (absolute difference of shares). When no candidate
 * qualifies, δ falls back to Δ with the reason. Pure: no I/O, no clock.
 */
public final class DeltaAnalyzer {
    /** Candidate δs in seconds tried by default, shortest first. */
    public static final List<Integer> DEFAULT_CANDIDATES =
            List.of(1, 2, 3, 5, 10, 15, 20, 30, 60, 120, 300, 600, 900, 1200, 1800, 3600);

    private DeltaAnalyzer() {}

    /**
     * @param piPct        π, tolerated deviation of a window's throughput from the windows' mean, % (> 0)
     * @param m            consecutive windows that must agree (≥ 2)
     * @param candidates   δs to try, seconds (≥ 1); tried in increasing order
     * @param skipSeconds  seconds at the start of the series left out (e.g. a warm-up still in the series)
     * @param mixTolerance tolerated absolute difference between an action's issued and configured share (0..1)
     */
    public record Settings(double piPct, int m, List<Integer> candidates, int skipSeconds, double mixTolerance) {
        public Settings {
            if (!(piPct > 0) || Double.isInfinite(piPct)) {
                throw new InvalidParameterException("--pi", "π must be a positive percentage, got " + piPct);
            }
            if (m < 2) {
                throw new InvalidParameterException("--m", "m must be at least 2 consecutive windows, got " + m);
            }
            if (skipSeconds < 0) {
                throw new InvalidParameterException(
                        "--skip", "cannot skip a negative number of seconds: " + skipSeconds);
            }
            if (!(mixTolerance >= 0) || mixTolerance > 1) {
                throw new InvalidParameterException(
                        "--mix-tolerance", "expected a share between 0 and 1, got " + mixTolerance);
            }
            candidates = candidates == null || candidates.isEmpty() ? DEFAULT_CANDIDATES : candidates;
            TreeSet<Integer> sorted = new TreeSet<>();
            for (Integer c : candidates) {
                if (c == null || c < 1) {
                    throw new InvalidParameterException("--deltas", "candidate δs must be at least 1 s, got " + c);
                }
                sorted.add(c);
            }
            candidates = List.copyOf(sorted);
        }

        /** π = 10 %, m = 3, the default candidates, no skip, mix tolerance 0.05. */
        public static Settings defaults() {
            return new Settings(10, 3, DEFAULT_CANDIDATES, 0, 0.05);
        }

        /** Seconds of series the smallest candidate needs: skip + m × δ_min. */
        public int minimumSeconds() {
            return skipSeconds + m * candidates.get(0);
        }

        /** Throws an {@link InvalidParameterException} naming {@code option} when a run this long cannot be analysed. */
        public void checkLength(String option, double seconds) {
            if (seconds < minimumSeconds()) {
                throw new InvalidParameterException(
                        option,
                        String.format(
                                Locale.ROOT,
                                "%.0f s is too short for %d windows of the smallest δ (%d s)%s; need at least %d s",
                                seconds,
                                m,
                                candidates.get(0),
                                skipSeconds > 0 ? " after skipping " + skipSeconds + " s" : "",
                                minimumSeconds()));
            }
        }
    }

    /** One candidate δ as tried. {@code mixDeviation} is null when no per-action counts were given. */
    public record Trial(
            int deltaS,
            List<Double> windowThroughputs,
            double variationPct,
            boolean throughputStable,
            Double mixDeviation,
            boolean mixOk) {
        public Map<String, Object> toMap() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("delta_s", deltaS);
            m.put("window_throughputs", windowThroughputs);
            m.put("variation_pct", variationPct);
            m.put("throughput_stable", throughputStable);
            m.put("mix_deviation", mixDeviation);
            m.put("mix_ok", mixOk);
            return m;
        }
    }

    /**
     * The analysis.
     *
     * @param deltaS            chosen δ, seconds (Δ when not converged)
     * @param converged         a candidate met the conditions
     * @param windowThroughputs the chosen δ's window throughputs (the last tried δ's when not converged)
     * @param reason            why this δ
     * @param trials            every candidate tried, shortest first
     */
    public record Result(
            double deltaS,
            boolean converged,
            List<Double> windowThroughputs,
            String reason,
            Settings settings,
            List<Trial> trials) {
        public Map<String, Object> toMap() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("delta_s", deltaS);
            m.put("converged", converged);
            m.put("window_throughputs", windowThroughputs);
            m.put("reason", reason);
            m.put("pi_pct", settings.piPct());
            m.put("m", settings.m());
            m.put("skip_s", settings.skipSeconds());
            m.put("mix_tolerance", settings.mixTolerance());
            m.put("trials", trials.stream().map(Trial::toMap).toList());
            return m;
        }
    }

    /** Analyses a series of actions completed per second without per-action counts. */
    public static Result analyze(double[] actionsPerSecond, Settings s, double fallbackDeltaS) {
        return analyze(actionsPerSecond, null, null, s, fallbackDeltaS);
    }

    /**
     * Analyses a per-second series.
     *
     * @param actionsPerSecond actions completed in each second of the run
     * @param countsPerSecond  actions completed per action type in each second (same length), or null
     * @param mix              configured share of each action type (keys as in {@code countsPerSecond}), or null
     * @param fallbackDeltaS   Δ, returned when no candidate qualifies
     */
    public static Result analyze(
            double[] actionsPerSecond,
            List<Map<String, Long>> countsPerSecond,
            Map<String, Double> mix,
            Settings s,
            double fallbackDeltaS) {
        if (countsPerSecond != null && countsPerSecond.size() != actionsPerSecond.length) {
            throw new IllegalArgumentException("per-action counts cover " + countsPerSecond.size()
                    + " s but the series " + actionsPerSecond.length + " s");
        }
        boolean checkMix = countsPerSecond != null && mix != null && !mix.isEmpty();
        int available = actionsPerSecond.length - s.skipSeconds();
        s.checkLength("--duration", actionsPerSecond.length);
        List<Trial> trials = new ArrayList<>();
        for (int delta : s.candidates()) {
            if ((long) delta * s.m() > available) {
                break;
            }
            List<Double> tp = new ArrayList<>();
            double worstMix = 0;
            for (int w = 0; w < s.m(); w++) {
                int from = s.skipSeconds() + w * delta;
                double sum = 0;
                for (int i = from; i < from + delta; i++) {
                    sum += actionsPerSecond[i];
                }
                tp.add(sum / delta);
                if (checkMix) {
                    worstMix = Math.max(worstMix, mixDeviation(countsPerSecond.subList(from, from + delta), mix));
                }
            }
            double variation = variationPct(tp);
            boolean stable = variation <= s.piPct();
            boolean mixOk = !checkMix || worstMix <= s.mixTolerance();
            trials.add(new Trial(delta, List.copyOf(tp), variation, stable, checkMix ? worstMix : null, mixOk));
            if (stable && mixOk) {
                return new Result(
                        delta,
                        true,
                        List.copyOf(tp),
                        String.format(
                                Locale.ROOT,
                                "%d consecutive windows of %d s have throughputs within ±%.1f %% of their mean (π = %s %%)%s",
                                s.m(),
                                delta,
                                variation,
                                num(s.piPct()),
                                checkMix
                                        ? String.format(
                                                Locale.ROOT,
                                                " and issue the configured mix within %.3f (tolerance %s)",
                                                worstMix,
                                                num(s.mixTolerance()))
                                        : ""),
                        s,
                        List.copyOf(trials));
            }
        }
        return new Result(
                fallbackDeltaS,
                false,
                trials.get(trials.size() - 1).windowThroughputs(),
                fallbackReason(trials, s, fallbackDeltaS),
                s,
                List.copyOf(trials));
    }

    private static String fallbackReason(List<Trial> trials, Settings s, double fallbackDeltaS) {
        int largest = trials.get(trials.size() - 1).deltaS();
        Trial best = trials.stream()
                .min((a, b) -> Double.compare(a.variationPct(), b.variationPct()))
                .orElseThrow();
        List<Trial> stableButMix =
                trials.stream().filter(t -> t.throughputStable() && !t.mixOk()).toList();
        String why;
        if (stableButMix.isEmpty()) {
            why = String.format(
                    Locale.ROOT,
                    "throughput varies by %s %% or more between %d consecutive windows at "
                            + "every δ ≤ %d s (least: %.1f %% at δ = %d s; π = %s %%)",
                    variationText(best.variationPct()),
                    s.m(),
                    largest,
                    best.variationPct(),
                    best.deltaS(),
                    num(s.piPct()));
        } else {
            Trial t = stableButMix.get(0);
            why = String.format(
                    Locale.ROOT,
                    "throughput is stable at δ = %d s but the issued mix differs from the "
                            + "configured one by %.3f (tolerance %s)%s",
                    t.deltaS(),
                    t.mixDeviation(),
                    num(s.mixTolerance()),
                    stableButMix.size() < trials.size()
                            ? String.format(
                                    Locale.ROOT,
                                    ", and throughput varies by more than π = %s %% at the other δs ≤ %d s",
                                    num(s.piPct()),
                                    largest)
                            : " at every δ tried");
        }
        return why + String.format(Locale.ROOT, "; using Δ = %s s", num(fallbackDeltaS));
    }

    private static String variationText(double pct) {
        return Double.isInfinite(pct) ? "∞" : String.format(Locale.ROOT, "%.0f", Math.floor(pct));
    }

    private static String num(double d) {
        return Figures.of(d);
    }

    /** Largest deviation of a window's throughput from the windows' mean, % of the mean (∞ when the mean is 0). */
    static double variationPct(List<Double> throughputs) {
        double mean =
                throughputs.stream().mapToDouble(Double::doubleValue).average().orElse(0);
        double worst = 0;
        for (double t : throughputs) {
            worst = Math.max(worst, Math.abs(t - mean));
        }
        if (mean <= 0) {
            return Double.POSITIVE_INFINITY;
        }
        return 100 * worst / mean;
    }

    /** Largest absolute difference between an action type's issued and configured share over these seconds. */
    static double mixDeviation(List<Map<String, Long>> seconds, Map<String, Double> mix) {
        Map<String, Long> counts = new LinkedHashMap<>();
        long total = 0;
        for (Map<String, Long> sec : seconds) {
            for (Map.Entry<String, Long> e : sec.entrySet()) {
                long c = e.getValue() == null ? 0 : e.getValue();
                counts.merge(e.getKey(), c, Long::sum);
                total += c;
            }
        }
        if (total == 0) {
            return 1;
        }
        double configuredSum =
                mix.values().stream().mapToDouble(Double::doubleValue).sum();
        TreeSet<String> kinds = new TreeSet<>(mix.keySet());
        kinds.addAll(counts.keySet());
        double worst = 0;
        for (String k : kinds) {
            double want = configuredSum > 0 ? mix.getOrDefault(k, 0.0) / configuredSum : 0;
            double got = counts.getOrDefault(k, 0L) / (double) total;
            worst = Math.max(worst, Math.abs(got - want));
        }
        return worst;
    }
}
