package org.bgbench.scaling.elasticity;

import org.bgbench.model.InvalidParameterException;

/**
 * The parameters of an elasticity test (elasticity paper section 2.2): R requests per set, each point the mean of
 * {@code repeats} sets, T threads (as many as nodes, or a multiple), sets run first and not recorded, the baseline's
 * points before the add, the stable points measured after the stable moment, the paper's X, the margin (a factor on the baseline's median delta time
 * within which a delta counts as stable: 1 is the paper's rule), and a bound on the points waited for stability.
 */
public record ElasticityPlan(Sets sets, Stability stability, Curves.Interpolation interpolation) {

    /**
     * The request sets.
     *
     * @param requests   R, requests per set
     * @param repeats    sets whose mean is one point
     * @param threads    T
     * @param warmupSets sets run first and not recorded
     */
    public record Sets(int requests, int repeats, int threads, int warmupSets) {}

    /**
     * How stability is judged.
     *
     * @param baseline  the baseline's points before the add
     * @param after     the stable points measured after the stable moment
     * @param window    the paper's X
     * @param margin    a factor on the baseline's median delta time within which a delta counts as stable
     * @param maxPoints a bound on the points waited for stability
     */
    public record Stability(int baseline, int after, int window, double margin, int maxPoints) {}

    public ElasticityPlan {
        int requests = sets.requests();
        int repeats = sets.repeats();
        int threads = sets.threads();
        int warmupSets = sets.warmupSets();
        int baseline = stability.baseline();
        int after = stability.after();
        int window = stability.window();
        double margin = stability.margin();
        int maxPoints = stability.maxPoints();
        if (!(margin > 0) || Double.isInfinite(margin)) {
            throw new InvalidParameterException("--margin", "expected a number > 0 (1 is the paper's), got " + margin);
        }
        positive("--request-set", requests, 1);
        positive("--repeats", repeats, 1);
        positive("--threads", threads, 1);
        positive("--window", window, 1);
        positive("--warmup-sets", warmupSets, 0);
        // The median delta of the baseline needs at least two deltas to mean anything.
        positive("--baseline", baseline, 3);
        positive("--after", after, 1);
        positive("--max-points", maxPoints, window);
    }

    private static void positive(String option, int value, int min) {
        if (value < min) {
            throw new InvalidParameterException(option, "expected a whole number ≥ " + min + ", got " + value);
        }
    }

    public int requests() {
        return sets.requests();
    }

    public int repeats() {
        return sets.repeats();
    }

    public int threads() {
        return sets.threads();
    }

    public int warmupSets() {
        return sets.warmupSets();
    }

    public int baseline() {
        return stability.baseline();
    }

    public int after() {
        return stability.after();
    }

    public int window() {
        return stability.window();
    }

    public double margin() {
        return stability.margin();
    }

    public int maxPoints() {
        return stability.maxPoints();
    }
}
