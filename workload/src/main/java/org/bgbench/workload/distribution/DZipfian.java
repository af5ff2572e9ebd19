package org.bgbench.workload.distribution;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import org.bgbench.model.InvalidParameterException;
import org.bgbench.model.generator.Mix64;

/**
 * D-Zipfian, the decentralised Zipfian of (dissertation 4.3.1): the members are split among N workers (BGClients) so
 * that each worker draws only its own members, yet the references of all workers together follow the centralised
 * {@link Zipfian} of every member, for any N.
 *
 * <p><b>Step 1, assignment.</b> With p_i = p_i(M, θ) of eq. 4.1 by rank, worker k gets a quota
 * Q_k = R_k / Σ_j R_j of probability (1/N for homogeneous workers, rates R_k for heterogeneous ones, the refinement
 * behind table 4.4). {@link #of} follows the dissertation's heuristic: hand out ranks round-robin over the workers,
 * highest probability first; a worker whose next highest rank would exceed its quota takes the lowest remaining rank
 * instead if that fits, else it leaves the rotation; ranks left when every worker has left go, one by one, to the
 * worker furthest below its quota (the dissertation gives them to the fastest worker; the deficit rule is never
 * worse and equals it when only the fastest has room). Two refinements: a worker with no member yet always takes the
 * next highest rank (with few workers and small θ the top rank alone can exceed 1/N, e.g. θ = 0.01, M = 10,000 and
 * N ≥ 11), and ranks map to members through {@link Zipfian}'s seeded permutation, so the centralised distribution of
 * the same seed is the reference. {@link #ofOwners} instead starts from member sets the workers already own (e.g.
 * whole graph fragments (dissertation 5.1)) and decides which ranks (popularities) those members get.
 *
 * <p><b>Step 2, drawing.</b> Worker k draws from its own members with the centralised probabilities renormalised
 * locally, p_i / Σ_{j ∈ k} p_j (eq. 4.3) — an exact alias table over its members ({@link #sampler(int)}).
 *
 * <p><b>χ².</b> When worker k issues a share O_k/O of all requests, member i of worker k is referenced with global
 * probability q_i(M, θ, N) = (O_k/O) · p_i / S_k (eq. 4.2 with 4.3), S_k = Σ_{j ∈ k} p_j. The dissertation compares it
 * with the centralised p_i by χ² = Σ_i (q_i − p_i)² / p_i ({@link #chiSquare()}), taking O_k/O = R_k/ΣR, i.e. each
 * worker issues requests at its rate (1/N when homogeneous): this is what figures 4.8 and 4.9 and tables 4.3 and 4.4
 * report. What they show, so results can be compared:
 * <ul>
 *   <li>Fig. 4.8 (M = 10,000, three θ): χ² is "extremely small" for N ≤ 8 and grows with tens of workers, most for
 *       the most skewed θ = 0.01, because S_k then deviates from 1/N (the top ranks alone exceed 1/N).</li>
 *   <li>Fig. 4.9 (θ = 0.01, three M): χ² falls towards 0 as M grows.</li>
 *   <li>Table 4.3 (N = 4, M = 10,000, θ = 0.27): clusters built for 1/N but workers issuing at rates R_k: χ² = 0.11
 *       for rates 1,1,2,2; 0.07 for 1,1.25,1.5,2; 0.06 for 1,2,2,2; 0.12 for 1,1,1,2; 0.16 for 1,4,4,4. Reproduce with
 *       {@code homogeneous(10_000, 0.27, 4, s).chiSquare(rates)}; analytically these equal Σ_k (r_k − S_k)² / S_k.</li>
 *   <li>Table 4.4: clusters built for R_k/ΣR ({@code of(10_000, 0.27, rates, s, true).chiSquare()}): χ² between
 *       1.2e-10 and 1.9e-8.</li>
 *   <li>Eq. 4.4: if instead each worker issues O_k/O = S_k / Σ_j S_j ({@link #eq44Shares()}), q_i = p_i exactly and
 *       χ² is 0 up to rounding, at the price of workers finishing at different times.</li>
 *   <li>Fig. 4.10 (M = 10,000, θ = 0.27): χ² of probabilities estimated from generated requests
 *       ({@link #sample(long, long)}) falls as more requests are issued. A sample of O requests from the exact
 *       distribution has an expected χ² of about (M−1)/O ({@link Sample#noiseFloor()}), so the sampled χ² tends to
 *       the analytic one plus that noise.</li>
 * </ul>
 *
 * <p>Instances are immutable; assignment ({@link RankAssignment}) is O(M + N²) ({@link #ofOwners}: O(M log N)), a pure function of the
 * arguments, so every worker can recompute its own members [dissertation 4.3.1 footnote 6]. Memory: about 20 bytes per member.
 */
public final class DZipfian {
    private final double theta;
    private final double[] p; // centralised probability by rank (0-based)
    private final int[] rankToMember;
    private final int[] rankOfMember;
    private final int[] workerOfRank;
    private final double[] rates;
    private final double[] quota;
    private final double[] mass;
    private final int[] sizes;

    private DZipfian(double theta, double[] p, int[] rankToMember, int[] workerOfRank, double[] rates) {
        int m = p.length;
        int n = rates.length;
        this.theta = theta;
        this.p = p;
        this.rankToMember = rankToMember;
        this.workerOfRank = workerOfRank;
        this.rates = rates;
        this.rankOfMember = new int[m];
        for (int r = 0; r < m; r++) {
            rankOfMember[rankToMember[r]] = r;
        }
        this.quota = RankAssignment.quotas(rates);
        this.mass = new double[n];
        this.sizes = new int[n];
        for (int r = m - 1; r >= 0; r--) {
            mass[workerOfRank[r]] += p[r];
            sizes[workerOfRank[r]]++;
        }
    }

    // ---- construction ----

    /** N workers of equal rate, scrambled rank → member mapping. */
    public static DZipfian homogeneous(int members, double theta, int workers, long seed) {
        if (workers < 1) {
            throw new InvalidParameterException("numclients", "must be at least 1, got " + workers);
        }
        double[] rates = new double[workers];
        Arrays.fill(rates, 1);
        return of(members, theta, rates, seed, true);
    }

    /** Workers with request rates R_k (USC BG's {@code probs}), scrambled rank → member mapping. */
    public static DZipfian heterogeneous(int members, double theta, double[] rates, long seed) {
        return of(members, theta, rates, seed, true);
    }

    /**
     * The dissertation's assignment (see the class comment) of members 0..members−1 to {@code rates.length} workers
     * with quotas R_k/ΣR. Rank → member is {@link Zipfian#rankToMember(int, long, boolean)}, so
     * {@link #centralised()} equals {@code Zipfian.sampler(members, theta, seed, scramble)}.
     */
    public static DZipfian of(int members, double theta, double[] rates, long seed, boolean scramble) {
        double[] r = RankAssignment.checkRates(rates);
        Zipfian.checkTheta("zipfianmean", theta);
        int n = r.length;
        if (members < n) {
            throw new InvalidParameterException(
                    "usercount",
                    "D-Zipfian needs at least one member per worker: " + members + " members for " + n + " workers");
        }
        double[] p = Zipfian.probabilities(members, theta);
        int[] workerOfRank = RankAssignment.roundRobin(p, r);
        return new DZipfian(theta, p, Zipfian.rankToMember(members, seed, scramble), workerOfRank, r);
    }

    /**
     * D-Zipfian over member sets the workers already own, e.g. whole graph fragments so each worker loads and serves
     * a self-contained sub-graph (dissertation 5.1). {@code owned[k]} are worker k's member indexes; together they must cover
     * 0..M−1 exactly once. The assignment decides which ranks each worker's members get: ranks in descending
     * probability go, one at a time, to the worker with the most quota left per free member,
     * (Q_k − S_k) / (free members of k), so every worker fills its members while approaching Q_k = R_k/ΣR. Within a
     * worker, its ranks map to its members in a seeded pseudo-random order (hot members are not adjacent).
     */
    public static DZipfian ofOwners(double theta, int[][] owned, double[] rates, long seed) {
        double[] r = RankAssignment.checkRates(rates);
        Zipfian.checkTheta("zipfianmean", theta);
        int m = RankAssignment.checkOwners(owned, r.length);
        double[] p = Zipfian.probabilities(m, theta);
        RankAssignment.Owned a = RankAssignment.toOwners(p, owned, r, seed);
        return new DZipfian(theta, p, a.rankToMember(), a.workerOfRank(), r);
    }

    // ---- the assignment ----

    public int workers() {
        return quota.length;
    }

    public int members() {
        return p.length;
    }

    public double theta() {
        return theta;
    }

    /** Worker k's quota Q_k = R_k / Σ R (1/N when homogeneous). */
    public double quota(int worker) {
        return quota[worker];
    }

    public double[] quotas() {
        return quota.clone();
    }

    public double[] rates() {
        return rates.clone();
    }

    /** S_k: the centralised probability of worker k's members together; D-Zipfian aims at S_k ≈ Q_k. */
    public double mass(int worker) {
        return mass[worker];
    }

    /** m_k: the number of members worker k owns. */
    public int size(int worker) {
        return sizes[worker];
    }

    /** The member indexes worker k owns, ascending. */
    public int[] membersOf(int worker) {
        int[] out = new int[sizes[worker]];
        int i = 0;
        for (int r = 0; r < p.length; r++) {
            if (workerOfRank[r] == worker) {
                out[i++] = rankToMember[r];
            }
        }
        Arrays.sort(out);
        return out;
    }

    public int workerOf(int member) {
        return workerOfRank[rankOfMember[member]];
    }

    /** The member's Zipfian rank, 1 (hottest) to M. */
    public int rankOf(int member) {
        return rankOfMember[member] + 1;
    }

    /** p_i(M, θ): the member's probability under the centralised Zipfian. */
    public double probability(int member) {
        return p[rankOfMember[member]];
    }

    /** q_i(M, θ, N) when every worker k issues a share {@code shares[k]} of the requests (eq. 4.2 with 4.3). */
    public double globalProbability(int member, double[] shares) {
        double[] o = checkShares(shares);
        int r = rankOfMember[member];
        int k = workerOfRank[r];
        return o[k] * p[r] / mass[k];
    }

    // ---- drawing ----

    /**
     * Worker k's sampler: its members with probabilities p_i / S_k (eq. 4.3), exact alias method. Builds a new table
     * on every call (O(M) scan + O(m_k)); keep the result.
     */
    public MemberSampler sampler(int worker) {
        int n = sizes[worker];
        int[] ms = new int[n];
        double[] w = new double[n];
        int i = 0;
        for (int r = 0; r < p.length; r++) {
            if (workerOfRank[r] == worker) {
                ms[i] = rankToMember[r];
                w[i++] = p[r];
            }
        }
        return AliasSampler.over(ms, w);
    }

    /** The centralised Zipfian (N = 1) with the same rank → member mapping: the reference of the χ². */
    public MemberSampler centralised() {
        double[] w = new double[p.length];
        for (int r = 0; r < p.length; r++) {
            w[rankToMember[r]] = p[r];
        }
        return AliasSampler.ofWeights(w);
    }

    // ---- χ² ----

    /**
     * The dissertation's χ² = Σ_i (q_i(M,θ,N) − p_i(M,θ))² / p_i(M,θ) with each worker issuing its quota's share of
     * the requests, O_k/O = R_k/ΣR (1/N homogeneous) — the setting of figures 4.8, 4.9 and table 4.4.
     */
    public double chiSquare() {
        return chiSquare(quota);
    }

    /**
     * χ² with worker k issuing a share {@code shares[k]} of the requests (normalised to sum 1): e.g. the measured
     * rates of workers whose clusters were built for other quotas (table 4.3), or {@link #eq44Shares()}.
     */
    public double chiSquare(double[] shares) {
        double[] o = checkShares(shares);
        double x = 0;
        for (int r = p.length - 1; r >= 0; r--) {
            int k = workerOfRank[r];
            double q = o[k] * p[r] / mass[k];
            double d = q - p[r];
            x += d * d / p[r];
        }
        return x;
    }

    /** Eq. 4.4: O_k/O = S_k / Σ_j S_j, the shares that make the global distribution exactly the centralised one. */
    public double[] eq44Shares() {
        double total = 0;
        for (double s : mass) {
            total += s;
        }
        double[] o = new double[mass.length];
        for (int k = 0; k < o.length; k++) {
            o[k] = mass[k] / total;
        }
        return o;
    }

    private double[] checkShares(double[] shares) {
        if (shares.length != quota.length) {
            throw new IllegalArgumentException(shares.length + " shares for " + quota.length + " workers");
        }
        double total = 0;
        for (double s : shares) {
            if (!(s >= 0) || Double.isInfinite(s)) {
                throw new IllegalArgumentException(
                        "request shares must be finite and non-negative, got " + Arrays.toString(shares));
            }
            total += s;
        }
        if (!(total > 0)) {
            throw new IllegalArgumentException("request shares must not all be 0");
        }
        double[] o = new double[shares.length];
        for (int k = 0; k < o.length; k++) {
            o[k] = shares[k] / total;
        }
        return o;
    }

    /**
     * χ² from generated requests (fig. 4.10).
     *
     * @param requests   O, requests issued by all workers together
     * @param chiSquare  Σ_i (f_i − p_i)² / p_i with f_i = count_i / O, the dissertation's statistic on observed frequencies
     * @param analytic   {@link #chiSquare(double[])} for the same shares: the value the sample tends to as O grows
     * @param noiseFloor (M−1)/O, the expected χ² of O draws from exactly p: sampling noise alone
     * @param fit        Pearson's test of the counts against p (X² = O · chiSquare, M−1 degrees of freedom)
     */
    public record Sample(long requests, double chiSquare, double analytic, double noiseFloor, ChiSquare.Fit fit) {}

    /** {@link #sample(long, double[], long)} with each worker issuing its quota's share (as {@link #chiSquare()}). */
    public Sample sample(long requests, long seed) {
        return sample(requests, quota, seed);
    }

    /**
     * Generates {@code requests} references: worker k issues its share (largest-remainder rounding of
     * O · shares[k]) from {@link #sampler(int)} with its own generator seeded from {@code seed} and k, and compares the
     * observed frequencies per member with the centralised probabilities. Deterministic for a seed.
     */
    public Sample sample(long requests, double[] shares, long seed) {
        if (requests < 1) {
            throw new InvalidParameterException("operationcount", "a sample needs at least 1 request, got " + requests);
        }
        double[] o = checkShares(shares);
        long[] perWorker = apportion(requests, o);
        long[] count = new long[p.length];
        for (int k = 0; k < o.length; k++) {
            if (perWorker[k] == 0) {
                continue;
            }
            MemberSampler s = sampler(k);
            SplittableRandom rnd = new SplittableRandom(Mix64.hash(seed, k, 0x5A3B1EL));
            for (long i = perWorker[k]; i > 0; i--) {
                count[rankOfMember[s.next(rnd)]]++;
            }
        }
        double x = 0;
        for (int r = p.length - 1; r >= 0; r--) {
            double d = (double) count[r] / requests - p[r];
            x += d * d / p[r];
        }
        ChiSquare.Fit fit = ChiSquare.fit(count, p);
        return new Sample(requests, x, chiSquare(o), ChiSquare.noiseFloor(p.length, requests), fit);
    }

    private static long[] apportion(long total, double[] shares) {
        int n = shares.length;
        long[] out = new long[n];
        double[] rest = new double[n];
        long given = 0;
        for (int k = 0; k < n; k++) {
            double exact = total * shares[k];
            out[k] = (long) Math.floor(exact);
            rest[k] = exact - out[k];
            given += out[k];
        }
        for (long left = total - given; left > 0; left--) {
            int best = 0;
            for (int k = 1; k < n; k++) {
                if (rest[k] > rest[best]) {
                    best = k;
                }
            }
            out[best]++;
            rest[best] = -1;
        }
        return out;
    }

    // ---- report ----

    /** One worker's line of a {@link Report}. */
    public record Worker(int index, int members, double rate, double quota, double mass) {}

    /**
     * What {@code bg dzipf} prints: the assignment per worker, the analytic χ² (shares = quotas) and, when
     * {@code requests} &gt; 0, the χ² of a generated sample.
     */
    public record Report(
            int members, double theta, List<Worker> workers, double chiSquare, double chiSquareEq44, Sample sample) {
        /** Multi-line text for a terminal. */
        public String format() {
            StringBuilder b = new StringBuilder();
            b.append(String.format(Locale.ROOT, "D-Zipfian  M=%d  θ=%s  N=%d%n", members, theta, workers.size()));
            b.append(String.format(
                    Locale.ROOT,
                    "%6s %10s %8s %12s %12s %12s%n",
                    "worker",
                    "members",
                    "rate",
                    "quota",
                    "probability",
                    "difference"));
            for (Worker w : workers) {
                b.append(String.format(
                        Locale.ROOT,
                        "%6d %10d %8.4g %12.8f %12.8f %12.3e%n",
                        w.index(),
                        w.members(),
                        w.rate(),
                        w.quota(),
                        w.mass(),
                        w.mass() - w.quota()));
            }
            b.append(String.format(
                    Locale.ROOT,
                    "χ² vs centralised Zipfian, workers issue their quota [dissertation figs 4.8-4.9]: " + "%.6e%n",
                    chiSquare));
            b.append(String.format(Locale.ROOT, "χ² with request shares of eq. 4.4: %.6e%n", chiSquareEq44));
            if (sample != null) {
                b.append(String.format(
                        Locale.ROOT,
                        "χ² of %d generated requests [dissertation fig. 4.10]: %.6e "
                                + "(sampling noise alone ≈ %.3e; Pearson X²=%.1f, df=%d, p=%.4f)%n",
                        sample.requests(),
                        sample.chiSquare(),
                        sample.noiseFloor(),
                        sample.fit().statistic(),
                        sample.fit().degreesOfFreedom(),
                        sample.fit().pValue()));
            }
            return b.toString();
        }
    }

    /** The report of this assignment, with a sample of {@code requests} references when {@code requests} &gt; 0. */
    public Report report(long requests, long seed) {
        List<Worker> ws = new ArrayList<>(quota.length);
        for (int k = 0; k < quota.length; k++) {
            ws.add(new Worker(k, sizes[k], rates[k], quota[k], mass[k]));
        }
        return new Report(
                p.length,
                theta,
                List.copyOf(ws),
                chiSquare(),
                chiSquare(eq44Shares()),
                requests > 0 ? sample(requests, seed) : null);
    }
}
