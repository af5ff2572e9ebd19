package org.bgbench.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.bgbench.emulator.EmulatorConfig;
import org.bgbench.measurement.RunResult;
import org.bgbench.model.Durations;
import org.bgbench.model.GraphParameters;
import org.bgbench.model.InvalidParameterException;
import org.bgbench.model.generator.SocialGraph;
import org.bgbench.model.state.GraphState;
import org.bgbench.store.DataStore;
import org.bgbench.store.StoreProvider;
import org.bgbench.store.StoreRegistry;
import org.bgbench.store.StoreSettings;
import org.bgbench.workload.WorkloadParameters;
import org.bgbench.workload.WorkloadSpec;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

@Command(name = "quickstart", mixinStandardHelpOptions = true,
        description = {"BG's main job on the embedded default: load a small graph into SQLite if it is not there, run",
            "the low mix (1 % writes) at a few thread counts, print throughput and p95 per thread count."})
final class QuickstartCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--store", defaultValue = "sqlite", description = "Store (default ${DEFAULT-VALUE}).")
    String store;

    @Option(names = "--threads", split = ",", defaultValue = "1,4,16", description = "Thread counts (default ${DEFAULT-VALUE}).")
    List<Integer> threads;

    @Option(names = "--duration", defaultValue = "5s", description = "Measured time per thread count (default ${DEFAULT-VALUE}).")
    String duration;

    @Option(names = "--workload", defaultValue = "low", description = "Named mix (default ${DEFAULT-VALUE}).")
    String mix;

    @Option(names = "-p", paramLabel = "KEY=VALUE", description = "Graph or store parameter; repeatable.")
    List<String> overrides = new ArrayList<>();

    @Option(names = "--sla", paramLabel = "α:β:τ:Δ", defaultValue = "95%:100ms:0.01%:5s",
            description = "SLA of the closing rating (default ${DEFAULT-VALUE}).")
    String sla;

    @Option(names = "--rate-delta", paramLabel = "DURATION", defaultValue = "2s",
            description = "δ, length of each rating experiment (default ${DEFAULT-VALUE}).")
    String rateDelta;

    @Option(names = "--no-rate", description = "Skip the closing SoAR and Socialites rating.")
    boolean noRate;

    @Option(names = "--rate-max-threads", defaultValue = "1024",
            description = "Largest T the closing rating tries (default ${DEFAULT-VALUE}).")
    int rateMaxThreads;

    @Option(names = "--out", paramLabel = "DIR", description = "Directory for the results (default runs/quickstart-<time>).")
    Path outDir;

    @Override
    public Integer call() throws IOException {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        StoreProvider provider = StoreRegistry.discover().get(store);
        Parameters params = Parameters.of(List.of(), overrides);
        params.putDefault("usercount", "2000");
        params.putDefault("friendcountperuser", "50");
        params.putDefault("resourcecountperuser", "20");
        params.putDefault("sqlite.file", "bg-data/quickstart.sqlite");
        params.put("mix", mix, "--workload");
        params.check(k -> Keys.isRunKey(provider, k), Keys.forRun(provider).keySet(), Keys.IGNORED_USC);
        for (int t : threads) {
            if (t < 1) {
                throw new InvalidParameterException("--threads", "each T must be at least 1, got " + t);
            }
        }
        Duration measured = Durations.parse("--duration", duration);
        ValidationOptions validation = Keys.validation(params);
        SocialGraph graph = new SocialGraph(GraphParameters.toSpec(params.asMap()));
        StoreSettings settings = StoreSettings.forProvider(provider, params.asMap());
        StateFiles states = StateFiles.defaultLocation();
        Path stateFile = states.fileFor(provider.name(), settings);
        Path runDir = outDir != null ? outDir
                : Path.of("runs", "quickstart-" + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
        if (rateMaxThreads < 1) {
            throw new InvalidParameterException("--rate-max-threads", "must be at least 1, got " + rateMaxThreads);
        }
        List<RunResult> results = new ArrayList<>();
        org.bgbench.rating.RatingResult rating = null;
        try (DataStore db = provider.open(settings)) {
            GraphState state;
            if (db.loadedGraph().filter(graph.spec().fingerprint()::equals).isPresent()) {
                err.println("bg: the store already holds the quickstart graph; running on it");
                state = states.load(stateFile, graph);
            } else {
                err.println("bg: loading M=" + graph.members() + " φ=" + graph.spec().friendsPerMember() + " ρ="
                        + graph.resourcesPerMember() + " into " + provider.name());
                LoadCommand.print(out, provider.name(), graph,
                        LoadCommand.load(db, graph, 2 * Runtime.getRuntime().availableProcessors(), true, err));
                states.delete(stateFile);
                state = new GraphState(graph);
            }
            for (int t : threads) {
                params.put("threadcount", Integer.toString(t), "--threads");
                WorkloadSpec ws = WorkloadParameters.toSpec(params.asMap());
                EmulatorConfig ec = new EmulatorConfig(t, measured, 0, Duration.ofSeconds(1), 0,
                        (int) ws.thinkTime().toMillis(), (int) ws.interArrivalTime().toMillis(), ws.topK(),
                        ws.commentLength(), ws.locks(), ws.uniqueSocialites(), ws.seed());
                err.printf("bg: T=%d, %s of %s (after 1 s warm-up)%n", t, Durations.format(measured), mix);
                Experiment.Outcome o = Experiment.run(new Experiment.Setup(db, provider.name(), settings.asMap(), state,
                        ws, ec, Duration.ofMillis(100), runDir.resolve("T" + t + ".json"), null, validation));
                results.add(o.result());
                if (ws.mix().writeFraction() > 0) {
                    states.save(stateFile, state);
                }
            }
            if (!noRate) {
                rating = rate(db, provider, settings, state, params, validation, runDir, err, states, stateFile);
            }
        }
        out.printf("%nBG quickstart: %s mix on %s, M=%,d, β=100 ms%n", mix, provider.name(), graph.members());
        out.printf("%6s %12s %9s %9s %8s %8s %14s%n", "T", "actions/s", "p95 ms", "p99 ms", "≤β %", "errors",
                "unpredictable");
        for (RunResult r : results) {
            Object u = r.unpredictable() == null ? null : r.unpredictable().get("pct");
            out.printf(Locale.ROOT, "%6d %,12.0f %9.3f %9.3f %8.2f %8d %14s%n", r.threads(), r.throughput(),
                    nz(r.total().p95Ms()), nz(r.total().p99Ms()), nz(r.total().withinBetaPct()), r.total().errors(),
                    u == null ? "-" : String.format(Locale.ROOT, "%.4f %%", ((Number) u).doubleValue()));
        }
        for (RunResult r : results) {
            r.bottleneckWarnings().forEach(w -> out.println("  ! T=" + r.threads() + ": " + w));
        }
        if (rating != null) {
            out.println();
            rating.soar().ifPresent(r -> out.printf(Locale.ROOT, "SoAR       %,.0f actions/s at T=%d%n",
                    r.actionsPerSecond(), r.threads()));
            rating.socialites().ifPresent(r -> out.printf(Locale.ROOT, "Socialites %d simultaneous members%n",
                    r.threads()));
            out.printf(Locale.ROOT, "(SLA %s; %d experiments of %s; report %s)%n", sla, rating.experimentsRun(),
                    rateDelta, runDir.resolve("rating/rating.html").toAbsolutePath());
            rating.warnings().forEach(w -> out.println("  ! " + w));
        }
        out.println("Results (JSON per thread count): " + runDir.toAbsolutePath());
        out.println("Store: " + settings.asMap());
        return 0;
    }

    /** The closing rating: SoAR and Socialites of the store under {@link #sla}, with short experiments. */
    private org.bgbench.rating.RatingResult rate(DataStore db, StoreProvider provider, StoreSettings settings,
            GraphState state, Parameters params, ValidationOptions validation, Path runDir, PrintWriter err,
            StateFiles states, Path stateFile) throws IOException {
        org.bgbench.rating.Sla theSla = org.bgbench.rating.Sla.parse("--sla", sla);
        Duration delta = Durations.parse("--rate-delta", rateDelta);
        theSla.checkExperimentDuration("--rate-delta", delta);
        WorkloadSpec ws = WorkloadParameters.toSpec(params.asMap());
        EmulatorConfig template = new EmulatorConfig(1, delta, 0, Duration.ofSeconds(1), 0,
                (int) ws.thinkTime().toMillis(), (int) ws.interArrivalTime().toMillis(), ws.topK(), ws.commentLength(),
                ws.locks(), ws.uniqueSocialites(), ws.seed());
        ValidationOptions v = validation == null ? null : new ValidationOptions(validation.memoryBytes(),
                validation.threads(), validation.buckets(), theSla.tauPct(), false);
        Path dir = runDir.resolve("rating");
        java.nio.file.Files.createDirectories(dir);
        RatingRunner runner = new RatingRunner(db, provider.name(), settings.asMap(), state, ws, template,
                theSla.beta(), v, dir, err, RatingRunner.Reset.AUTO, 2 * Runtime.getRuntime().availableProcessors());
        err.printf("bg: rating %s: SoAR and Socialites under the SLA %s, experiments of %s%n", provider.name(), sla,
                rateDelta);
        org.bgbench.rating.RatingResult r = new org.bgbench.rating.Rating(org.bgbench.rating.RatingSettings
                .builder(theSla).experimentDuration(delta).maxThreads(rateMaxThreads).build(), runner)
                .listener(e -> err.printf(Locale.ROOT, "bg:   T=%d %,.0f actions/s, %.2f %% within β: %s%n",
                        e.threads(), e.throughput(), e.measurement().withinBetaPct(), e.success() ? "met" : "missed"))
                .rate();
        if (ws.mix().writeFraction() > 0) {
            states.save(stateFile, runner.state());
        }
        java.nio.file.Files.writeString(dir.resolve("rating.json"),
                new com.fasterxml.jackson.databind.ObjectMapper().writerWithDefaultPrettyPrinter()
                        .writeValueAsString(r.toMap()));
        java.nio.file.Files.writeString(dir.resolve("rating.svg"), org.bgbench.rating.RatingReport.svg(r));
        java.nio.file.Files.writeString(dir.resolve("rating.html"), org.bgbench.rating.RatingReport.html(r,
                "BG quickstart rating of " + provider.name()));
        return r;
    }

    private static double nz(Double d) {
        return d == null ? Double.NaN : d;
    }
}
