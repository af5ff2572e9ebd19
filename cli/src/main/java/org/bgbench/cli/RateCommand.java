package org.bgbench.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import org.bgbench.emulator.EmulatorConfig;
import org.bgbench.model.Durations;
import org.bgbench.model.GraphParameters;
import org.bgbench.model.InvalidParameterException;
import org.bgbench.model.generator.SocialGraph;
import org.bgbench.model.state.GraphState;
import org.bgbench.rating.LocalSearch;
import org.bgbench.rating.Rating;
import org.bgbench.rating.RatingListener;
import org.bgbench.rating.RatingReport;
import org.bgbench.rating.RatingResult;
import org.bgbench.rating.RatingSettings;
import org.bgbench.rating.Sla;
import org.bgbench.rating.Target;
import org.bgbench.store.DataStore;
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

@Command(name = "rate", mixinStandardHelpOptions = true,
        description = {"Rate a loaded store [SPEC §11]: SoAR (the highest throughput that meets the SLA) and Socialites",
            "(the most simultaneous members that meet it), by a search over T. Every experiment is printed and saved",
            "as it finishes; the rating ends with a JSON, an SVG chart and an HTML report."})
final class RateCommand implements Callable<Integer> {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    @Spec
    CommandSpec spec;

    @Mixin
    StoreOptions storeOptions;

    @Option(names = "--workload", paramLabel = "NAME", defaultValue = "high",
            description = "A named mix (default ${DEFAULT-VALUE}).")
    String workload;

    @Option(names = "--sla", paramLabel = "α:β:τ:Δ", defaultValue = "95%:100ms:0.01%:60s",
            description = "SLA: α %% of actions within β, at most τ %% unpredictable reads, confirmation run Δ "
                    + "(default ${DEFAULT-VALUE}).")
    String sla;

    @Option(names = "--target", defaultValue = "both", description = "soar, socialites or both (default ${DEFAULT-VALUE}).")
    String target;

    @Option(names = "--delta", paramLabel = "DURATION", defaultValue = "10s",
            description = "δ, length of each search experiment (default ${DEFAULT-VALUE}); Δ confirms the result.")
    String delta;

    @Option(names = "--search", defaultValue = "optimal", description = "Local search: optimal or approximate "
            + "(default ${DEFAULT-VALUE}).")
    String search;

    @Option(names = "--climbing-factor", defaultValue = "2", description = "r, T's factor while climbing (default ${DEFAULT-VALUE}).")
    double climbingFactor;

    @Option(names = "--max-threads", defaultValue = "1024", description = "Largest T to try (default ${DEFAULT-VALUE}).")
    int maxThreads;

    @Option(names = "--warmup", paramLabel = "DURATION", defaultValue = "2s", description = "Warm-up of each experiment (default ${DEFAULT-VALUE}).")
    String warmup;

    @Option(names = "--reset", defaultValue = "auto", description = "How the store is reset between experiments: "
            + "auto, loadfree, repair, image or reload (default ${DEFAULT-VALUE}).")
    String reset;

    @Option(names = "--no-confirm", description = "Skip the confirmation run of length Δ.")
    boolean noConfirm;

    @Option(names = "--out", paramLabel = "DIR", description = "Directory for the rating (default runs/rate-<time>-<store>).")
    Path out;

    @Mixin
    ClusterOptions cluster = new ClusterOptions();

    @Override
    public Integer call() throws IOException {
        PrintWriter stdout = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        StoreProvider provider = storeOptions.provider(StoreRegistry.discover());
        Parameters params = storeOptions.parameters();
        if (Mixes.find(workload).isEmpty()) {
            throw new InvalidParameterException("--workload", "'" + workload + "' is not a named mix; named mixes: "
                    + String.join(", ", Mixes.names()));
        }
        params.put("mix", workload, "--workload");
        params.check(k -> Keys.isRunKey(provider, k), Keys.forRun(provider).keySet(), Keys.IGNORED_USC);
        Sla theSla = Sla.parse("--sla", sla);
        Duration deltaDuration = Durations.parse("--delta", delta);
        theSla.checkExperimentDuration("--delta", deltaDuration);
        RatingSettings settings = RatingSettings.builder(theSla)
                .experimentDuration(deltaDuration)
                .climbingFactor(climbingFactor)
                .localSearch(switch (search.toLowerCase(Locale.ROOT)) {
                    case "optimal" -> LocalSearch.OPTIMAL;
                    case "approximate" -> LocalSearch.APPROXIMATE;
                    default -> throw new InvalidParameterException("--search", "expected optimal or approximate, got '"
                            + search + "'");
                })
                .targets(targets())
                .confirm(!noConfirm)
                .maxThreads(maxThreads)
                .build();
        RatingRunner.Reset resetMode = RatingRunner.Reset.parse(reset);
        Duration warm = Durations.parse("--warmup", warmup);
        SocialGraph graph = new SocialGraph(GraphParameters.toSpec(params.asMap()));
        WorkloadSpec ws = WorkloadParameters.toSpec(params.asMap());
        RunCommand.checkFeasible(ws, graph);
        ValidationOptions validation = Keys.validation(params);
        ValidationOptions quiet = validation == null ? null
                : new ValidationOptions(validation.memoryBytes(), validation.threads(), validation.buckets(),
                        theSla.tauPct(), false);
        EmulatorConfig template = new EmulatorConfig(1, deltaDuration, 0, warm, 0, (int) ws.thinkTime().toMillis(),
                (int) ws.interArrivalTime().toMillis(), ws.topK(), ws.commentLength(), ws.locks(),
                ws.uniqueSocialites(), ws.seed(), Keys.threadKind(params));
        StoreSettings storeSettings = storeOptions.settings(provider, params);
        Path dir = out != null ? out : Path.of("runs", "rate-"
                + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")) + "-" + provider.name());
        Files.createDirectories(dir);
        StateFiles states = StateFiles.defaultLocation();
        Path stateFile = states.fileFor(provider.name(), storeSettings);
        int loaders = GraphParameters.intOf(params.asMap(), "numloadthreads", 2 * Runtime.getRuntime().availableProcessors());
        long t0 = System.nanoTime();
        if (cluster.active()) {
            Map<String, String> all = new java.util.TreeMap<>(storeSettings.asMap());
            all.putAll(params.asMap());
            try (ClusterCoordinator c = cluster.connect(err)) {
                if (!cluster.open(c, provider.name(), all, graph, ws, ClusterOptions.storePerWorker(provider), 4, err)) {
                    if (!provider.name().equals("memory")) {
                        throw new org.bgbench.loader.LoadException("the store does not hold this graph; load it first "
                                + "(bg load --store " + provider.name() + " --workers ... with the same -p graph keys)");
                    }
                    c.load(loaders);
                }
                ClusterRatingRunner runner = new ClusterRatingRunner(c, ws, template, theSla, validation != null, dir,
                        err, resetMode, loaders, cluster.keepGoing);
                runner.prepareImage();
                return rate(stdout, err, settings, runner, runner, provider.name(), theSla, deltaDuration, dir, t0,
                        () -> { });
            }
        }
        try (DataStore store = provider.open(storeSettings)) {
            GraphState state = states.stateOfLoaded(store, provider.name(), graph, stateFile, loaders, err);
            RatingRunner runner = new RatingRunner(store, provider.name(), storeSettings.asMap(), state, ws, template,
                    theSla.beta(), quiet, dir, err, resetMode, loaders);
            runner.prepareImage();
            return rate(stdout, err, settings, runner, runner, provider.name(), theSla, deltaDuration, dir, t0, () -> {
                if (runner.state() != null && ws.mix().writeFraction() > 0) {
                    states.save(stateFile, runner.state());
                }
            });
        }
    }

    /** What a rating runner did between experiments, for the rating-time model. */
    interface Resets {
        Map<String, Integer> resets();

        Map<String, Double> resetSecondsBy();

        long[] repaired();

        java.util.List<String> notes();
    }

    /** Runs the rating, prints each experiment, writes the JSON, SVG and HTML reports, prints the result. */
    private int rate(PrintWriter stdout, PrintWriter err, RatingSettings settings,
                     org.bgbench.rating.ExperimentRunner runner, Resets resets, String storeName, Sla theSla,
                     Duration deltaDuration, Path dir, long t0, IoAction afterwards) throws IOException {
        double zeta = (System.nanoTime() - t0) / 1e9;
        err.printf("bg: rating %s with the %s mix, SLA %s, δ=%s%n", storeName, workload, theSla,
                Durations.format(deltaDuration));
        stdout.printf("%4s %7s %12s %9s %14s %7s  %s%n", "#", "T", "actions/s", "≤β %", "unpredictable", "ok", "phase");
        stdout.flush();
        Rating rating = new Rating(settings, runner).listener(new RatingListener() {
            @Override
            public void experimentFinished(org.bgbench.rating.Experiment e) {
                stdout.printf(Locale.ROOT, "%4d %7d %,12.0f %9.2f %13.4f%% %7s  %s%n", e.index(), e.threads(),
                        e.throughput(), e.measurement().withinBetaPct(), e.measurement().unpredictablePct(),
                        e.success() ? "yes" : "no", e.phase());
                stdout.flush();
            }

            @Override
            public void warning(String w) {
                err.println("bg: warning: " + w);
            }
        });
        RatingResult result = rating.rate();
        afterwards.run();
        double total = (System.nanoTime() - t0) / 1e9;
        Map<String, Object> json = new LinkedHashMap<>(result.toMap());
        RatingTime time = RatingTime.of(result, resets, zeta, deltaDuration, total);
        json.put("rating_time", time.toMap());
        if (!resets.notes().isEmpty()) {
            json.put("reset_notes", resets.notes());
        }
        json.put("store", storeName);
        json.put("workload", workload);
        if (cluster.active()) {
            json.put("workers", cluster.workers);
        }
        write(dir.resolve("rating.json"), JSON.writeValueAsString(json));
        write(dir.resolve("rating.svg"), RatingReport.svg(result));
        write(dir.resolve("rating.html"), RatingReport.html(result, "BG rating of " + storeName + " ("
                + workload + " mix)"));
        stdout.println();
        result.soar().ifPresent(s -> stdout.printf(Locale.ROOT, "SoAR       %,.0f actions/s at T=%d (%s)%n",
                s.actionsPerSecond(), s.threads(), s.status()));
        result.socialites().ifPresent(s -> stdout.printf(Locale.ROOT, "Socialites %d (%,.0f actions/s, %s)%n",
                s.threads(), s.throughput(), s.status()));
        stdout.printf(Locale.ROOT, "%d experiments in %.0f s%n", result.experimentsRun(), total);
        stdout.print(time.describe());
        resets.notes().forEach(n -> stdout.println("  ! " + n));
        result.warnings().forEach(w -> stdout.println("  ! " + w));
        result.stopReason().ifPresent(r -> stdout.println("Stopped early: " + r));
        stdout.println("Report: " + dir.resolve("rating.html").toAbsolutePath());
        return result.complete() ? 0 : Bg.FAILED;
    }

    @FunctionalInterface
    interface IoAction {
        void run() throws IOException;
    }

    private Set<Target> targets() {
        return switch (target.toLowerCase(Locale.ROOT)) {
            case "soar" -> EnumSet.of(Target.SOAR);
            case "socialites" -> EnumSet.of(Target.SOCIALITES);
            case "both" -> EnumSet.allOf(Target.class);
            default -> throw new InvalidParameterException("--target", "expected soar, socialites or both, got '"
                    + target + "'");
        };
    }

    private static void write(Path file, String text) throws IOException {
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.writeString(tmp, text);
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }
}
