package org.bgbench.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.concurrent.Callable;
import org.bgbench.emulator.EmulatorConfig;
import org.bgbench.loader.LoadException;
import org.bgbench.measurement.report.SummaryPrinter;
import org.bgbench.model.Durations;
import org.bgbench.model.GraphParameters;
import org.bgbench.model.GraphSpec;
import org.bgbench.model.InvalidParameterException;
import org.bgbench.model.generator.SocialGraph;
import org.bgbench.model.state.GraphState;
import org.bgbench.store.DataStore;
import org.bgbench.store.StoreProvider;
import org.bgbench.store.StoreRegistry;
import org.bgbench.store.StoreSettings;
import org.bgbench.workload.Warmup;
import org.bgbench.workload.WorkloadParameters;
import org.bgbench.workload.WorkloadSpec;
import org.bgbench.workload.mix.Mixes;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

@Command(name = "run", mixinStandardHelpOptions = true,
        description = {"Emulate T members performing a mix of actions and sessions against a loaded store, measure.",
            "Writes the result as JSON (--out) and prints a summary. Workload keys: 'bg keys'."})
final class RunCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    StoreOptions storeOptions;

    @Option(names = "--workload", paramLabel = "NAME|FILE",
            description = "A named mix (vp, lf, verylow, low, high, cikm-…; 'bg keys') or a USC BG workload file.")
    String workload;

    @Option(names = "--threads", paramLabel = "T", description = "Emulated members at once (USC: threadcount).")
    Integer threads;

    @Option(names = "--duration", paramLabel = "DURATION",
            description = "Measured time after warm-up, e.g. 30s, 5m (default: maxexecutiontime, else 60s).")
    String duration;

    @Option(names = "--operations", paramLabel = "N", description = "Requests to issue after warm-up instead of a duration.")
    Long operations;

    @Option(names = "--warmup", paramLabel = "DURATION|N", description = "Warm-up excluded from results: a time (10s) or a request count.")
    String warmup;

    @Option(names = "--beta", paramLabel = "DURATION", defaultValue = "100ms",
            description = "β of the SLA: the response time an action should meet (default ${DEFAULT-VALUE}).")
    String beta;

    @Option(names = "--out", paramLabel = "FILE", description = "Result JSON (default runs/<time>-<store>-<mix>-T<T>.json).")
    Path out;

    @Option(names = "--load", description = "Load the graph first if the store does not hold it (always on for memory).")
    boolean load;

    @Option(names = "--quiet", description = "No per-second progress lines.")
    boolean quiet;

    @Mixin
    ClusterOptions cluster = new ClusterOptions();

    @Override
    public Integer call() throws IOException {
        PrintWriter stdout = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        StoreProvider provider = storeOptions.provider(StoreRegistry.discover());
        Parameters params = parameters();
        params.check(k -> Keys.isRunKey(provider, k), Keys.forRun(provider).keySet(), Keys.IGNORED_USC);
        params.warnings().forEach(w -> err.println("bg: warning: " + w));
        GraphSpec graphSpec = GraphParameters.toSpec(params.asMap());
        WorkloadSpec ws = WorkloadParameters.toSpec(params.asMap());
        SocialGraph graph = new SocialGraph(graphSpec);
        checkFeasible(ws, graph);
        ws.mix().symmetryWarnings().forEach(w -> err.println("bg: warning: " + w));
        EmulatorConfig ec = emulatorConfig(ws, Keys.threadKind(params));
        ValidationOptions validation = Keys.validation(params);
        Duration betaDuration = Durations.parse("--beta", beta);
        StoreSettings settings = storeOptions.settings(provider, params);
        Path resultFile = out != null ? out : defaultOut(provider.name(), ws.mixName(), ec.threads());
        if (cluster.active()) {
            return runWithWorkers(stdout, err, provider, params, settings, graph, ws, ec, validation, betaDuration,
                    resultFile);
        }
        StateFiles states = StateFiles.defaultLocation();
        Path stateFile = states.fileFor(provider.name(), settings);
        try (DataStore store = provider.open(settings)) {
            GraphState state = prepare(store, provider, graph, states, stateFile, params, err);
            err.printf("bg: running %s on %s: T=%d, %s%n", ws.mixName(), provider.name(), ec.threads(),
                    ec.operations() > 0 ? ec.operations() + " requests" : Durations.format(ec.duration()));
            Experiment.Outcome outcome = Experiment.run(new Experiment.Setup(store, provider.name(), settings.asMap(),
                    state, ws, ec, betaDuration, resultFile, quiet ? null : err, validation));
            if (ws.mix().writeFraction() > 0) {
                states.save(stateFile, state);
            }
            stdout.print(SummaryPrinter.summary(outcome.result()));
            stdout.print(RunValidation.summary(outcome.result().unpredictable()));
            stdout.println("Result: " + resultFile.toAbsolutePath());
            return outcome.run().completed() ? 0 : Bg.FAILED;
        }
    }

    /**
     * The run on the workers given by --workers [SPEC §14]: each emulates its own members with its share of T and
     * validates its own reads; the coordinator merges their seconds live and their results at the end. The workers
     * keep their expected state between runs while they live; a fresh worker assumes the graph as loaded.
     */
    private int runWithWorkers(PrintWriter stdout, PrintWriter err, StoreProvider provider, Parameters params,
                               StoreSettings settings, SocialGraph graph, WorkloadSpec ws, EmulatorConfig ec,
                               ValidationOptions validation, Duration betaDuration, Path resultFile) throws IOException {
        if (ec.operations() > 0) {
            throw new InvalidParameterException("--operations", "runs with --workers are timed; use --duration");
        }
        java.util.Map<String, String> all = new java.util.TreeMap<>(settings.asMap());
        all.putAll(params.asMap());
        try (ClusterCoordinator c = cluster.connect(err)) {
            boolean loaded = cluster.open(c, provider.name(), all, graph, ws, ClusterOptions.storePerWorker(provider),
                    Math.max(1, ec.threads() / cluster.workers.size()), err);
            if (!loaded) {
                if (!load && !provider.name().equals("memory")) {
                    throw new org.bgbench.loader.LoadException("the store does not hold this graph; load it first "
                            + "(bg load --store " + provider.name() + " --workers ... with the same -p graph keys) or "
                            + "pass --load");
                }
                c.load(GraphParameters.intOf(params.asMap(), "numloadthreads",
                        2 * Runtime.getRuntime().availableProcessors()));
            }
            err.printf("bg: running %s on %s with %d workers: T=%d (%s per worker), %s%n", ws.mixName(),
                    provider.name(), c.names().size(), ec.threads(),
                    java.util.Arrays.toString(c.plan().threads(ec.threads())), Durations.format(ec.duration()));
            ClusterCoordinator.Outcome o = c.run(ec.threads(), ec.duration(), ec.warmup(), betaDuration, ec.seed(),
                    validation != null, validation == null ? 0.01 : validation.tauPct(), resultFile,
                    quiet ? null : err);
            stdout.print(SummaryPrinter.summary(o.result()));
            stdout.print(RunValidation.summary(o.result().unpredictable()));
            Object chi = o.result().config().get("chi_square_measured");
            stdout.printf(java.util.Locale.ROOT, "Workers  %d, χ² of the global distribution vs the centralised one: "
                    + "%s (planned %s)%n", c.names().size(), chi, o.result().config().get("chi_square_planned"));
            if (!o.completed()) {
                stdout.println("Failed: " + o.reason());
                err.println("bg: error: the run failed: " + o.reason());
            }
            stdout.println("Result: " + resultFile.toAbsolutePath());
            return o.completed() ? 0 : Bg.FAILED;
        }
    }

    private Parameters parameters() {
        Parameters params = storeOptions.parameters();
        if (workload != null) {
            Path file = Path.of(workload);
            if (Files.isRegularFile(file)) {
                Parameters fromFile = Parameters.of(java.util.List.of(file), java.util.List.of());
                Parameters merged = Parameters.of(java.util.List.of(), java.util.List.of());
                fromFile.asMap().forEach((k, v) -> merged.put(k, v, file.toString()));
                params.asMap().forEach((k, v) -> merged.put(k, v, "-p"));
                params = merged;
            } else if (Mixes.find(workload).isPresent()) {
                params.put("mix", workload, "-p");
            } else {
                throw new InvalidParameterException("--workload", "'" + workload
                        + "' is neither a file nor a named mix; named mixes: " + String.join(", ", Mixes.names()));
            }
        }
        if (threads != null) {
            if (threads < 1) {
                throw new InvalidParameterException("--threads", "T must be at least 1, got " + threads);
            }
            params.put("threadcount", Integer.toString(threads), "-p");
        }
        return params;
    }

    static void checkFeasible(WorkloadSpec ws, SocialGraph graph) {
        if (ws.mix().needsPendingInvitations() && graph.totalPendingInvitations() == 0) {
            throw new InvalidParameterException("mix", "the mix accepts or rejects friend requests but issues no "
                    + "Invite Friend and the graph starts with no pending invitation (confperc="
                    + graph.spec().confirmedFraction() + "); set confperc below 1 or add InviteFriendAction");
        }
    }

    private EmulatorConfig emulatorConfig(WorkloadSpec ws, EmulatorConfig.ThreadKind kind) {
        Duration measured;
        Duration warm = Duration.ZERO;
        long warmOps = 0;
        Warmup w = ws.warmup();
        if (warmup != null) {
            String text = warmup.trim();
            if (text.matches("\\d+")) {
                long n = Long.parseLong(text);
                w = n == 0 ? Warmup.NONE : new Warmup.Requests(n);
            } else {
                Duration d = Durations.parse("--warmup", text);
                if (d.isNegative()) {
                    throw new InvalidParameterException("--warmup", "must not be negative, got " + warmup);
                }
                w = d.isZero() ? Warmup.NONE : new Warmup.Time(d);
            }
        }
        if (w instanceof Warmup.Time t) {
            warm = t.duration();
        } else if (w instanceof Warmup.Requests r) {
            warmOps = r.requests();
        }
        long ops = operations != null ? operations : ws.operations();
        if (duration != null) {
            measured = Durations.parse("--duration", duration);
            if (operations == null) {
                ops = 0;
            }
        } else if (ws.maxExecutionTime().isZero()) {
            measured = Duration.ofDays(365);
        } else {
            measured = ws.maxExecutionTime().minus(warm);
            if (measured.isNegative() || measured.isZero()) {
                throw new InvalidParameterException("maxexecutiontime", "must be longer than the warm-up "
                        + Durations.format(warm));
            }
        }
        return new EmulatorConfig(ws.threads(), measured, ops, warm, warmOps, (int) ws.thinkTime().toMillis(),
                (int) ws.interArrivalTime().toMillis(), ws.topK(), ws.commentLength(), ws.locks(),
                ws.uniqueSocialites(), ws.seed(), kind);
    }

    /** Makes sure the store holds this graph (loading it if asked) and returns the state it is in. */
    private GraphState prepare(DataStore store, StoreProvider provider, SocialGraph graph, StateFiles states,
                               Path stateFile, Parameters params, PrintWriter err) throws IOException {
        String want = graph.spec().fingerprint();
        var held = store.loadedGraph();
        if (held.isPresent() && held.get().equals(want)) {
            return states.load(stateFile, graph);
        }
        if (!load && !"memory".equals(provider.name())) {
            throw new LoadException(held.isEmpty()
                    ? "the store holds no BG graph; load it first (bg load --store " + provider.name()
                            + " with the same -p graph keys) or pass --load"
                    : "the store holds a different graph (" + held.get() + ") than the one asked for (" + want
                            + "); run bg load with the same graph keys, or pass --load to replace it");
        }
        int loaders = GraphParameters.intOf(params.asMap(), "numloadthreads", 2 * Runtime.getRuntime().availableProcessors());
        err.println("bg: loading the graph into " + provider.name() + " first");
        LoadCommand.load(store, graph, loaders, true, err);
        states.delete(stateFile);
        return new GraphState(graph);
    }

    static Path defaultOut(String store, String mix, int threads) {
        String stamp = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
        return Path.of("runs", stamp + "-" + store + "-" + mix + "-T" + threads + ".json");
    }
}
