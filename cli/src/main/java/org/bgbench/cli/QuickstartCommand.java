package org.bgbench.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.bgbench.emulator.EmulatorConfig;
import org.bgbench.measurement.RunResult;
import org.bgbench.model.Durations;
import org.bgbench.model.GraphParameters;
import org.bgbench.model.InvalidParameterException;
import org.bgbench.model.generator.SocialGraph;
import org.bgbench.rating.RatingHeadline;
import org.bgbench.rating.RatingListener;
import org.bgbench.rating.RatingReport;
import org.bgbench.rating.RatingResult;
import org.bgbench.rating.RatingSettings;
import org.bgbench.rating.Sla;
import org.bgbench.runner.Experiment;
import org.bgbench.runner.ExperimentSpec;
import org.bgbench.runner.Loading;
import org.bgbench.runner.LocalStore;
import org.bgbench.runner.OutputGuard;
import org.bgbench.runner.Parameters;
import org.bgbench.runner.RunKeys;
import org.bgbench.runner.ValidationOptions;
import org.bgbench.runner.rating.LocalExecutor;
import org.bgbench.runner.rating.RatingRunner;
import org.bgbench.runner.rating.RatingSession;
import org.bgbench.runner.rating.ResetPolicy;
import org.bgbench.store.StoreException;
import org.bgbench.store.StoreProvider;
import org.bgbench.store.StoreRegistry;
import org.bgbench.store.StoreSettings;
import org.bgbench.workload.WorkloadParameters;
import org.bgbench.workload.WorkloadSpec;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(
        name = "quickstart",
        mixinStandardHelpOptions = true,
        header = "Try BG on embedded SQLite: load, run at a few T, then rate.",
        description = "BG's main job on the embedded default: load a small graph into SQLite if it is not there, run "
                + "the low mix (1 %% writes) at a few thread counts, print throughput and p95 per thread count.")
final class QuickstartCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(
            names = "--store",
            paramLabel = "NAME",
            defaultValue = "sqlite",
            description = "Store (default ${DEFAULT-VALUE}).")
    String store;

    @Option(
            names = "--threads",
            paramLabel = "T[,T…]",
            hideParamSyntax = true,
            split = ",",
            defaultValue = "1,4,16",
            description = "Thread counts (default ${DEFAULT-VALUE}).")
    List<Integer> threads;

    @Option(
            names = "--duration",
            paramLabel = "DURATION",
            defaultValue = "5s",
            description = "Measured time per thread count (default ${DEFAULT-VALUE}).")
    String duration;

    @Option(
            names = "--workload",
            paramLabel = "NAME",
            defaultValue = "low",
            description = "Named mix (default ${DEFAULT-VALUE}).")
    String mix;

    @Option(names = "-p", paramLabel = "KEY=VALUE", description = "Graph or store parameter; repeatable.")
    List<String> overrides = new ArrayList<>();

    @Option(
            names = "--sla",
            paramLabel = "α:β:τ:Δ",
            defaultValue = "95%:100ms:0.01%:5s",
            description = "SLA of the closing rating (default ${DEFAULT-VALUE}).")
    String sla;

    @Option(
            names = "--rate-delta",
            paramLabel = "DURATION",
            defaultValue = "2s",
            description = "δ, length of each rating experiment (default ${DEFAULT-VALUE}).")
    String rateDelta;

    @Option(names = "--no-rate", description = "Skip the closing SoAR and Socialites rating.")
    boolean noRate;

    @Option(
            names = "--rate-max-threads",
            paramLabel = "T",
            defaultValue = "1024",
            description = "Largest T the closing rating tries (default ${DEFAULT-VALUE}).")
    int rateMaxThreads;

    @Option(
            names = "--out",
            paramLabel = "DIR",
            description = "Directory for the results (default runs/quickstart-<time>).")
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
        ValidationOptions validation = RunKeys.validation(params);
        SocialGraph graph = new SocialGraph(GraphParameters.toSpec(params.asMap()));
        StoreSettings settings = StoreSettings.forProvider(provider, params.asMap());
        Path runDir = outDir != null
                ? outDir
                : Path.of(
                        "runs",
                        "quickstart-" + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
        OutputGuard.directory("--out", runDir);
        if (rateMaxThreads < 1) {
            throw new InvalidParameterException("--rate-max-threads", "must be at least 1, got " + rateMaxThreads);
        }
        int loaders = 2 * Runtime.getRuntime().availableProcessors();
        List<RunResult> results = new ArrayList<>();
        RatingSession.Report rating = null;
        try (LocalStore db = LocalStore.open(
                provider, settings, graph, LocalStore.IfMissing.LOAD, loaders, RunKeys.verifySample(params), err)) {
            if (db.loadReport() != null) {
                out.print(Loading.describe(provider.name(), graph, db.loadReport()));
            } else {
                err.println("bg: the store already holds the quickstart graph; running on it");
            }
            for (int t : threads) {
                params.put("threadcount", Integer.toString(t), "--threads");
                WorkloadSpec ws = WorkloadParameters.toSpec(params.asMap());
                ExperimentSpec es = ExperimentSpec.timed(
                        ws,
                        t,
                        measured,
                        Duration.ofSeconds(1),
                        EmulatorConfig.ThreadKind.AUTO,
                        ExperimentSpec.DEFAULT_BETA,
                        validation);
                err.printf("bg: T=%d, %s of %s (after 1 s warm-up)%n", t, Durations.format(measured), mix);
                Experiment.Outcome o = db.run(ws, es, runDir.resolve("T" + t + ".json"), null);
                if (o.unsealed() != null) {
                    throw new StoreException(o.unsealed());
                }
                results.add(o.result());
            }
            if (!noRate) {
                rating = rate(db, params, validation, runDir, loaders, err);
            }
        }
        out.printf("%nBG quickstart: %s mix on %s, M=%,d, β=100 ms%n", mix, provider.name(), graph.members());
        out.printf(
                "%6s %12s %9s %9s %8s %8s %14s%n",
                "T", "actions/s", "p95 ms", "p99 ms", "≤β %", "errors", "unpredictable");
        for (RunResult r : results) {
            out.printf(
                    Locale.ROOT,
                    "%6d %,12.0f %9.3f %9.3f %8.2f %8d %14s%n",
                    r.threads(),
                    r.throughput(),
                    nz(r.total().p95Ms()),
                    nz(r.total().p99Ms()),
                    nz(r.total().withinBetaPct()),
                    r.total().errors(),
                    r.unpredictable() == null
                            ? "-"
                            : !r.unpredictable().verdictComplete()
                                    ? "incomplete"
                                    : String.format(Locale.ROOT, "%.4f %%", r.unpredictablePct()));
        }
        for (RunResult r : results) {
            r.bottleneckWarnings().forEach(w -> out.println("  ! T=" + r.threads() + ": " + w));
        }
        if (rating != null) {
            RatingResult rr = rating.result();
            out.println();
            out.print(RatingHeadline.lines(rr, RatingReport.Axis.THREADS, rating.noisyHost()));
            boolean soarAtCap = rr.soar().filter(r -> r.lowerBound()).isPresent();
            boolean atCap = rr.socialites().filter(r -> r.lowerBound()).isPresent();
            if (soarAtCap || atCap) {
                out.printf(
                        "  (T=%d is the most this quickstart tries: --rate-max-threads or bg rate --max-threads goes "
                                + "higher)%n",
                        rateMaxThreads);
            }
            rr.soar()
                    .ifPresent(r -> QuickstartNotes.aboveSoar(results, r, Sla.parse("--sla", sla), duration, rateDelta)
                            .forEach(out::println));
            out.printf(
                    Locale.ROOT,
                    "(SLA %s; %d experiments of %s; report %s)%n",
                    sla,
                    rr.experimentsRun(),
                    rateDelta,
                    runDir.resolve("rating/rating.html").toAbsolutePath());
            rr.warnings().stream()
                    .filter(w -> !(atCap && w.startsWith("Socialites: T=max-threads"))
                            && !(soarAtCap && w.startsWith("SoAR: the hill climbing reached")))
                    .forEach(w -> out.println("  ! " + w));
        }
        out.println("Results (JSON per thread count): " + runDir.toAbsolutePath());
        out.println("Store settings: " + Format.settings(settings.asMap()));
        return 0;
    }

    /** The closing rating: SoAR and Socialites of the store under {@link #sla}, with short experiments. */
    private RatingSession.Report rate(
            LocalStore db, Parameters params, ValidationOptions validation, Path runDir, int loaders, PrintWriter err)
            throws IOException {
        long t0 = System.nanoTime();
        Sla theSla = Sla.parse("--sla", sla);
        Duration delta = Durations.parse("--rate-delta", rateDelta);
        theSla.checkExperimentDuration("--rate-delta", delta);
        WorkloadSpec ws = WorkloadParameters.toSpec(params.asMap());
        ValidationOptions v = validation == null
                ? null
                : new ValidationOptions(
                        validation.memoryBytes(), validation.threads(), validation.buckets(), theSla.tauPct(), false);
        ExperimentSpec template = ExperimentSpec.timed(
                ws, 1, delta, Duration.ofSeconds(1), EmulatorConfig.ThreadKind.AUTO, theSla.beta(), v);
        Path dir = runDir.resolve("rating");
        Files.createDirectories(dir);
        LocalExecutor executor = new LocalExecutor(db, ws, loaders, err);
        RatingRunner runner =
                new RatingRunner(executor, ws, template, new ResetPolicy(ResetPolicy.Mode.AUTO), dir, err, false);
        err.printf(
                "bg: rating %s: SoAR and Socialites under the SLA %s, experiments of %s%n", db.name(), sla, rateDelta);
        RatingListener listener = e -> err.printf(
                Locale.ROOT,
                "bg:   T=%d %,.0f actions/s, %.2f %% within β: %s%n",
                e.threads(),
                e.throughput(),
                e.measurement().withinBetaPct(),
                e.success() ? "met" : "missed");
        return RatingSession.rate(
                RatingSettings.builder(theSla)
                        .experimentDuration(delta)
                        .maxThreads(rateMaxThreads)
                        .build(),
                runner,
                executor,
                listener,
                delta,
                dir,
                t0,
                "BG quickstart rating of " + db.name(),
                Map.of("store", db.name(), "workload", mix));
    }

    private static double nz(Double d) {
        return d == null ? Double.NaN : d;
    }
}
