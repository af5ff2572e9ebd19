package org.bgbench.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.bgbench.emulator.EmulatorConfig;
import org.bgbench.measurement.CpuResult;
import org.bgbench.measurement.RunResult;
import org.bgbench.measurement.SeriesPoint;
import org.bgbench.measurement.report.ReportFiles;
import org.bgbench.model.Action;
import org.bgbench.model.Durations;
import org.bgbench.model.InvalidParameterException;
import org.bgbench.model.generator.SocialGraph;
import org.bgbench.rating.DeltaAnalyzer;
import org.bgbench.runner.Experiment;
import org.bgbench.runner.ExperimentSpec;
import org.bgbench.runner.LocalStore;
import org.bgbench.runner.OutputGuard;
import org.bgbench.runner.Parameters;
import org.bgbench.runner.RunKeys;
import org.bgbench.runner.delta.DeltaExperiments;
import org.bgbench.store.StoreException;
import org.bgbench.store.StoreProvider;
import org.bgbench.store.StoreRegistry;
import org.bgbench.store.StoreSettings;
import org.bgbench.workload.WorkloadSpec;
import org.bgbench.workload.mix.Mixes;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(
        name = "delta",
        mixinStandardHelpOptions = true,
        header = "Find the shortest experiment duration δ that suffices.",
        description = "Delta Analyzer (dissertation 7.3): the shortest experiment duration δ that gives the same "
                + "throughput as Δ. --method experiments (the default, dissertation 7.3.1): finds the T that fills "
                + "one of the store hosts' resources (CPU, disk, network), then runs separate experiments at that T "
                + "with δ = 1, 2, 4, … s, each from a reset store, until m consecutive ones agree within π %% and "
                + "issue the specified mix; δ = Δ (--duration) otherwise. --method windows: one run of Δ cut into "
                + "windows.")
final class DeltaCommand implements Callable<Integer> {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    /** A doubling of T that raises CPU and throughput by less than this fraction means T saturates. */
    private static final double RISE = 0.10;

    @Spec
    CommandSpec spec;

    @Mixin
    StoreOptions storeOptions;

    @Mixin
    StoreHostOptions storeHosts = new StoreHostOptions();

    @Option(
            names = "--method",
            paramLabel = "METHOD",
            defaultValue = "experiments",
            description = "experiments: separate experiments with doubling δ (dissertation 7.3.1); windows: "
                    + "windows of one run of Δ (default ${DEFAULT-VALUE}).")
    String method;

    @Option(
            names = "--inflation",
            paramLabel = "C",
            defaultValue = "1.5",
            description = "experiments: the inflation factor c of the T search; the next probe runs c × T / u "
                    + "threads, u the busiest resource's utilisation (default ${DEFAULT-VALUE}).")
    double inflation;

    @Option(
            names = "--network-mbps",
            paramLabel = "MBPS",
            description = "experiments: each store host's link speed in Mbit/s, so the T search judges the network "
                    + "too (a node exporter does not know it; default: not judged).")
    Double networkMbps;

    @Option(
            names = "--reset",
            paramLabel = "MODE",
            defaultValue = "auto",
            description = "experiments: how each experiment starts from the loaded graph: image, repair, reload, or "
                    + "auto (the image when the store has one, else RepairDB; default ${DEFAULT-VALUE}).")
    String reset;

    @Option(names = "--load", description = "Load the graph first if the store does not hold it.")
    boolean load;

    @Option(
            names = "--workload",
            paramLabel = "NAME",
            defaultValue = "high",
            description = "A named mix (default ${DEFAULT-VALUE}).")
    String workload;

    @Option(
            names = "--threads",
            paramLabel = "T",
            description = "T of the experiments (windows: of the long run); default: found by probing.")
    Integer threads;

    @Option(
            names = "--duration",
            paramLabel = "DURATION",
            defaultValue = "60s",
            description =
                    "Δ: the longest experiment (experiments), the long run (windows) " + "(default ${DEFAULT-VALUE}).")
    String duration;

    @Option(
            names = "--pi",
            paramLabel = "PCT",
            defaultValue = "10",
            description = "π: tolerated deviation of an experiment's (a window's) throughput from the m's mean, %% "
                    + "(default ${DEFAULT-VALUE}).")
    double pi;

    @Option(
            names = "--m",
            paramLabel = "M",
            defaultValue = "3",
            description = "Consecutive experiments (windows) that must agree (default ${DEFAULT-VALUE}).")
    int m;

    @Option(
            names = "--deltas",
            paramLabel = "S[,S…]",
            hideParamSyntax = true,
            split = ",",
            description = "windows: candidate δs in seconds (default 1,2,3,5,10,15,20,30,60,120,…).")
    List<Integer> deltas;

    @Option(
            names = "--skip",
            paramLabel = "S",
            defaultValue = "0",
            description = "windows: seconds at the start of the measured series left out (default ${DEFAULT-VALUE}).")
    int skip;

    @Option(
            names = "--mix-tolerance",
            paramLabel = "SHARE",
            defaultValue = "0.05",
            description = "Tolerated absolute difference between an action's issued and configured share "
                    + "(default ${DEFAULT-VALUE}).")
    double mixTolerance;

    @Option(
            names = "--warmup",
            paramLabel = "DURATION",
            defaultValue = "1s",
            description = "Warm-up of every run, not measured (default ${DEFAULT-VALUE}).")
    String warmup;

    @Option(
            names = "--probe",
            paramLabel = "DURATION",
            defaultValue = "5s",
            description = "Length of each probe run while looking for a saturating T (default ${DEFAULT-VALUE}).")
    String probe;

    @Option(
            names = "--max-threads",
            paramLabel = "T",
            defaultValue = "1024",
            description = "Largest T to probe (default ${DEFAULT-VALUE}).")
    int maxThreads;

    @Option(names = "--out", paramLabel = "FILE", description = "Result JSON (default runs/delta-<time>.json).")
    Path out;

    /**
     * Why δ may never converge for a feed workload (dissertation 7.3, figure 7.12): Share Resource grows the data, so
     * throughput keeps drifting with the run's length; null when the mix does not grow the data or δ converged.
     */
    static String growthNote(DeltaAnalyzer.Result result, WorkloadSpec ws) {
        List<Double> w = result.windowThroughputs();
        boolean falling = w.size() >= 2 && w.get(w.size() - 1) < w.get(0);
        return growthNote(result.converged(), falling, "from window to window", ws);
    }

    /** As {@link #growthNote(DeltaAnalyzer.Result, WorkloadSpec)}; {@code falling}: throughput fell {@code how}. */
    static String growthNote(boolean converged, boolean falling, String how, WorkloadSpec ws) {
        if (converged || !ws.mix().growsData()) {
            return null;
        }
        return String.format(
                Locale.ROOT,
                "the mix shares resources (SR %.2f %% of requests): every share makes later "
                        + "feeds larger%s, so no δ shorter than Δ gives Δ's answer; compare feed designs by "
                        + "throughput versus T at one duration with bg sweep instead of a SoAR (dissertation 7.3, "
                        + "figure 7.12)",
                100 * ws.mix().perRequest(Action.SR),
                falling ? " and throughput fell " + how : "");
    }

    @Override
    public Integer call() throws IOException {
        String how = method.trim().toLowerCase(Locale.ROOT);
        if (how.equals("experiments")) {
            return new DeltaByExperiments(this).call();
        }
        if (!how.equals("windows")) {
            throw new InvalidParameterException("--method", "expected experiments or windows, got '" + method + "'");
        }
        for (String o : List.of("--inflation", "--network-mbps", "--reset")) {
            if (spec.commandLine().getParseResult().hasMatchedOption(o)) {
                throw new InvalidParameterException(o, "applies to --method experiments only");
            }
        }
        return windows();
    }

    /** Today's method: windows of one long run at a saturating T. */
    private Integer windows() throws IOException {
        PrintWriter stdout = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        DeltaAnalyzer.Settings settings = new DeltaAnalyzer.Settings(pi, m, deltas, skip, mixTolerance);
        Duration big = Durations.parse("--duration", duration);
        settings.checkLength("--duration", big.toMillis() / 1000.0);
        Duration warm = Durations.parse("--warmup", warmup);
        Duration probeDuration = Durations.parse("--probe", probe);
        if (threads != null && threads < 1) {
            throw new InvalidParameterException("--threads", "T must be at least 1, got " + threads);
        }
        if (maxThreads < 1) {
            throw new InvalidParameterException("--max-threads", "must be at least 1, got " + maxThreads);
        }
        if (probeDuration.isZero() || probeDuration.isNegative()) {
            throw new InvalidParameterException("--probe", "must be longer than 0");
        }
        StoreProvider provider = storeOptions.provider(StoreRegistry.discover());
        Parameters params = storeOptions.parameters();
        if (Mixes.find(workload).isEmpty()) {
            throw new InvalidParameterException(
                    "--workload",
                    "'" + workload + "' is not a named mix; named mixes: " + String.join(", ", Mixes.names()));
        }
        params.put("mix", workload, "--workload");
        ExperimentSetup setup =
                ExperimentSetup.checked(provider, params, err).withStoreGraph(storeOptions, load, false, err);
        ExperimentSetup.Plan plan = setup.plan();
        SocialGraph graph = plan.graph();
        WorkloadSpec ws = plan.workload();
        List<String> hosts = storeHosts.resolve(err);
        EmulatorConfig.ThreadKind kind = setup.threadKind();
        StoreSettings storeSettings = setup.storeSettings(storeOptions);
        Path file = out != null
                ? out
                : Path.of(
                        "runs",
                        "delta-" + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"))
                                + ".json");
        OutputGuard.file("--out", file);
        OutputGuard.runResult("--out", runFile(file));
        int loaders = setup.loaders();
        try (LocalStore store = LocalStore.open(
                provider,
                storeSettings,
                graph,
                load ? LocalStore.IfMissing.LOAD : LocalStore.IfMissing.REFUSE,
                loaders,
                RunKeys.verifySample(params),
                err)) {
            // The analysis goes through a space reserve; a file still not written is named after the figures.
            ReportFiles files = new ReportFiles();
            files.reserve(file);
            Runner runner = new Runner(
                    store,
                    ws,
                    ExperimentSpec.timed(ws, 1, big, warm, kind, ExperimentSpec.DEFAULT_BETA, null)
                            .withStoreHosts(hosts),
                    files);
            List<Map<String, Object>> probes = new ArrayList<>();
            int t = threads != null ? threads : saturatingThreads(runner, probeDuration, probes, err);
            err.printf(
                    Locale.ROOT,
                    "bg: delta run: %s on %s, T=%d for %s%n",
                    workload,
                    provider.name(),
                    t,
                    Durations.format(big));
            Path runFile = runFile(file);
            if (file.getParent() != null) {
                Files.createDirectories(file.getParent());
            }
            RunResult r = runner.run(t, big, runFile);
            List<SeriesPoint> series = r.series();
            double[] perSecond =
                    series.stream().mapToDouble(SeriesPoint::throughput).toArray();
            if (perSecond.length < settings.minimumSeconds()) {
                throw new StoreException("the run measured only " + perSecond.length
                        + " s of series; the analysis needs " + settings.minimumSeconds() + " s");
            }
            DeltaAnalyzer.Result result = DeltaAnalyzer.analyze(perSecond, settings, r.durationS());
            double mixDeviation = wholeRunMixDeviation(r, ws);

            Map<String, Object> json = new LinkedHashMap<>();
            json.put("format", "bg-delta/1"); // first: OutputGuard recognises BG's files by it
            json.put("store", provider.name());
            json.put("workload", workload);
            json.put("threads", t);
            json.put("threads_source", threads != null ? "--threads" : "probed");
            json.put("duration_s", r.durationS());
            json.put("throughput", r.throughput());
            json.putAll(result.toMap());
            String growth = growthNote(result, ws);
            if (growth != null) {
                json.put("grows_data", growth);
            }
            json.put("mix_check", "whole run only (the series has no per-second counts per action)");
            json.put("mix_deviation_whole_run", mixDeviation);
            json.put("mix_ok_whole_run", mixDeviation <= mixTolerance);
            json.put("probes", probes);
            json.put("series_throughput", perSecond);
            json.put("run_result", runFile.toString());
            files.write(file, JSON.writeValueAsString(json));
            files.release();

            stdout.printf(
                    Locale.ROOT,
                    "T=%d, %s measured, %,.0f actions/s overall%n",
                    t,
                    Durations.format(big),
                    r.throughput());
            stdout.printf(
                    Locale.ROOT, "δ = %s s%s%n", fmt(result.deltaS()), result.converged() ? "" : " (Δ, not converged)");
            stdout.println("window throughputs (actions/s): "
                    + result.windowThroughputs().stream()
                            .map(v -> String.format(Locale.ROOT, "%,.1f", v))
                            .toList());
            stdout.println("reason: " + result.reason());
            if (growth != null) {
                stdout.println("  ! " + growth);
            }
            if (mixDeviation > mixTolerance) {
                stdout.printf(
                        Locale.ROOT,
                        "  ! the issued mix differs from the configured one by %.3f over the run " + "(tolerance %s)%n",
                        mixDeviation,
                        fmt(mixTolerance));
            }
            stdout.println("Result: " + file.toAbsolutePath());
            String unwritten = files.errorLine("the analysis above");
            if (unwritten != null) {
                err.println(unwritten);
                return Bg.FAILED;
            }
            return 0;
        }
    }

    /** Doubles T from 1 in probe runs until CPU or throughput stops rising by more than {@link #RISE}. */
    private int saturatingThreads(
            Runner runner, Duration probeDuration, List<Map<String, Object>> probes, PrintWriter err) {
        int t = 1;
        double lastTp = -1;
        Double lastCpu = null;
        while (true) {
            RunResult r = runner.run(t, probeDuration, null);
            Double cpu = storeCpu(r.cpu());
            Map<String, Object> p = new LinkedHashMap<>();
            p.put("threads", t);
            p.put("throughput", r.throughput());
            p.put("cpu_cores", cpu);
            p.put("cpu_source", r.cpu() != null && r.cpu().storeCores() != null ? "store_cores" : "bg_cores");
            probes.add(p);
            err.printf(
                    Locale.ROOT,
                    "bg: probe T=%d: %,.0f actions/s, CPU %s cores%n",
                    t,
                    r.throughput(),
                    cpu == null ? "?" : String.format(Locale.ROOT, "%.2f", cpu));
            if (lastTp >= 0) {
                boolean tpFlat = r.throughput() <= lastTp * (1 + RISE);
                boolean cpuFlat = cpu != null && lastCpu != null && cpu <= lastCpu * (1 + RISE);
                if (tpFlat || cpuFlat) {
                    int chosen = t / 2;
                    err.printf(
                            Locale.ROOT,
                            "bg: T=%d saturates the store (%s stopped rising at T=%d)%n",
                            chosen,
                            tpFlat ? "throughput" : "CPU",
                            t);
                    return chosen;
                }
            }
            if (t * 2 > maxThreads) {
                err.printf(Locale.ROOT, "bg: warning: still rising at --max-threads; using T=%d%n", t);
                return t;
            }
            lastTp = r.throughput();
            lastCpu = cpu;
            t *= 2;
        }
    }

    /** The store's CPU, or BG's when the store has no process of its own (in-process stores). */
    private static Double storeCpu(CpuResult cpu) {
        if (cpu == null) {
            return null;
        }
        return cpu.storeCores() != null ? cpu.storeCores() : cpu.bgCores();
    }

    /** Largest absolute difference between an action's issued and configured share over the whole run. */
    static double wholeRunMixDeviation(RunResult r, WorkloadSpec ws) {
        return DeltaExperiments.mixDeviation(r, ws);
    }

    private static String fmt(double d) {
        return d == Math.rint(d) ? Long.toString((long) d) : String.format(Locale.ROOT, "%.1f", d);
    }

    /** Runs experiments against one store, keeping BG's state between them (validation off). */
    private record Runner(LocalStore store, WorkloadSpec ws, ExperimentSpec template, ReportFiles files, int[] count) {
        Runner(LocalStore store, WorkloadSpec ws, ExperimentSpec template, ReportFiles files) {
            this(store, ws, template, files, new int[1]);
        }

        RunResult run(int threads, Duration duration, Path out) {
            count[0]++;
            Experiment.Outcome o = store.run(
                    ws,
                    template.withThreads(threads).withDuration(duration).withSeed(template.seed() + count[0]),
                    out,
                    null);
            files.failed(o.unwritten());
            if (!o.run().completed() || o.unsealed() != null) {
                throw new StoreException("the run at T=" + threads + " stopped: "
                        + (o.unsealed() != null ? o.unsealed() : o.run().abortReason()));
            }
            return o.result();
        }
    }

    /** The long run the analysis reads, beside the result. */
    private static Path runFile(Path file) {
        return file.resolveSibling(file.getFileName().toString().replaceFirst("\\.json$", "") + "-run.json");
    }
}
