package org.bgbench.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.bgbench.model.InvalidParameterException;
import org.bgbench.model.generator.SocialGraph;
import org.bgbench.model.state.GraphState;
import org.bgbench.workload.WorkloadSpec;
import org.bgbench.workload.distribution.DZipfian;
import org.bgbench.workload.distribution.DistributionKind;
import org.bgbench.workload.distribution.DistributionSpec;
import org.bgbench.workload.distribution.MemberSampler;

/**
 * Which worker owns which part of the graph and how much of the load it issues [SPEC §8, §14, D 4.3.1]. Workers own
 * whole fragments (friendships never cross fragments, so a worker's members form a self-contained graph and workers
 * never talk to each other); fragments go to workers in proportion to their rates R_k, and a skewed distribution is
 * the D-Zipfian over those member sets ({@link DZipfian#ofOwners}), so each worker's members carry about R_k/ΣR of the
 * probability and the workers together draw the centralised Zipfian. T threads are split over the workers by the
 * same quotas, and the χ² of the resulting global distribution against the centralised one is reported. The plan is a
 * pure function of its JSON, so every worker recomputes the same D-Zipfian.
 */
final class ClusterPlan {
    private static final ObjectMapper JSON = new ObjectMapper();

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
    static ClusterPlan assign(SocialGraph graph, double[] rates, long seed) {
        int n = rates.length;
        int f = graph.fragments();
        if (f < n) {
            throw new InvalidParameterException("--workers", n + " workers need a graph of at least " + n
                    + " fragments, this one has " + f + "; reload it with -p fragments=" + n + " (or a multiple)");
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
                double d = owned.get(k).isEmpty() ? Double.MAX_VALUE
                        : rates[k] / total * graph.members() - size[k];
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

    static ClusterPlan fromJson(JsonNode n, SocialGraph graph) {
        ArrayNode fa = (ArrayNode) n.get("fragments");
        int[][] fr = new int[fa.size()][];
        for (int k = 0; k < fr.length; k++) {
            JsonNode a = fa.get(k);
            fr[k] = new int[a.size()];
            for (int i = 0; i < a.size(); i++) {
                fr[k][i] = a.get(i).asInt();
            }
        }
        JsonNode ra = n.get("rates");
        double[] rates = new double[ra.size()];
        for (int k = 0; k < rates.length; k++) {
            rates[k] = ra.get(k).asDouble();
        }
        return new ClusterPlan(fr, rates, graph, n.get("seed").asLong());
    }

    ObjectNode toJson() {
        ObjectNode n = JSON.createObjectNode();
        n.set("fragments", JSON.valueToTree(fragments));
        n.set("rates", JSON.valueToTree(rates));
        n.put("seed", seed);
        return n;
    }

    int workers() {
        return fragments.length;
    }

    int[] fragments(int worker) {
        return fragments[worker];
    }

    double[] rates() {
        return rates.clone();
    }

    /** {from, to} member-index ranges of the worker's fragments. */
    int[][] ranges(int worker) {
        int[][] r = new int[fragments[worker].length][];
        for (int i = 0; i < r.length; i++) {
            int f = fragments[worker][i];
            r[i] = new int[] {graph.fragmentStart(f), graph.fragmentStart(f) + graph.fragmentSize(f)};
        }
        return r;
    }

    int[] members(int worker) {
        return Arrays.stream(ranges(worker)).flatMapToInt(r -> java.util.stream.IntStream.range(r[0], r[1])).toArray();
    }

    /** Workers number new comments from disjoint bases, so their ids never collide. */
    GraphState newState(SocialGraph g, int worker) {
        return new GraphState(g, g.firstFreeCommentId() + ((long) worker << 40));
    }

    private int[][] owned() {
        int[][] o = new int[workers()][];
        for (int k = 0; k < o.length; k++) {
            o[k] = members(k);
        }
        return o;
    }

    synchronized DZipfian dzipfian(double theta) {
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

    Experiment.Members samplers(WorkloadSpec ws, int worker) {
        return new Experiment.Members(sampler(ws.socialites(), worker), sampler(ws.targets(), worker));
    }

    /** T split over the workers by their quotas (largest remainder); a worker may get 0 when T is below N. */
    int[] threads(int total) {
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
     * the requests [D eq. 4.2]: 0 for one worker.
     */
    double chiSquare(DistributionSpec d, double[] shares) {
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
