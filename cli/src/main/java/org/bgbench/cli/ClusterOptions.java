package org.bgbench.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.bgbench.cluster.coordinator.ClusterCoordinator;
import org.bgbench.cluster.security.Secrets;
import org.bgbench.cluster.security.SecurityOptionException;
import org.bgbench.cluster.security.TlsClient;
import org.bgbench.model.Durations;
import org.bgbench.model.InvalidParameterException;
import org.bgbench.model.generator.SocialGraph;
import org.bgbench.runner.ExperimentSpec;
import org.bgbench.store.StoreProvider;
import org.bgbench.store.StoreSettings;
import org.bgbench.workload.WorkloadSpec;
import picocli.CommandLine.Option;

/** Options of the commands that can drive workers on other hosts instead of running everything here (dissertation 4.3). */
final class ClusterOptions {
    @Option(
            names = "--workers",
            paramLabel = "HOST:PORT[,HOST:PORT…]",
            hideParamSyntax = true,
            split = ",",
            description =
                    "Act as the coordinator of these workers ('bg worker --listen'); each owns a share of the graph.")
    List<String> workers;

    // --- security options: resolved by org.bgbench.cluster.security -----------------------------------
    @Option(
            names = "--secret",
            paramLabel = "S",
            description = "The workers' shared secret on the command line: works, but other users see it in ps.")
    String secret;

    @Option(
            names = "--secret-file",
            paramLabel = "FILE",
            description = "File holding the workers' shared secret (default: $BG_SECRET).")
    Path secretFile;

    @Option(
            names = "--tls",
            description = "Talk TLS to the workers (trusting the system's CAs unless --tls-ca or --tls-pin).")
    boolean tls;

    @Option(
            names = "--tls-ca",
            paramLabel = "PEM",
            description =
                    "Trust workers whose certificates these CAs signed and that name the host in --workers; implies --tls.")
    Path tlsCa;

    @Option(
            names = "--tls-pin",
            paramLabel = "SHA256[,SHA256…]",
            hideParamSyntax = true,
            split = ",",
            description =
                    "Trust exactly the worker certificates with these SHA-256 fingerprints (each worker prints its "
                            + "own); implies --tls.")
    List<String> tlsPins;

    /** The secret and TLS trust from the options above; bad values are bad input naming the option. */
    private ClusterCoordinator connectSecurely(PrintWriter err) {
        String s;
        TlsClient t;
        try {
            s = Secrets.resolve(
                            Secrets.Side.COORDINATOR,
                            secret,
                            secretFile,
                            System::getenv,
                            line -> err.println("bg: " + line))
                    .secret();
            t = TlsClient.resolve(tls, tlsCa, tlsPins);
        } catch (SecurityOptionException e) {
            throw new InvalidParameterException(e.option(), e.getMessage());
        }
        err.flush();
        return new ClusterCoordinator(workers, s, t, err);
    }
    // --- end of security options -----------------------------------------------------------------------------------

    @Option(
            names = "--worker-rates",
            paramLabel = "R[,R…]",
            hideParamSyntax = true,
            split = ",",
            description = "Relative request rates of heterogeneous workers (USC: probs); shares of members and threads "
                    + "follow them (default: equal).")
    List<Double> rates;

    @Option(
            names = "--calibrate",
            paramLabel = "DURATION",
            description = "Measure each worker's rate alone for this long first (then undo its writes) and size the "
                    + "shares of members and threads by those rates (heterogeneous workers); replaces --worker-rates.")
    String calibrate;

    /**
     * Opens the workers with their shares: equal or --worker-rates, or, with --calibrate, by rates measured in a short
     * run of each worker alone. Returns whether the store holds the graph.
     */
    boolean open(
            ClusterCoordinator c,
            StoreProvider provider,
            Map<String, String> params,
            SocialGraph graph,
            WorkloadSpec ws,
            ExperimentSpec template,
            int calibrationThreads) {
        Duration d = calibrate == null ? null : Durations.parse("--calibrate", calibrate);
        // The workers' stores derive their default timeouts from β, as this process's would.
        Map<String, String> withBeta = new TreeMap<>(params);
        withBeta.put(StoreSettings.BETA_PARAMETER, Durations.format(template.beta()));
        return c.open(
                provider.name(),
                withBeta,
                graph,
                ws,
                rates(),
                provider.traits().onePerWorker(),
                d,
                template,
                calibrationThreads);
    }

    /**
     * The store's graph as the workers of {@code c} read it ({@link ClusterCoordinator#heldGraph}), with the settings
     * and -p parameters {@link #open} sends them; with no workers ({@code c} null) as this process reads it.
     */
    static StoreGraph.Record storeGraph(ClusterCoordinator c, StoreProvider provider) {
        if (c == null) {
            return StoreGraph.local(provider);
        }
        return (settings, params) -> {
            Map<String, String> all = new TreeMap<>(settings.asMap());
            all.putAll(params.asMap());
            return c.heldGraph(provider.name(), all);
        };
    }

    @Option(
            names = "--keep-going",
            description =
                    "bg rate: when a worker fails, drop it, plan the graph over the "
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

    ClusterCoordinator connect(PrintWriter err) {
        rates(); // bad --worker-rates is bad input, before any connection
        if (calibrate != null) {
            Durations.parse("--calibrate", calibrate);
        }
        return connectSecurely(err);
    }
}
