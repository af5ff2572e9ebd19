package org.bgbench.workload.distribution;

/**
 * Vose's alias method: after an O(n) build, a discrete distribution over n slots is drawn in O(1) with one uniform
 * slot and one uniform fraction: slot i is kept when the fraction is below {@code cut[i]}, otherwise {@code alias[i]}
 * is returned. This is the numerically stable variant (Vose 1991, as described by K. Schwarz): each slot's leftover
 * mass is carried as {@code (cut[g] + cut[l]) − 1}, and whatever rounding leaves in the work lists gets cut 1.
 */
public final class AliasTables {
    private AliasTables() {}

    /**
     * Fills {@code cut} and {@code alias} (both of {@code weights.length}) for weights proportional to {@code weights},
     * which must be finite, non-negative and not all 0. A zero weight may still get a cut of 1 through rounding when
     * it is left over in the final list, so callers that must never return a zero-weight slot leave such slots out.
     */
    public static void build(double[] weights, double[] cut, int[] alias) {
        int n = weights.length;
        if (n == 0) {
            throw new IllegalArgumentException("an alias table needs at least one slot");
        }
        double sum = 0;
        double c = 0; // Neumaier compensation: M can reach millions of small terms
        for (double w : weights) {
            if (!(w >= 0) || Double.isInfinite(w)) {
                throw new IllegalArgumentException("weights must be finite and non-negative, got " + w);
            }
            double t = sum + w;
            c += Math.abs(sum) >= Math.abs(w) ? (sum - t) + w : (w - t) + sum;
            sum = t;
        }
        sum += c;
        if (!(sum > 0)) {
            throw new IllegalArgumentException("weights must not all be 0");
        }
        // One int[n] holds both work lists: small grows up from 0, large down from n-1; together they never exceed n.
        int[] work = new int[n];
        int ns = 0;
        int nl = n;
        double scale = n / sum;
        for (int i = 0; i < n; i++) {
            cut[i] = weights[i] * scale;
            if (cut[i] < 1) {
                work[ns++] = i;
            } else {
                work[--nl] = i;
            }
        }
        while (ns > 0 && nl < n) {
            int l = work[--ns];
            int g = work[nl++];
            alias[l] = g;
            cut[g] = (cut[g] + cut[l]) - 1;
            if (cut[g] < 1) {
                work[ns++] = g;
            } else {
                work[--nl] = g;
            }
        }
        while (nl < n) {
            int g = work[nl++];
            cut[g] = 1;
            alias[g] = g;
        }
        while (ns > 0) {
            int l = work[--ns];
            cut[l] = 1;
            alias[l] = l;
        }
    }

    /** The probability of each slot that a built table encodes (for checks and χ²; O(n), allocates). */
    public static double[] probabilities(double[] cut, int[] alias) {
        int n = cut.length;
        double[] p = new double[n];
        for (int i = 0; i < n; i++) {
            p[i] += cut[i];
            p[alias[i]] += 1 - cut[i];
        }
        for (int i = 0; i < n; i++) {
            p[i] /= n;
        }
        return p;
    }
}
