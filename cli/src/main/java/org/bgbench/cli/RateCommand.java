package org.bgbench.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import org.bgbench.cluster.coordinator.ClusterCoordinator;
import org.bgbench.cluster.coordinator.ClusterExecutor;
import org.bgbench.emulator.open.ArrivalSchedule;
import org.bgbench.loader.LoadException;
import org.bgbench.metrics.MetricsEndpoint;
import org.bgbench.model.Durations;
import org.bgbench.model.InvalidParameterException;
import org.bgbench.model.generator.SocialGraph;
import org.bgbench.rating.LocalSearch;
import org.bgbench.rating.Rating;
import org.bgbench.rating.RatingSettings;
import org.bgbench.rating.Sla;
import org.bgbench.rating.Target;
import org.bgbench.runner.ExperimentSpec;
import org.bgbench.runner.LocalStore;
import org.bgbench.runner.OutputGuard;
import org.bgbench.runner.Parameters;
import org.bgbench.runner.RunKeys;
import org.bgbench.runner.ValidationOptions;
import org.bgbench.runner.rating.LocalExecutor;
import org.bgbench.runner.rating.ResetPolicy;
import org.bgbench.store.StoreProvider;
import org.bgbench.store.StoreRegistry;
import org.bgbench.store.StoreSettings;
import org.bgbench.workload.WorkloadParameters;
import org.bgbench.workload.WorkloadSpec;
import org.bgbench.workload.mix.Mixes;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(
        name = "rate",
        mixinStandardHelpOptions = true,
        header = "Rate a store: its SoAR and Socialites under an SLA.",
        description = "Rate a loaded store (dissertation chapter 7): SoAR (the highest throughput that meets the SLA) "
                + "and Socialites (the most simultaneous members that meet it), by a search over T. Every "
                + "experiment is printed and saved as it finishes; the rating ends with a JSON, an SVG chart and an "
                + "HTML report.")
final class RateCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    StoreOptions storeOptions;

    @Option(
            names = "--workload",
            paramLabel = "NAME",
            description = "A named mix (default high, or the mix -P files set by frequency keys).")
    String workload;

    @Option(
            names = "--sla",
            paramLabel = "α:β:τ:Δ",
            defaultValue = "95%:100ms:0.01%:60s",
            description = "SLA: α %% of actions within β, at most τ %% unpredictable reads, confirmation run Δ "
                    + "(default ${DEFAULT-VALUE}).")
    String sla;

    @Option(
            names = "--target",
            paramLabel = "soar|socialites|both",
            defaultValue = "both",
            description = "soar, socialites or both (default ${DEFAULT-VALUE}).")
    String target;

    @Option(
            names = "--delta",
            paramLabel = "DURATION",
            defaultValue = "10s",
            description = "δ, length of each search experiment (default ${DEFAULT-VALUE}); Δ confirms the result.")
    String delta;

    @Option(
            names = "--search",
            paramLabel = "optimal|approximate",
            defaultValue = "optimal",
            description = "Local search: optimal or approximate " + "(default ${DEFAULT-VALUE}).")
    String search;

    @Option(
            names = "--climbing-factor",
            paramLabel = "R",
            defaultValue = "2",
            description = "r, T's factor while climbing (default ${DEFAULT-VALUE}).")
    double climbingFactor;

    @Option(
            names = "--max-threads",
            paramLabel = "T",
            defaultValue = "1024",
            description = "Largest T to try (default ${DEFAULT-VALUE}).")
    int maxThreads;

    @Option(
            names = "--warmup",
            paramLabel = "DURATION",
            defaultValue = "2s",
            description = "Warm-up of each experiment (default ${DEFAULT-VALUE}).")
    String warmup;

    @Option(
            names = "--reset",
            paramLabel = "MODE",
            defaultValue = "auto",
            description = "How the store is reset between experiments: "
                    + "auto, loadfree, repair, image or reload (default ${DEFAULT-VALUE}).")
    String reset;

    @Option(
            names = "--model",
            paramLabel = "closed|open|both",
            defaultValue = "closed",
            description = "closed: SoAR and Socialites by a search over "
                    + "T; open: the open-model rating, the highest arrival rate that meets the SLA; both: the two, one after "
                    + "the other, and a chart of both (default ${DEFAULT-VALUE}); docs/open-model.md.")
    String model;

    @Option(
            names = "--in-flight",
            paramLabel = "N",
            description = "The open model: the arrivals BG keeps started "
                    + "at once at most, its threads (default: SoAR's T after a closed rating, else 64).")
    Integer inFlight;

    @Option(
            names = "--rate-unit",
            paramLabel = "RATE",
            description = "The open model: the step of the rate search, "
                    + "arrivals/s (it tries 1, 2, 4, … steps, then halves the gap; default: SoAR/32 after a closed rating, "
                    + "else 100).")
    Double rateUnit;

    @Option(
            names = "--max-rate",
            paramLabel = "RATE",
            defaultValue = "10000000",
            description = "The open model: the " + "highest arrival rate to try (default ${DEFAULT-VALUE}).")
    double maxRate;

    @Option(
            names = "--arrival-process",
            paramLabel = "constant|poisson",
            defaultValue = "constant",
            description = "The open model: how arrivals are spaced (default ${DEFAULT-VALUE}).")
    String arrivalProcess;

    @Option(
            names = "--no-confirm",
            description = "Skip the confirmation run of length Δ. Without this option a confirmation run that meets "
                    + "the SLA but whose throughput is more than 10 %% from the δ run's is repeated up to "
                    + Rating.CONFIRMATION_REPEATS + " times; if it still disagrees the rating is UNSTABLE, with both "
                    + "figures (docs/rating.md).")
    boolean noConfirm;

    @Option(
            names = "--out",
            paramLabel = "DIR",
            description = "Directory for the rating (default runs/rate-<time>-<store>).")
    Path out;

    @Mixin
    ClusterOptions cluster = new ClusterOptions();

    @Mixin
    MetricsOptions metrics = new MetricsOptions();

    @Mixin
    StoreHostOptions storeHosts = new StoreHostOptions();

    @Override
    @SuppressWarnings("try") // the metrics endpoint is a resource only to be closed when the command ends
    public Integer call() throws IOException {
        PrintWriter stdout = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        StoreProvider provider = storeOptions.provider(StoreRegistry.discover());
        metrics.address(); // bad --metrics is bad input before anything starts
        if (metrics.active() && cluster.active()) {
            throw new InvalidParameterException(
                    "--metrics",
                    "with --workers the experiments run on the workers: give "
                            + "each 'bg worker' its own --metrics HOST:PORT");
        }
        Parameters params = storeOptions.parameters();
        models();
        checkCounts();
        if (workload == null
                && !WorkloadParameters.frequencyKeys(params.asMap()).isEmpty()) {
            // A USC workload file given with -P: its mix is rated, under the file's name.
            MixSources.check(params, storeOptions.files, null);
        } else {
            workload = workload == null ? "high" : workload;
            if (Mixes.find(workload).isEmpty()) {
                throw new InvalidParameterException(
                        "--workload",
                        "'" + workload + "' is not a named mix; named " + "mixes: " + String.join(", ", Mixes.names()));
            }
            params.put("mix", workload, "--workload");
        }
        ExperimentSetup checked = ExperimentSetup.checked(provider, params, err);
        Sla theSla = Sla.parse("--sla", sla);
        Duration deltaDuration = Durations.parse("--delta", delta);
        theSla.checkExperimentDuration("--delta", deltaDuration);
        RatingSettings settings = RatingSettings.builder(theSla)
                .experimentDuration(deltaDuration)
                .climbingFactor(climbingFactor)
                .localSearch(
                        switch (search.toLowerCase(Locale.ROOT)) {
                            case "optimal" -> LocalSearch.OPTIMAL;
                            case "approximate" -> LocalSearch.APPROXIMATE;
                            default ->
                                throw new InvalidParameterException(
                                        "--search", "expected optimal or approximate, got '" + search + "'");
                        })
                .targets(targets())
                .confirm(!noConfirm)
                .maxThreads(maxThreads)
                .build();
        ResetPolicy policy = new ResetPolicy(ResetPolicy.Mode.parse(reset));
        Duration warm = Durations.parse("--warmup", warmup);
        // With --workers the workers read the store's graph: the coordinator may not reach the store itself.
        try (ClusterCoordinator c = cluster.active() ? cluster.connect(err) : null) {
            ExperimentSetup setup =
                    checked.withStoreGraph(storeOptions, ClusterOptions.storeGraph(c, provider), false, false, err);
            ExperimentSetup.Plan plan = setup.plan();
            SocialGraph graph = plan.graph();
            WorkloadSpec ws = plan.workload();
            workload = ws.mixName();
            ValidationOptions validation = setup.validation();
            ValidationOptions quiet = validation == null
                    ? null
                    : new ValidationOptions(
                            validation.memoryBytes(),
                            validation.threads(),
                            validation.buckets(),
                            theSla.tauPct(),
                            false);
            ExperimentSpec template = setup.timed(ws, 1, deltaDuration, warm, theSla.beta(), quiet)
                    .withStoreHosts(storeHosts.resolve(err));
            // The store's default timeouts follow the SLA's β.
            StoreSettings storeSettings = setup.storeSettings(storeOptions).withBeta(theSla.beta());
            Path dir = out != null
                    ? out
                    : Path.of(
                            "runs",
                            "rate-" + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")) + "-"
                                    + provider.name());
            OutputGuard.directory("--out", dir);
            Files.createDirectories(dir);
            int loaders = setup.loaders();
            long t0 = System.nanoTime();
            Map<String, Object> extra = new LinkedHashMap<>();
            extra.put("store", provider.name());
            extra.put("workload", workload);
            if (cluster.active()) {
                extra.put("workers", cluster.workers);
            }
            RateModels rating = new RateModels(
                    models(),
                    settings,
                    new RateModels.OpenOptions(inFlight, rateUnit, maxRate, arrivalProcess),
                    new RateModels.Report(provider.name(), workload, dir, t0, extra));
            if (cluster.active()) {
                Map<String, String> all = new TreeMap<>(storeSettings.asMap());
                all.putAll(setup.params().asMap());
                if (!cluster.open(c, provider, all, graph, ws, template, 4)) {
                    if (!provider.traits().forgetsOnClose()) {
                        throw new LoadException(
                                "the store does not hold this graph; load it first " + "(bg load --store "
                                        + provider.name() + " --workers ... with the same -p graph keys)");
                    }
                    c.load(loaders);
                } else {
                    c.requireState();
                }
                ClusterExecutor executor = new ClusterExecutor(c, loaders, cluster.keepGoing);
                return rating.run(stdout, err, new RateModels.Bench(executor, ws, template, policy, cluster.keepGoing));
            }
            try (MetricsEndpoint endpoint = metrics.start("local", err);
                    LocalStore store = LocalStore.open(
                            provider,
                            storeSettings,
                            graph,
                            LocalStore.IfMissing.REFUSE,
                            loaders,
                            RunKeys.verifySample(setup.params()),
                            err)) {
                LocalExecutor executor = new LocalExecutor(store, ws, loaders, err);
                return rating.run(stdout, err, new RateModels.Bench(executor, ws, template, policy, cluster.keepGoing));
            }
        }
    }

    /**
     * The search's bounds and the open model's, checked before anything runs (an open rating after a closed one would
     * otherwise meet a bad --in-flight only once the closed rating is done), each naming its option.
     */
    private void checkCounts() {
        if (maxThreads < 1) {
            throw new InvalidParameterException("--max-threads", "must be at least 1, got " + maxThreads);
        }
        if (!(climbingFactor > 1 && climbingFactor <= 1024)) {
            throw new InvalidParameterException(
                    "--climbing-factor",
                    "the climbing factor r must be a number above 1 " + "(and at most 1024) such as 2, got "
                            + climbingFactor);
        }
        if (inFlight != null && inFlight < 1) {
            throw new InvalidParameterException("--in-flight", "must be at least 1, got " + inFlight);
        }
        if (rateUnit != null && !(rateUnit > 0 && rateUnit <= ArrivalSchedule.MAX_RATE)) {
            throw new InvalidParameterException(
                    "--rate-unit",
                    "must be a rate above 0 and at most " + ArrivalSchedule.maxRateText() + " per second, got "
                            + rateUnit);
        }
        if (!(maxRate > 0 && maxRate <= ArrivalSchedule.MAX_RATE)) {
            throw new InvalidParameterException(
                    "--max-rate",
                    "must be a rate above 0 and at most " + ArrivalSchedule.maxRateText() + " per second, got "
                            + maxRate);
        }
        if (rateUnit != null && rateUnit > maxRate) {
            throw new InvalidParameterException(
                    "--max-rate",
                    "is below the search's first step, --rate-unit " + rateUnit
                            + "; raise --max-rate or lower --rate-unit");
        }
    }

    /** Which models {@code --model} rates. */
    private RateModels.Which models() {
        return switch (model.toLowerCase(Locale.ROOT)) {
            case "closed" -> new RateModels.Which(true, false);
            case "open" -> new RateModels.Which(false, true);
            case "both" -> new RateModels.Which(true, true);
            default ->
                throw new InvalidParameterException("--model", "expected closed, open or both, got '" + model + "'");
        };
    }

    private Set<Target> targets() {
        return switch (target.toLowerCase(Locale.ROOT)) {
            case "soar" -> EnumSet.of(Target.SOAR);
            case "socialites" -> EnumSet.of(Target.SOCIALITES);
            case "both" -> EnumSet.allOf(Target.class);
            default ->
                throw new InvalidParameterException(
                        "--target", "expected soar, socialites or both, got '" + target + "'");
        };
    }
}
