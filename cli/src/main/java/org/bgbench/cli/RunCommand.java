package org.bgbench.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import org.bgbench.cluster.coordinator.ClusterCoordinator;
import org.bgbench.loader.LoadException;
import org.bgbench.measurement.RunResult;
import org.bgbench.measurement.report.SummaryPrinter;
import org.bgbench.metrics.MetricsEndpoint;
import org.bgbench.model.Durations;
import org.bgbench.model.InvalidParameterException;
import org.bgbench.model.generator.SocialGraph;
import org.bgbench.runner.Experiment;
import org.bgbench.runner.ExperimentSpec;
import org.bgbench.runner.LocalStore;
import org.bgbench.runner.OutputGuard;
import org.bgbench.runner.Parameters;
import org.bgbench.runner.RunArtifacts;
import org.bgbench.runner.RunKeys;
import org.bgbench.runner.RunValidation;
import org.bgbench.runner.WorkloadChecks;
import org.bgbench.store.StoreProvider;
import org.bgbench.store.StoreRegistry;
import org.bgbench.store.StoreSettings;
import org.bgbench.workload.WorkloadFile;
import org.bgbench.workload.WorkloadSpec;
import org.bgbench.workload.mix.Mixes;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(
        name = "run",
        mixinStandardHelpOptions = true,
        header = "Emulate T members running a mix of actions against a store.",
        description = "The members perform actions and sessions; BG measures throughput and latency, writes the "
                + "result as JSON (--out) and prints a summary. Workload keys: 'bg keys'.")
final class RunCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    StoreOptions storeOptions;

    @Option(
            names = "--workload",
            paramLabel = "NAME|FILE",
            description =
                    "A named mix (vp, lf, verylow, low, high, cikm-…; 'bg keys') or a USC BG workload file (default: "
                            + "the mix the -p keys give, else "
                            + WorkloadSpec.DEFAULT_MIX
                            + ").")
    String workload;

    @Option(
            names = "--threads",
            paramLabel = "T",
            description = "Emulated members at once (default: -p threadcount, else 1).")
    Integer threads;

    @Option(
            names = "--duration",
            paramLabel = "DURATION",
            description = "Measured time after warm-up, e.g. 30s, 5m (default: maxexecutiontime, else 60s).")
    String duration;

    @Option(
            names = "--operations",
            paramLabel = "N",
            description = "Requests to issue after warm-up instead of a " + "duration, at least 1.")
    Long operations;

    @Option(
            names = "--warmup",
            paramLabel = "DURATION|N",
            description = "Warm-up excluded from results: a time (10s) or a request count (default: -p warmup, else a "
                    + "sixth of the duration, at most 10s; 0 for none).")
    String warmup;

    @Option(
            names = "--beta",
            paramLabel = "DURATION",
            defaultValue = "100ms",
            description = "β of the SLA: the response time an action should meet (default ${DEFAULT-VALUE}).")
    String beta;

    @Option(
            names = "--out",
            paramLabel = "FILE",
            description = "Result JSON (default runs/<time>-<store>-<mix>-T<T>.json).")
    Path out;

    @Option(
            names = "--load",
            description = "Load the graph first if the store does not hold it (always on for memory).")
    boolean load;

    @Option(
            names = "--arrivals",
            paramLabel = "SCHEDULE",
            description = "The open model: arrivals per second "
                    + "whether or not earlier ones finished (1000), or phases (1000:30s,2000:30s,ramp:4000:60s); latency counts "
                    + "from each arrival's due time, and --threads is the in-flight limit; docs/open-model.md.")
    String arrivals;

    @Option(
            names = "--arrival-process",
            paramLabel = "constant|poisson",
            description = "How the open model spaces arrivals (default constant).")
    String arrivalProcess;

    @Option(
            names = "--max-lag",
            paramLabel = "DURATION",
            description = "The open model: an arrival starting later "
                    + "than this after its due time is late; more than --max-late-pct late arrivals make the run invalid "
                    + "(default 1s).")
    String maxLag;

    @Option(
            names = "--max-late-pct",
            paramLabel = "PCT",
            description = "The open model: the %% of late arrivals " + "beyond which the run is invalid (default 5).")
    String maxLatePct;

    @Option(names = "--quiet", description = "No per-second progress lines.")
    boolean quiet;

    @Mixin
    ClusterOptions cluster = new ClusterOptions();

    @Mixin
    MetricsOptions metrics = new MetricsOptions();

    @Mixin
    StoreHostOptions storeHosts = new StoreHostOptions();

    @Override
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
        ExperimentSetup checked = ExperimentSetup.checked(provider, parameters(), err);
        // With --workers the workers read the store's graph: the coordinator may not reach the store itself.
        try (ClusterCoordinator c = cluster.active() ? cluster.connect(err) : null) {
            return run(
                    stdout,
                    err,
                    provider,
                    checked.withStoreGraph(storeOptions, ClusterOptions.storeGraph(c, provider), load, true, err),
                    c);
        }
    }

    /** The run of {@code setup}: here, or on the workers of {@code workers} (null: none). */
    @SuppressWarnings("try") // the metrics endpoint is a resource only to be closed when the command ends
    private int run(
            PrintWriter stdout,
            PrintWriter err,
            StoreProvider provider,
            ExperimentSetup setup,
            ClusterCoordinator workers)
            throws IOException {
        Parameters params = setup.params();
        ExperimentSetup.Plan plan = setup.plan();
        WorkloadSpec ws = plan.workload();
        SocialGraph graph = plan.graph();
        WorkloadChecks.warnings(ws).forEach(w -> err.println("bg: warning: " + w));
        RunDefaults.Timing timing = RunDefaults.timing(duration, operations, warmup, params, ws);
        ExperimentSpec es = setup.experiment(ws, timing.duration(), operations, timing.warmup(), beta, true)
                .withStoreHosts(storeHosts.resolve(err))
                .withOpen(RunKeys.openModel(params));
        // The store's default timeouts follow β.
        StoreSettings settings = setup.storeSettings(storeOptions).withBeta(es.beta());
        Path resultFile = out != null ? out : defaultOut(provider.name(), ws.mixName(), es.threads());
        int loaders = setup.loaders();
        OutputGuard.runResult("--out", resultFile);
        Path earlier = RunArtifacts.keepEarlier(resultFile);
        if (earlier != null) {
            err.println("bg: " + resultFile + " held an earlier run; kept it as " + earlier);
        }
        if (workers != null) {
            return runWithWorkers(workers, stdout, err, provider, params, settings, graph, ws, es, resultFile, loaders);
        }
        try (MetricsEndpoint endpoint = metrics.start("local", err);
                LocalStore store = LocalStore.open(
                        provider,
                        settings,
                        graph,
                        load ? LocalStore.IfMissing.LOAD : LocalStore.IfMissing.REFUSE_OFFER_LOAD,
                        loaders,
                        RunKeys.verifySample(params),
                        err)) {
            if (es.open() != null) {
                err.printf(
                        "bg: running %s on %s, open model: arrivals %s (%s), at most %d in flight, %s%n",
                        ws.mixName(),
                        provider.name(),
                        es.open().arrivals(),
                        es.open().process(),
                        es.threads(),
                        Durations.format(es.duration()));
            } else {
                err.printf(
                        "bg: running %s on %s: T=%d, %s%n",
                        ws.mixName(),
                        provider.name(),
                        es.threads(),
                        es.operations() > 0 ? es.operations() + " requests" : Durations.format(es.duration()));
            }
            Experiment.Outcome outcome = store.run(ws, es, resultFile, quiet ? null : err);
            stdout.print(SummaryPrinter.summary(outcome.result()));
            stdout.print(RunValidation.summary(outcome.result().unpredictable()));
            stdout.println("Result: " + resultFile.toAbsolutePath()
                    + (outcome.unwritten() == null ? "" : " (not written: the summary above is what was measured)"));
            String incomplete = outcome.result().incompleteReason();
            if (incomplete != null) {
                err.println("bg: error: the run is incomplete: " + incomplete);
            }
            if (outcome.unwritten() != null) {
                err.println("bg: error: " + outcome.unwritten() + "; the summary above is what was measured");
            }
            if (outcome.unsealed() != null) {
                err.println("bg: error: " + outcome.unsealed());
            }
            boolean onSchedule = onSchedule(outcome.result(), err);
            return outcome.run().completed() & validationComplete(outcome.result(), err)
                            && incomplete == null
                            && onSchedule
                            && outcome.unwritten() == null
                            && outcome.unsealed() == null
                    ? 0
                    : Bg.FAILED;
        }
    }

    /**
     * The run on the workers given by --workers (dissertation 4.3): each emulates its own members with its share of T
     * and validates its own reads; the coordinator merges their seconds live and their results at the end. The
     * workers keep their expected state between runs while they live; the store's state mark says which state that
     * must be, and a worker that does not hold it (restarted since a run with writes) refuses the run.
     */
    private int runWithWorkers(
            ClusterCoordinator c,
            PrintWriter stdout,
            PrintWriter err,
            StoreProvider provider,
            Parameters params,
            StoreSettings settings,
            SocialGraph graph,
            WorkloadSpec ws,
            ExperimentSpec es,
            Path resultFile,
            int loaders)
            throws IOException {
        if (es.operations() > 0) {
            throw new InvalidParameterException("--operations", "runs with --workers are timed; use --duration");
        }
        Map<String, String> all = new TreeMap<>(settings.asMap());
        all.putAll(params.asMap());
        boolean loaded =
                cluster.open(c, provider, all, graph, ws, es, Math.max(1, es.threads() / cluster.workers.size()));
        if (!loaded) {
            if (!load && !provider.traits().forgetsOnClose()) {
                throw new LoadException("the store does not hold this graph; load it first "
                        + "(bg load --store " + provider.name() + " --workers ... with the same -p graph keys) or "
                        + "pass --load");
            }
            c.load(loaders);
        } else {
            c.requireState();
        }
        err.printf(
                "bg: running %s on %s with %d workers: T=%d (%s per worker), %s%n",
                ws.mixName(),
                provider.name(),
                c.names().size(),
                es.threads(),
                Arrays.toString(c.plan().threads(es.threads())),
                Durations.format(es.duration()));
        ClusterCoordinator.Outcome o = c.run(es, resultFile, quiet ? null : err);
        stdout.print(SummaryPrinter.summary(o.result()));
        stdout.print(RunValidation.summary(o.result().unpredictable()));
        stdout.println(ChiSquareLine.of(c.names().size(), o.result().config()));
        if (!o.completed()) {
            stdout.println("Failed: " + o.reason());
            err.println("bg: error: the run failed: " + o.reason());
        }
        stdout.println("Result: " + resultFile.toAbsolutePath()
                + (o.unwritten() == null ? "" : " (not written: the summary above is what was measured)"));
        String incomplete = o.result().incompleteReason();
        if (incomplete != null) {
            err.println("bg: error: the run is incomplete: " + incomplete);
        }
        if (o.unwritten() != null) {
            err.println("bg: error: " + o.unwritten() + "; the summary above is what was measured");
        }
        boolean onSchedule = onSchedule(o.result(), err);
        return o.completed() & validationComplete(o.result(), err)
                        && incomplete == null
                        && onSchedule
                        && o.unwritten() == null
                ? 0
                : Bg.FAILED;
    }

    /** Whether an open-model run kept to its schedule (a closed one always does); if not, says so on stderr. */
    static boolean onSchedule(RunResult r, PrintWriter err) {
        if (r.open() == null || r.open().valid()) {
            return true;
        }
        err.println("bg: error: the run is invalid: " + r.open().invalidReason());
        return false;
    }

    /**
     * Whether the run's validation (if any) could check every read; if not, says so on stderr: the run then fails,
     * because its verdict on unpredictable data is missing.
     */
    static boolean validationComplete(RunResult r, PrintWriter err) {
        if (r.unpredictable() == null || r.unpredictable().verdictComplete()) {
            return true;
        }
        err.println("bg: error: validation incomplete: " + r.unpredictable().incompleteReason());
        return false;
    }

    private Parameters parameters() {
        Parameters params = storeOptions.parameters();
        Path workloadFile = null;
        if (workload != null) {
            Path file = Path.of(workload);
            if (Files.isRegularFile(file)) {
                // The file's keys first; -P files and -p override them, each keeping where it came from.
                WorkloadFile wf = WorkloadFile.read("--workload", file);
                Parameters merged = Parameters.of(List.of(), List.of());
                wf.keys().forEach((k, v) -> merged.put(k, v, file.toString()));
                Parameters given = params;
                given.asMap().forEach((k, v) -> merged.put(k, v, given.origin(k)));
                params = merged;
                workloadFile = file;
            } else if (Mixes.find(workload).isPresent()) {
                params.put("mix", workload, "-p");
            } else {
                throw new InvalidParameterException(
                        "--workload",
                        "'" + workload + "' is neither a file nor a named mix; named mixes: "
                                + String.join(", ", Mixes.names()));
            }
        }
        MixSources.check(params, storeOptions.files, workloadFile);
        putIf(params, "arrivals", arrivals);
        putIf(params, "arrivalprocess", arrivalProcess);
        putIf(params, "maxlag", maxLag);
        putIf(params, "maxlatepct", maxLatePct);
        if (operations != null && operations < 1) {
            // 0 used to fall through to the default 60 s: a count of nothing is not a bound.
            throw new InvalidParameterException(
                    "--operations",
                    "must be at least 1, or omit it for a run bounded " + "by --duration; got " + operations);
        }
        if (threads != null) {
            if (threads < 1) {
                throw new InvalidParameterException("--threads", "T must be at least 1, got " + threads);
            }
            params.put("threadcount", Integer.toString(threads), "-p");
        }
        return params;
    }

    private static void putIf(Parameters params, String key, String value) {
        if (value != null) {
            params.put(key, value, "--" + key);
        }
    }

    private static Path defaultOut(String store, String mix, int threads) {
        String stamp = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
        // A workload file's name labels its mix: keep the result's name a plain file name.
        return Path.of("runs", stamp + "-" + store + "-" + mix.replaceAll("[^\\w.-]", "_") + "-T" + threads + ".json");
    }
}
