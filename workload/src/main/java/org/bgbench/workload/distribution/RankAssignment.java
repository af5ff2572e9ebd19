package org.bgbench.workload.distribution;

import org.bgbench.model.InvalidParameterException;
import org.bgbench.model.generator.Mix64;

/**
 * Step 1 of {@link DZipfian}: which worker each Zipfian rank goes to, given the centralised probabilities by rank and
 * the workers' request rates (dissertation 4.3.1). Either ranks are dealt to workers by the dissertation's round-robin
 * heuristic ({@link #roundRobin}), or workers already own their members and the ranks are fitted to them
 * ({@link #toOwners}). Pure functions of their arguments, so every worker can recompute the assignment.
 */
final class RankAssignment {
    private static final double FIT = 1 + 1e-12; // tolerance on "does not exceed the quota"

    private RankAssignment() {}

    /** Ranks fitted to owned members: the worker of each rank, and the member each rank maps to. */
    record Owned(int[] workerOfRank, int[] rankToMember) {}

    /**
     * The dissertation's heuristic (see {@link DZipfian}): ranks round-robin over the workers, highest probability
     * first, the lowest remaining rank to a worker whose next highest would exceed its quota, leftovers to the worker
     * furthest below its quota. Returns the worker of each rank.
     */
    static int[] roundRobin(double[] p, double[] rates) {
        int members = p.length;
        int n = rates.length;
        double[] q = quotas(rates);
        int[] workerOfRank = new int[members];
        double[] s = new double[n];
        int[] count = new int[n];
        int[] cand = new int[n];
        for (int k = 0; k < n; k++) {
            cand[k] = k;
        }
        int nc = n;
        int pos = 0;
        int hi = 0;
        int lo = members - 1;
        while (hi <= lo && nc > 0) {
            int k = cand[pos];
            int take;
            if (count[k] == 0 || s[k] + p[hi] <= q[k] * FIT) {
                take = hi++;
            } else if (s[k] + p[lo] <= q[k] * FIT) {
                take = lo--;
            } else {
                System.arraycopy(cand, pos + 1, cand, pos, nc - pos - 1);
                nc--;
                if (pos >= nc) {
                    pos = 0;
                }
                continue;
            }
            workerOfRank[take] = k;
            s[k] += p[take];
            count[k]++;
            pos = (pos + 1) % nc;
        }
        for (int rank = hi; rank <= lo; rank++) {
            int best = 0;
            for (int k = 1; k < n; k++) {
                double dk = q[k] - s[k];
                double db = q[best] - s[best];
                if (dk > db || (dk == db && rates[k] > rates[best])) {
                    best = k;
                }
            }
            workerOfRank[rank] = best;
            s[best] += p[rank];
        }
        return workerOfRank;
    }

    /**
     * Checks that {@code owned} gives each of {@code workers} workers at least one member and covers 0..M−1 exactly
     * once; returns M.
     */
    static int checkOwners(int[][] owned, int workers) {
        if (owned.length != workers) {
            throw new InvalidParameterException(
                    "probs", owned.length + " member sets but " + workers + " worker rates");
        }
        int m = 0;
        for (int k = 0; k < workers; k++) {
            if (owned[k].length == 0) {
                throw new InvalidParameterException("numclients", "worker " + k + " owns no member");
            }
            m += owned[k].length;
        }
        boolean[] seen = new boolean[m];
        for (int k = 0; k < workers; k++) {
            for (int member : owned[k]) {
                if (member < 0 || member >= m || seen[member]) {
                    throw new IllegalArgumentException("owned member sets must cover 0.." + (m - 1)
                            + " exactly once; member " + member + " of worker " + k + " is "
                            + (member < 0 || member >= m ? "out of range" : "owned twice"));
                }
                seen[member] = true;
            }
        }
        return m;
    }

    /**
     * Ranks in descending probability, one at a time, to the worker with the most quota left per free member; within
     * a worker its ranks go to its members in a seeded order. {@code owned} must have passed {@link #checkOwners}.
     */
    static Owned toOwners(double[] p, int[][] owned, double[] rates, long seed) {
        int m = p.length;
        int n = rates.length;
        double[] q = quotas(rates);
        double[] s = new double[n];
        int[] free = new int[n];
        int[] heap = new int[n];
        double[] key = new double[n];
        for (int k = 0; k < n; k++) {
            free[k] = owned[k].length;
            key[k] = q[k] / free[k];
            heap[k] = k;
        }
        int hn = n;
        for (int i = hn / 2 - 1; i >= 0; i--) {
            siftDown(heap, hn, i, key);
        }
        int[] workerOfRank = new int[m];
        for (int rank = 0; rank < m; rank++) {
            int k = heap[0];
            workerOfRank[rank] = k;
            s[k] += p[rank];
            if (--free[k] == 0) {
                heap[0] = heap[--hn];
            } else {
                key[k] = (q[k] - s[k]) / free[k];
            }
            if (hn > 0) {
                siftDown(heap, hn, 0, key);
            }
        }
        // Worker k's ranks, in rank order, go to its members in a seeded order.
        int[] rankToMember = new int[m];
        int[] next = new int[n];
        int[][] order = new int[n][];
        for (int k = 0; k < n; k++) {
            int[] perm = Zipfian.permutation(owned[k].length, Mix64.hash(seed, k, 0xD21FL));
            order[k] = new int[owned[k].length];
            for (int j = 0; j < perm.length; j++) {
                order[k][j] = owned[k][perm[j]];
            }
        }
        for (int rank = 0; rank < m; rank++) {
            int k = workerOfRank[rank];
            rankToMember[rank] = order[k][next[k]++];
        }
        return new Owned(workerOfRank, rankToMember);
    }

    private static void siftDown(int[] heap, int n, int i, double[] key) {
        while (true) {
            int l = 2 * i + 1;
            if (l >= n) {
                return;
            }
            int c = l;
            if (l + 1 < n && before(heap[l + 1], heap[l], key)) {
                c = l + 1;
            }
            if (!before(heap[c], heap[i], key)) {
                return;
            }
            int t = heap[i];
            heap[i] = heap[c];
            heap[c] = t;
            i = c;
        }
    }

    private static boolean before(int a, int b, double[] key) {
        return key[a] > key[b] || (key[a] == key[b] && a < b);
    }

    /** The workers' request rates, checked (at least one, each positive and finite) and copied. */
    static double[] checkRates(double[] rates) {
        if (rates.length < 1) {
            throw new InvalidParameterException("numclients", "must be at least 1, got 0");
        }
        for (int k = 0; k < rates.length; k++) {
            if (!(rates[k] > 0) || Double.isInfinite(rates[k])) {
                throw new InvalidParameterException(
                        "probs", "worker " + k + " has rate " + rates[k] + "; rates must be positive numbers");
            }
        }
        return rates.clone();
    }

    /** Q_k = R_k / Σ R. */
    static double[] quotas(double[] rates) {
        double total = 0;
        for (double r : rates) {
            total += r;
        }
        double[] q = new double[rates.length];
        for (int k = 0; k < rates.length; k++) {
            q[k] = rates[k] / total;
        }
        return q;
    }
}
