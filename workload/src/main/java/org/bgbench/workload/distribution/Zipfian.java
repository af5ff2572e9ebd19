package org.bgbench.workload.distribution;

import org.bgbench.model.InvalidParameterException;
import org.bgbench.model.generator.Mix64;

/**
 * BG's Zipfian distribution (dissertation 4.3.1, dissertation eq. 4.1): the member of rank i (1-based) has probability
 * p_i(M, θ) = (1/i^(1−θ)) / Σ_{m=1..M} 1/m^(1−θ). θ is USC BG's {@code zipfianmean}; a smaller θ is more skewed:
 * θ = 0.27 sends about 62 % of references to the hottest 20 % of members (62.1 % for M = 10,000), θ = 0.01 is close
 * to the classic Zipf law (82.9 %), θ = 1 is uniform (20 %).
 *
 * <p>Ranks map to members through a fixed pseudo-random permutation of the member indexes ({@link #permutation}), a
 * pure function of M and the seed, so hot members are scattered over the graph (and over its fragments) and every
 * worker recomputes the same mapping; with {@code scramble = false} rank i is member i−1. Draws use Vose's alias
 * method: O(1) and two arrays of M.
 */
public final class Zipfian {
    /** The dissertation's skewed setting [dissertation 4.1, fig. 4.1]. */
    public static final double DEFAULT_THETA = 0.27;

    private Zipfian() {}

    /** Rejects θ outside [0, 1] (USC BG accepts "a value between 0 to 1"). */
    public static void checkTheta(String parameter, double theta) {
        if (!(theta >= 0 && theta <= 1)) {
            throw new InvalidParameterException(
                    parameter, "θ must be from 0 (most skewed) to 1 (uniform), got " + theta);
        }
    }

    /** p_r for ranks r = 1..n at index r−1 (eq. 4.1), summing to 1. */
    public static double[] probabilities(int n, double theta) {
        checkTheta("zipfianmean", theta);
        if (n < 1) {
            throw new IllegalArgumentException("a Zipfian needs at least one member, got " + n);
        }
        double[] p = new double[n];
        // Add the small tail terms first: with millions of ranks this keeps the sum accurate to a few ulps.
        double sum = 0;
        for (int r = n; r >= 1; r--) {
            p[r - 1] = Math.pow(r, theta - 1);
            sum += p[r - 1];
        }
        for (int r = 0; r < n; r++) {
            p[r] /= sum;
        }
        return p;
    }

    /** Share of references that go to the hottest {@code fraction} of n members (e.g. 0.2 → 0.62 for θ = 0.27). */
    public static double hottestShare(int n, double theta, double fraction) {
        double[] p = probabilities(n, theta);
        int top = (int) Math.round(n * fraction);
        double s = 0;
        for (int r = top - 1; r >= 0; r--) {
            s += p[r];
        }
        return s;
    }

    /**
     * A permutation of 0..n−1: element r is the member index of rank r+1. A pure function of (n, seed), independent of
     * the JDK's generators, so a coordinator and its workers on different hosts agree on it.
     */
    public static int[] permutation(int n, long seed) {
        int[] perm = new int[n];
        for (int i = 0; i < n; i++) {
            perm[i] = i;
        }
        for (int i = n - 1; i > 0; i--) {
            long h = Mix64.hash(seed, 0x5A1FL, i);
            int j = (int) (((h >>> 32) * (i + 1L)) >>> 32); // Lemire's multiply-shift; bias below n / 2^32
            int t = perm[i];
            perm[i] = perm[j];
            perm[j] = t;
        }
        return perm;
    }

    /** The rank → member mapping: {@link #permutation(int, long)} when scrambling, else the identity. */
    public static int[] rankToMember(int n, long seed, boolean scramble) {
        if (scramble) {
            return permutation(n, seed);
        }
        int[] id = new int[n];
        for (int i = 0; i < n; i++) {
            id[i] = i;
        }
        return id;
    }

    /** Zipfian over members 0..members−1; rank → member by {@link #rankToMember(int, long, boolean)}. */
    public static MemberSampler sampler(int members, double theta, long seed, boolean scramble) {
        double[] p = probabilities(members, theta);
        int[] order = rankToMember(members, seed, scramble);
        double[] byMember = new double[members];
        for (int r = 0; r < members; r++) {
            byMember[order[r]] = p[r];
        }
        return AliasSampler.ofWeights(byMember);
    }

    /**
     * Zipfian over a subset of members with ranks local to the subset (eq. 4.1 with M = subset size; the dissertation's
     * "Crude" when used per worker — use {@link DZipfian#sampler(int)} to keep the global distribution). Rank 1 is
     * {@code members[0]} unless {@code scramble}, which orders the subset by a seeded permutation first.
     */
    public static MemberSampler sampler(int[] members, double theta, long seed, boolean scramble) {
        int n = members.length;
        double[] p = probabilities(n, theta);
        int[] order = new int[n];
        if (scramble) {
            int[] perm = permutation(n, seed);
            for (int r = 0; r < n; r++) {
                order[r] = members[perm[r]];
            }
        } else {
            System.arraycopy(members, 0, order, 0, n);
        }
        return AliasSampler.over(order, p);
    }

    /**
     * YCSB's {@code latest}: Zipfian by recency, the highest member index being the most recent, so rank 1 is member
     * {@code members−1}, rank 2 member {@code members−2}, and so on (no scrambling). BG's member set does not grow
     * during a run, so "latest" means the highest indexes (the members loaded last).
     */
    public static MemberSampler latest(int members, double theta) {
        double[] p = probabilities(members, theta);
        double[] byMember = new double[members];
        for (int r = 0; r < members; r++) {
            byMember[members - 1 - r] = p[r];
        }
        return AliasSampler.ofWeights(byMember);
    }

    /** {@link #latest(int, double)} over a subset: rank 1 is the last element of {@code members}. */
    public static MemberSampler latest(int[] members, double theta) {
        int n = members.length;
        double[] p = probabilities(n, theta);
        int[] order = new int[n];
        for (int r = 0; r < n; r++) {
            order[r] = members[n - 1 - r];
        }
        return AliasSampler.over(order, p);
    }
}
