package org.bgbench.rating;

import static org.assertj.core.api.Assertions.fail;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.IntToDoubleFunction;

/**
 * An instant, deterministic store with a known throughput-vs-T curve, so that the true SoAR and Socialites can be
 * computed by brute force over T. It fails the test when asked for the same (T, duration) twice.
 */
final class SimulatedStore implements ExperimentRunner {
    /** What the store does with T threads. */
    interface Curve {
        double throughput(int t);

        double withinBetaPct(int t);

        default double unpredictablePct(int t) {
            return 0;
        }
    }

    /**
     * Closed model, zero think time: c servers, service time S(T) = s0·(1 + κ·(T−1)^p) (the contention penalty),
     * throughput X(T) = min(T, c)/S(T), mean response time R(T) = T/X(T) (Little's law), response times
     * exponentially distributed with mean R(T), so the share within β is 1 − e^(−β/R(T)).
     */
    static Curve servers(int c, double s0Seconds, double kappa, double p, Duration beta) {
        double b = beta.toNanos() / 1e9;
        return new Curve() {
            double service(int t) {
                return s0Seconds * (1 + kappa * Math.pow(t - 1, p));
            }

            @Override
            public double throughput(int t) {
                return Math.min(t, c) / service(t);
            }

            @Override
            public double withinBetaPct(int t) {
                double r = t / throughput(t);
                return 100 * (1 - Math.exp(-b / r));
            }

            @Override
            public String toString() {
                return "servers(c=" + c + ", s0=" + s0Seconds + ", κ=" + kappa + ", p=" + p + ")";
            }
        };
    }

    /**
     * The dissertation's synthetic store (7.1): throughput −T² + bT + c; every action within β; an experiment whose
     * throughput would be ≤ 0 completes nothing and so misses the SLA.
     */
    static Curve quadratic(double b, double c) {
        return new Curve() {
            @Override
            public double throughput(int t) {
                return Math.max(0, -(double) t * t + b * t + c);
            }

            @Override
            public double withinBetaPct(int t) {
                return throughput(t) > 0 ? 100 : 0;
            }

            @Override
            public String toString() {
                return "quadratic(b=" + b + ", c=" + c + ")";
            }
        };
    }

    /** Any throughput function; within β 100 % up to {@code lastGood}, 0 % beyond. */
    static Curve function(IntToDoubleFunction x, int lastGood) {
        return new Curve() {
            @Override
            public double throughput(int t) {
                return x.applyAsDouble(t);
            }

            @Override
            public double withinBetaPct(int t) {
                return t <= lastGood ? 100 : 0;
            }
        };
    }

    record Key(int threads, Duration duration) {}

    private final Curve curve;
    private final Set<Key> seen = new HashSet<>();
    final List<Key> asked = new ArrayList<>();

    SimulatedStore(Curve curve) {
        this.curve = curve;
    }

    static Measurement measurement(Curve curve, int t, Duration d) {
        double seconds = d.toNanos() / 1e9;
        double x = curve.throughput(t);
        long actions = x > 0 ? Math.max(1, Math.round(x * seconds)) : 0;
        return new Measurement(x, curve.withinBetaPct(t), curve.unpredictablePct(t), 0, actions, seconds);
    }

    @Override
    public Measurement run(int threads, Duration duration) {
        Key k = new Key(threads, duration);
        if (!seen.add(k)) {
            fail("the rating asked twice for T=" + threads + " with " + duration);
        }
        asked.add(k);
        return measurement(curve, threads, duration);
    }

    int calls() {
        return asked.size();
    }

    /** The true ratings, by brute force over T = 1 … limit. */
    record Truth(double soar, int soarThreads, int socialites) {}

    /**
     * The true ratings, by brute force over T = 1 … limit. The SLA test is spelled out here (rather than calling
     * {@link Measurement#succeeds}) to keep the brute force fast and independent of the code under test.
     */
    static Truth truth(Curve curve, Sla sla, Duration d, int limit) {
        double best = 0;
        int bestT = 0;
        int socialites = 0;
        double eps = 1e-9;
        for (int t = 1; t <= limit; t++) {
            double x = curve.throughput(t);
            boolean ok = x > 0
                    && curve.withinBetaPct(t) + eps >= sla.alphaPct()
                    && curve.unpredictablePct(t) <= sla.tauPct() + eps;
            if (ok) {
                socialites = t;
                if (x > best) {
                    best = x;
                    bestT = t;
                }
            }
        }
        return new Truth(best, bestT, socialites);
    }
}
