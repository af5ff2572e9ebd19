package org.bgbench.scaling.elasticity;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The elasticity paper's stability test (its section 2): the delta time of a point is |mean_k − mean_{k−1}|; a stable
 * cluster's variability is the median of its delta times (the median, not the mean, "to be less sensitive to the
 * magnitude of the fluctuations"); a cluster is stable again when the last X points' delta times are all within it.
 * The paper says "less than"; BG accepts equal, so a perfectly flat baseline (median 0) can be matched.
 */
public final class DeltaStability {
    /** The paper's X. */
    public static final int DEFAULT_WINDOW = 5;
    /** A baseline whose halves' means differ by less than this share of its mean is not called drifting. */
    public static final double DRIFT_FRACTION = 0.03;

    private DeltaStability() {}

    /** The median delta time of consecutive points (at least two). */
    public static double medianDelta(List<SetPoint> stable) {
        if (stable.size() < 2) {
            throw new IllegalArgumentException("the median delta time needs at least two points, got " + stable.size());
        }
        double[] d = new double[stable.size() - 1];
        for (int i = 1; i < stable.size(); i++) {
            d[i - 1] = Math.abs(stable.get(i).mean() - stable.get(i - 1).mean());
        }
        Arrays.sort(d);
        int m = d.length / 2;
        return d.length % 2 == 1 ? d[m] : (d[m - 1] + d[m]) / 2;
    }

    /**
     * Whether the timeline ends stable: its last {@code window} points all started at or after {@code from} (seconds;
     * e.g. when the added node had joined) and each one's delta time to its predecessor is at most {@code median}.
     */
    public static boolean endsStable(List<SetPoint> timeline, double from, double median, int window) {
        int n = timeline.size();
        if (n < window + 1) {
            return false;
        }
        for (int k = n - window; k < n; k++) {
            SetPoint p = timeline.get(k);
            if (p.start() < from || Math.abs(p.mean() - timeline.get(k - 1).mean()) > median) {
                return false;
            }
        }
        return true;
    }

    /**
     * A warning when the baseline drifts instead of varying around one level (set times still falling as caches and
     * compiled code warm up, or rising as data piles up): its second half's mean differs from its first half's by more
     * than twice the median delta time and by more than {@link #DRIFT_FRACTION} of the baseline's mean. The second
     * bound is there because a very steady store has a tiny median delta, and a 0.5 % move of its level would be
     * flagged although it changes Av1 and the score by no more than that; a drifting baseline beyond both makes Av1 and
     * the median wrong, so the score would be too.
     */
    public static Optional<String> drift(List<SetPoint> baseline, double median) {
        int n = baseline.size();
        if (n < 4) {
            return Optional.empty();
        }
        double first = baseline.subList(0, n / 2).stream()
                .mapToDouble(SetPoint::mean)
                .average()
                .orElse(0);
        double second = baseline.subList(n - n / 2, n).stream()
                .mapToDouble(SetPoint::mean)
                .average()
                .orElse(0);
        double mean = baseline.stream().mapToDouble(SetPoint::mean).average().orElse(0);
        double diff = Math.abs(second - first);
        if (diff <= 2 * median || diff <= DRIFT_FRACTION * mean) {
            return Optional.empty();
        }
        return Optional.of(String.format(
                Locale.ROOT,
                "the baseline was not stable: its mean set "
                        + "time went from %.4f s (first half) to %.4f s (second half), more than twice its median delta time "
                        + "(%.4f s) and more than 3 %% of its mean; warm the store up longer (--warmup-sets) or measure a longer baseline (--baseline), or "
                        + "Av1, the median and the score describe a moving target",
                first,
                second,
                median));
    }
}
