package org.bgbench.workload.distribution;

/**
 * χ² statistics: the dissertation's distance between two distributions [dissertation 4.3.1] and Pearson's goodness-of-fit test
 * with its p-value (regularized upper incomplete gamma function, Numerical Recipes' series and continued fraction).
 */
public final class ChiSquare {
    private ChiSquare() {}

    /**
     * Pearson's test of observed counts against expected probabilities.
     *
     * @param statistic        X² = Σ (o_i − n·p_i)² / (n·p_i)
     * @param degreesOfFreedom number of bins with p_i &gt; 0, minus 1
     * @param pValue           probability that a sample of the expected distribution gives an X² this large or larger
     */
    public record Fit(double statistic, int degreesOfFreedom, double pValue) {}

    /**
     * The dissertation's χ² [dissertation 4.3.1]: Σ_i (q_i − p_i)² / p_i, the distance of distribution q from the reference p
     * (both per item, same order). 0 means identical.
     */
    public static double distance(double[] q, double[] p) {
        if (q.length != p.length) {
            throw new IllegalArgumentException(q.length + " observed but " + p.length + " reference probabilities");
        }
        double s = 0;
        for (int i = 0; i < p.length; i++) {
            if (p[i] > 0) {
                double d = q[i] - p[i];
                s += d * d / p[i];
            } else if (q[i] != 0) {
                return Double.POSITIVE_INFINITY;
            }
        }
        return s;
    }

    /**
     * The expected {@link #distance} of the observed frequencies of {@code draws} draws from exactly p, over
     * {@code categories} items of p_i &gt; 0: Σ_i p_i(1 − p_i)/(O·p_i) = (M − 1)/O, whatever p is. A measured χ² near it
     * is sampling noise alone [dissertation 4.3.1, fig. 4.10].
     */
    public static double noiseFloor(long categories, long draws) {
        if (categories < 1 || draws < 1) {
            throw new IllegalArgumentException(
                    "a noise floor needs at least 1 item and 1 draw, got " + categories + " and " + draws);
        }
        return (categories - 1.0) / draws;
    }

    /**
     * Pearson's goodness-of-fit of {@code observed} counts to {@code expected} probabilities (same order). Bins whose
     * expected count is small (below 5) make the χ² approximation of the p-value loose; size the sample accordingly.
     */
    public static Fit fit(long[] observed, double[] expected) {
        if (observed.length != expected.length) {
            throw new IllegalArgumentException(observed.length + " counts but " + expected.length + " probabilities");
        }
        long n = 0;
        for (long o : observed) {
            n += o;
        }
        double x = 0;
        int bins = 0;
        for (int i = 0; i < observed.length; i++) {
            if (expected[i] > 0) {
                double e = n * expected[i];
                double d = observed[i] - e;
                x += d * d / e;
                bins++;
            } else if (observed[i] != 0) {
                return new Fit(Double.POSITIVE_INFINITY, Math.max(1, bins - 1), 0);
            }
        }
        int df = Math.max(1, bins - 1);
        return new Fit(x, df, pValue(x, df));
    }

    /** P(X ≥ x) for X ~ χ² with {@code df} degrees of freedom. */
    public static double pValue(double x, int df) {
        if (df < 1) {
            throw new IllegalArgumentException("degrees of freedom must be at least 1, got " + df);
        }
        if (x <= 0) {
            return 1;
        }
        if (Double.isInfinite(x)) {
            return 0;
        }
        return gammaQ(df / 2.0, x / 2.0);
    }

    /** Regularized upper incomplete gamma Q(a, x) = Γ(a, x) / Γ(a). */
    static double gammaQ(double a, double x) {
        if (x < a + 1) {
            return Math.max(0, 1 - gammaPSeries(a, x));
        }
        return gammaQFraction(a, x);
    }

    private static final int MAX_ITERATIONS = 1_000_000;
    private static final double EPS = 1e-15;
    private static final double TINY = 1e-300;

    private static double gammaPSeries(double a, double x) {
        double ap = a;
        double sum = 1 / a;
        double del = sum;
        for (int n = 0; n < MAX_ITERATIONS; n++) {
            ap += 1;
            del *= x / ap;
            sum += del;
            if (Math.abs(del) < Math.abs(sum) * EPS) {
                break;
            }
        }
        return sum * Math.exp(-x + a * Math.log(x) - lnGamma(a));
    }

    private static double gammaQFraction(double a, double x) {
        // Modified Lentz's method for the continued fraction of Γ(a, x).
        double b = x + 1 - a;
        double c = 1 / TINY;
        double d = 1 / b;
        double h = d;
        for (int i = 1; i < MAX_ITERATIONS; i++) {
            double an = -i * (i - a);
            b += 2;
            d = an * d + b;
            if (Math.abs(d) < TINY) {
                d = TINY;
            }
            c = b + an / c;
            if (Math.abs(c) < TINY) {
                c = TINY;
            }
            d = 1 / d;
            double del = d * c;
            h *= del;
            if (Math.abs(del - 1) < EPS) {
                break;
            }
        }
        return Math.exp(-x + a * Math.log(x) - lnGamma(a)) * h;
    }

    private static final double[] LANCZOS = {
        0.99999999999980993,
        676.5203681218851,
        -1259.1392167224028,
        771.32342877765313,
        -176.61502916214059,
        12.507343278686905,
        -0.13857109526572012,
        9.9843695780195716e-6,
        1.5056327351493116e-7
    };

    /** ln Γ(x) for x &gt; 0 (Lanczos, g = 7; about 15 significant digits). */
    static double lnGamma(double x) {
        if (x < 0.5) {
            return Math.log(Math.PI / Math.abs(Math.sin(Math.PI * x))) - lnGamma(1 - x);
        }
        x -= 1;
        double a = LANCZOS[0];
        double t = x + 7.5;
        for (int i = 1; i < 9; i++) {
            a += LANCZOS[i] / (x + i);
        }
        return 0.5 * Math.log(2 * Math.PI) + (x + 0.5) * Math.log(t) - t + Math.log(a);
    }
}
