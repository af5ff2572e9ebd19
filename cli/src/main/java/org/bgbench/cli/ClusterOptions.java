package org.bgbench.cli;

import java.util.Arrays;
import java.util.List;
import org.bgbench.model.InvalidParameterException;
import picocli.CommandLine.Option;

/** Options of the commands that can drive workers on other hosts instead of running everything here [SPEC §14]. */
final class ClusterOptions {
    @Option(names = "--workers", paramLabel = "HOST:PORT,…", split = ",",
            description = "Act as the coordinator of these workers ('bg worker --listen'); each owns a share of the graph.")
    List<String> workers;

    @Option(names = "--secret", paramLabel = "S", defaultValue = "${env:BG_SECRET}",
            description = "The workers' shared secret (default: $BG_SECRET).")
    String secret;

    @Option(names = "--worker-rates", paramLabel = "R,…", split = ",",
            description = "Relative request rates of heterogeneous workers (USC: probs); shares of members and threads "
                    + "follow them (default: equal).")
    List<Double> rates;

    @Option(names = "--calibrate", paramLabel = "DURATION",
            description = "Measure each worker's rate alone for this long first (then undo its writes) and size the "
                    + "shares of members and threads by those rates (heterogeneous workers); replaces --worker-rates.")
    String calibrate;

    /**
     * Opens the workers with their shares: equal or --worker-rates, or, with --calibrate, by rates measured in a short
     * run of each worker alone (the shares are then planned again). Returns whether the store holds the graph.
     */
    boolean open(ClusterCoordinator c, String store, java.util.Map<String, String> params,
                 org.bgbench.model.generator.SocialGraph graph, org.bgbench.workload.WorkloadSpec ws,
                 boolean storePerWorker, int calibrationThreads, java.io.PrintWriter err) {
        boolean loaded = c.open(store, params, graph, ws, rates(), storePerWorker);
        if (calibrate == null || !loaded) {
            return loaded;
        }
        java.time.Duration d = org.bgbench.model.Durations.parse("--calibrate", calibrate);
        double[] measured = c.calibrate(d, Math.max(1, calibrationThreads));
        double[] norm = measured.clone();
        double min = Arrays.stream(norm).min().orElse(1);
        for (int k = 0; k < norm.length; k++) {
            norm[k] = norm[k] / min;
        }
        err.printf(java.util.Locale.ROOT, "bg: calibrated worker rates %s%n", Arrays.toString(norm));
        // New shares: the workers take the new plan with fresh expected states (the store is the loaded graph again).
        c.open(store, params, graph, ws, norm, storePerWorker);
        return true;
    }

    @Option(names = "--keep-going", description = "bg rate: when a worker fails, drop it, plan the graph over the "
            + "others, restore the store (image or reload) and go on; without it the rating stops with what it measured.")
    boolean keepGoing;

    boolean active() {
        return workers != null && !workers.isEmpty();
    }

    double[] rates() {
        int n = workers.size();
        if (rates == null || rates.isEmpty()) {
            double[] r = new double[n];
            Arrays.fill(r, 1);
            return r;
        }
        if (rates.size() != n) {
            throw new InvalidParameterException("--worker-rates", rates.size() + " rates for " + n + " workers");
        }
        for (double r : rates) {
            if (!(r > 0) || Double.isInfinite(r)) {
                throw new InvalidParameterException("--worker-rates", "rates must be positive numbers, got " + r);
            }
        }
        return rates.stream().mapToDouble(Double::doubleValue).toArray();
    }

    /**
     * Whether each worker has a store of its own (the in-process stores: memory, and SQLite's file on each worker's
     * host), so every worker creates, loads and restores its own, rather than one shared server.
     */
    static boolean storePerWorker(org.bgbench.store.StoreProvider provider) {
        return provider.name().equals("memory") || provider.name().equals("sqlite");
    }

    ClusterCoordinator connect(java.io.PrintWriter err) {
        rates(); // bad --worker-rates is bad input, before any connection
        if (calibrate != null) {
            org.bgbench.model.Durations.parse("--calibrate", calibrate);
        }
        return new ClusterCoordinator(workers, secret, err);
    }
}
