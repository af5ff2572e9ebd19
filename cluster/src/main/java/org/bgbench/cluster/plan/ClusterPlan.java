package org.bgbench.cluster.plan;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.IntStream;
import org.bgbench.model.InvalidParameterException;
import org.bgbench.model.generator.SocialGraph;
import org.bgbench.model.state.GraphState;
import org.bgbench.runner.Experiment;
import org.bgbench.workload.WorkloadSpec;
import org.bgbench.workload.distribution.DZipfian;
import org.bgbench.workload.distribution.DistributionKind;
import org.bgbench.workload.distribution.DistributionSpec;
import org.bgbench.workload.distribution.MemberSampler;

/**
 * Which worker owns which part of the graph and how much of the load it issues (dissertation 4.3.1, D-Zipfian with heterogeneous nodes). Workers own
 * whole fragments (friendships never cross fragments, so a worker's members form a self-contained graph and workers
 * never talk to each other); fragments go to workers in proportion to their rates R_k, and a skewed distribution is
 * the D-Zipfian over those member sets ({@link DZipfian#ofOwners}), so each worker's members carry about R_k/ΣR of the
 * probability and the workers together draw the centralised Zipfian. T threads are split over the workers by the
 * same quotas, and the χ² of the resulting global distribution against the centralised one is reported. The plan is a
 * pure function of its JSON, so every worker recomputes the same D-Zipfian.
 */
public final class ClusterPlan {
    /** The plan as it travels to the workers: each worker's fragments, the rates and the distribution's seed. */
    public record Layout(int[][] fragments, double[] rates, long seed) {}

    private final int[][] fragments;
    private final double[] rates;
    private final SocialGraph graph;
    private final long seed;
    private DZipfian dzipfian;
    private double dzipfianTheta = Double.NaN;

    private ClusterPlan(int[][] fragments, double[] rates, SocialGraph graph, long seed) {
        this.fragments = fragments;
        this.rates = rates;
        this.graph = graph;
        this.seed = seed;
    }

    /** Fragments to workers: largest fragment first, each to the worker furthest below its quota of members. */
    public static ClusterPlan assign(SocialGraph graph, double[] rates, long seed) {
        int n = rates.length;
        int f = graph.fragments();
        if (f < n) {
            throw new InvalidParameterException(
                    "--workers",
                    n + " workers need a graph of at least " + n + " fragments, this one has " + f
                            + "; reload it with -p fragments=" + n + " (or a multiple)");
        }
        double total = Arrays.stream(rates).sum();
        Integer[] order = new Integer[f];
        for (int i = 0; i < f; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> Integer.compare(graph.fragmentSize(b), graph.fragmentSize(a)));
        List<List<Integer>> owned = new ArrayList<>();
        long[] size = new long[n];
        for (int k = 0; k < n; k++) {
            owned.add(new ArrayList<>());
        }
        for (int fragment : order) {
            int best = -1;
            double deficit = Double.NEGATIVE_INFINITY;
            for (int k = 0; k < n; k++) {
                // A worker without a fragment always comes first, so every worker gets one.
                double d = owned.get(k).isEmpty() ? Double.MAX_VALUE : rates[k] / total * graph.members() - size[k];
                if (d > deficit) {
                    deficit = d;
                    best = k;
                }
            }
            owned.get(best).add(fragment);
            size[best] += graph.fragmentSize(fragment);
        }
        int[][] fr = new int[n][];
        for (int k = 0; k < n; k++) {
            fr[k] = owned.get(k).stream().mapToInt(Integer::intValue).sorted().toArray();
        }
        return new ClusterPlan(fr, rates.clone(), graph, seed);
    }

    /** The plan a worker receives: it recomputes the same D-Zipfian from it. */
    public static ClusterPlan of(Layout layout, SocialGraph graph) {
        return new ClusterPlan(layout.fragments(), layout.rates(), graph, layout.seed());
    }

    public Layout layout() {
        return new Layout(fragments, rates.clone(), seed);
    }

    public int workers() {
        return fragments.length;
    }

    public int[] fragments(int worker) {
        return fragments[worker];
    }

    public double[] rates() {
        return rates.clone();
    }

    /** {from, to} member-index ranges of the worker's fragments. */
    public int[][] ranges(int worker) {
        int[][] r = new int[fragments[worker].length][];
        for (int i = 0; i < r.length; i++) {
            int f = fragments[worker][i];
            r[i] = new int[] {graph.fragmentStart(f), graph.fragmentStart(f) + graph.fragmentSize(f)};
        }
        return r;
    }

    public int[] members(int worker) {
        return Arrays.stream(ranges(worker))
                .flatMapToInt(r -> IntStream.range(r[0], r[1]))
                .toArray();
    }

    /** Workers number new comments from disjoint bases, so their ids never collide. */
    public GraphState newState(SocialGraph g, int worker) {
        return new GraphState(g, g.firstFreeCommentId() + ((long) worker << 40));
    }

    private int[][] owned() {
        int[][] o = new int[workers()][];
        for (int k = 0; k < o.length; k++) {
            o[k] = members(k);
        }
        return o;
    }

    public synchronized DZipfian dzipfian(double theta) {
        if (dzipfian == null || dzipfianTheta != theta) {
            dzipfian = DZipfian.ofOwners(theta, owned(), rates, seed);
            dzipfianTheta = theta;
        }
        return dzipfian;
    }

    private MemberSampler sampler(DistributionSpec d, int worker) {
        if (d.kind() == DistributionKind.ZIPFIAN || d.kind() == DistributionKind.DZIPFIAN) {
            return dzipfian(d.theta()).sampler(worker);
        }
        return d.sampler(members(worker), seed);
    }

    public Experiment.Members samplers(WorkloadSpec ws, int worker) {
        return new Experiment.Members(sampler(ws.socialites(), worker), sampler(ws.targets(), worker));
    }

    /** T split over the workers by their quotas (largest remainder); a worker may get 0 when T is below N. */
    public int[] threads(int total) {
        int n = workers();
        double sum = Arrays.stream(rates).sum();
        int[] t = new int[n];
        double[] rest = new double[n];
        int given = 0;
        for (int k = 0; k < n; k++) {
            double exact = total * rates[k] / sum;
            t[k] = (int) Math.floor(exact);
            rest[k] = exact - t[k];
            given += t[k];
        }
        while (given < total) {
            int best = 0;
            for (int k = 1; k < n; k++) {
                if (rest[k] > rest[best]) {
                    best = k;
                }
            }
            t[best]++;
            rest[best] = -1;
            given++;
        }
        return t;
    }

    /**
     * χ² of the global socialite distribution against the centralised one when worker k issues {@code shares[k]} of
     * the requests (dissertation eq. 4.2): 0 for one worker.
     */
    public double chiSquare(DistributionSpec d, double[] shares) {
        double sum = Arrays.stream(shares).sum();
        if (sum <= 0) {
            return Double.NaN;
        }
        if (d.kind() == DistributionKind.ZIPFIAN || d.kind() == DistributionKind.DZIPFIAN) {
            return dzipfian(d.theta()).chiSquare(shares);
        }
        if (d.kind() == DistributionKind.UNIFORM) {
            // Each worker's members are drawn uniformly: q_i = share_k / size_k against p_i = 1/M.
            double m = graph.members();
            double x = 0;
            for (int k = 0; k < workers(); k++) {
                int size = members(k).length;
                double q = shares[k] / sum / size;
                x += size * (q - 1 / m) * (q - 1 / m) * m;
            }
            return x;
        }
        return Double.NaN;
    }
}
