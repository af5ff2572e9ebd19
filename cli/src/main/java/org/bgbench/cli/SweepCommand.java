package org.bgbench.cli;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
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
import java.util.TreeSet;
import java.util.concurrent.Callable;
import org.bgbench.loader.repair.RepairDb;
import org.bgbench.measurement.KindResult;
import org.bgbench.measurement.RunResult;
import org.bgbench.measurement.Unpredictable;
import org.bgbench.measurement.report.ReportFiles;
import org.bgbench.model.Durations;
import org.bgbench.model.InvalidParameterException;
import org.bgbench.model.generator.SocialGraph;
import org.bgbench.runner.Experiment;
import org.bgbench.runner.ExperimentSpec;
import org.bgbench.runner.LocalStore;
import org.bgbench.runner.OutputGuard;
import org.bgbench.runner.Parameters;
import org.bgbench.runner.RunKeys;
import org.bgbench.runner.progress.ProgressOutput;
import org.bgbench.runner.progress.TerminalBar;
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

/**
 * {@code bg sweep}: throughput and per-action latency as a function of T, each point from the loaded graph. This is
 * how the dissertation compares feed-following designs (section 8.4, figures 1.2 and 8.17–8.19): a workload that
 * shares resources grows the data as it runs, so its SoAR depends on the experiment's length (section 7.3) and the
 * curve at one fixed duration is the fair comparison.
 */
@Command(
        name = "sweep",
        mixinStandardHelpOptions = true,
        header = "Run a mix at several T and report throughput against T.",
        description = "Run the workload at several T, each from the loaded graph, and report the throughput-versus-T "
                + "curve with per-action latencies (dissertation 8.4). Every point is written as it completes (JSON "
                + "and CSV), so an interrupted sweep keeps what it measured.")
final class SweepCommand implements Callable<Integer> {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    @Spec
    CommandSpec spec;

    @Mixin
    StoreOptions storeOptions;

    @Option(
            names = "--workload",
            paramLabel = "NAME",
            description =
                    "A named mix, e.g. feed-high or feed-verylow ('bg keys'; default: the mix the -p keys give, else "
                            + WorkloadSpec.DEFAULT_MIX
                            + ").")
    String workload;

    @Option(
            names = "--threads",
            paramLabel = "T[,T…]",
            hideParamSyntax = true,
            split = ",",
            defaultValue = "1,2,4,8,16,32,64,128",
            description = "The values of T, in the order run (default ${DEFAULT-VALUE}).")
    List<Integer> threads;

    @Option(
            names = "--duration",
            paramLabel = "DURATION",
            defaultValue = "30s",
            description = "Measured time of each point after its warm-up (default ${DEFAULT-VALUE}).")
    String duration;

    @Option(
            names = "--warmup",
            paramLabel = "DURATION",
            defaultValue = "0s",
            description = "Warm-up of each point, not measured (default ${DEFAULT-VALUE}).")
    String warmup;

    @Option(
            names = "--beta",
            paramLabel = "DURATION",
            defaultValue = "100ms",
            description = "β: the share of actions within it is reported per point (default ${DEFAULT-VALUE}).")
    String beta;

    @Option(
            names = "--reset",
            paramLabel = "MODE",
            defaultValue = "auto",
            description =
                    "How each point gets back to the loaded graph: image, repair (RepairDB), reload, none, or "
                            + "auto (the image when the store has one, else RepairDB, else a reload; default ${DEFAULT-VALUE}).")
    String reset;

    @Option(names = "--load", description = "Load the graph first if the store does not hold it.")
    boolean load;

    @Option(
            names = "--out",
            paramLabel = "FILE",
            description = "Sweep JSON (default runs/sweep-<time>-<store>-<mix>.json; " + "a CSV beside it).")
    Path out;

    @Option(names = "--quiet", description = "No per-second progress lines.")
    boolean quiet;

    /**
     * One point of the curve. Its JSON is flat (the nested parts unwrapped), as the sweep's JSON has always been.
     *
     * @param threads   T
     * @param totals    throughput and counts over every action
     * @param perAction each action's count, throughput, latencies and errors
     * @param validity  the unpredictable shares, or nulls when no reads were checked
     * @param result    the run's result file
     */
    record Point(
            int threads,
            @JsonUnwrapped Totals totals,
            Map<String, Map<String, Object>> perAction,
            @JsonUnwrapped Validity validity,
            String result) {
        double throughput() {
            return totals.throughput();
        }

        double withinBetaPct() {
            return totals.withinBetaPct();
        }
    }

    /** A point's throughput and counts over every action. */
    record Totals(double throughput, double withinBetaPct, long actions, long errors) {}

    /** A point's unpredictable shares: of all reads, and of View News Feed's. */
    record Validity(Double unpredictablePct, Double vnfUnpredictablePct) {}

    @Override
    public Integer call() throws IOException {
        PrintWriter stdout = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        StoreProvider provider = storeOptions.provider(StoreRegistry.discover());
        Parameters params = storeOptions.parameters();
        if (workload != null) {
            if (Mixes.find(workload).isEmpty()) {
                throw new InvalidParameterException(
                        "--workload",
                        "'" + workload + "' is not a named mix; named mixes: " + String.join(", ", Mixes.names()));
            }
            params.put("mix", workload, "--workload");
        }
        MixSources.check(params, storeOptions.files, null);
        if (threads == null || threads.isEmpty() || threads.stream().anyMatch(t -> t == null || t < 1)) {
            throw new InvalidParameterException(
                    "--threads", "give values of T of at least 1, e.g. 1,2,4,8, got " + threads);
        }
        String how = reset.trim().toLowerCase(Locale.ROOT);
        if (!List.of("auto", "image", "repair", "reload", "none").contains(how)) {
            throw new InvalidParameterException(
                    "--reset", "expected auto, image, repair, reload or none, got '" + reset + "'");
        }
        ExperimentSetup setup =
                ExperimentSetup.checked(provider, params, err).withStoreGraph(storeOptions, load, true, err);
        ExperimentSetup.Plan plan = setup.plan();
        SocialGraph graph = plan.graph();
        WorkloadSpec ws = plan.workload();
        ws.mix().symmetryWarnings().forEach(w -> err.println("bg: warning: " + w));
        Duration measured = Durations.parse("--duration", duration);
        Duration warm = Durations.parse("--warmup", warmup);
        if (!measured.isPositive()) {
            throw new InvalidParameterException("--duration", "must be longer than 0, got " + duration);
        }
        if (warm.isNegative()) {
            throw new InvalidParameterException("--warmup", "must not be negative, got " + warmup);
        }
        Duration b = Durations.parse("--beta", beta);
        StoreSettings settings = setup.storeSettings(storeOptions).withBeta(b);
        String stamp = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
        Path file = out != null
                ? out
                : Path.of("runs", "sweep-" + stamp + "-" + provider.name() + "-" + ws.mixName() + ".json");
        if (Files.isDirectory(file)) {
            throw new InvalidParameterException(
                    "--out", file + " is a directory; give a file such as " + file.resolve("sweep.json"));
        }
        OutputGuard.file("--out", file);
        Path dir = file.toAbsolutePath().getParent();
        String base = file.getFileName().toString().replaceFirst("\\.json$", "");
        Path runs = dir.resolve(base + "-runs");
        OutputGuard.directory("--out", runs);
        Files.createDirectories(dir);
        Files.createDirectories(runs);
        int loaders = setup.loaders();

        List<Point> points = new ArrayList<>();
        Map<String, Object> header = new LinkedHashMap<>();
        header.put("format", "bg-sweep/1");
        header.put("store", provider.name());
        header.put("store_settings", settings.asMap());
        header.put("mix", ws.mixName());
        header.put("mix_fractions", ws.mix().toProperties());
        header.put("graph", graph.spec().fingerprint());
        header.put("duration_s", measured.toMillis() / 1000.0);
        header.put("warmup_s", warm.toMillis() / 1000.0);
        header.put("beta_ms", b.toMillis());
        header.put("grows_data", ws.mix().growsData());
        // The curve's files go through space reserves; one that cannot be written ends the sweep after its row.
        ReportFiles files = new ReportFiles();
        files.reserve(file);
        files.reserve(dir.resolve(base + ".csv"));
        try (LocalStore store = LocalStore.open(
                provider,
                settings,
                graph,
                load ? LocalStore.IfMissing.LOAD : LocalStore.IfMissing.REFUSE_OFFER_LOAD,
                loaders,
                RunKeys.verifySample(params),
                err)) {
            String method = resetMethod(how, store, loaders, err);
            header.put("reset", method);
            err.printf(
                    Locale.ROOT,
                    "bg: sweep of %s on %s: T = %s, %s each, reset by %s%n",
                    ws.mixName(),
                    provider.name(),
                    threads,
                    Durations.format(measured),
                    method);
            stdout.printf(Locale.ROOT, "%6s %12s %9s  %s%n", "T", "actions/s", "≤β %", "mean latency per action (ms)");
            stdout.flush();
            // On a terminal, a bar of the points done stands for each point's per-second lines.
            TerminalBar bar = ProgressOutput.current(quiet) == ProgressOutput.BAR
                    ? TerminalBar.open(TerminalBar.Start.of("sweep", "points", threads.size()), err)
                    : null;
            PrintWriter pointOut = bar == null ? stdout : bar.above(stdout);
            PrintWriter pointErr = bar == null ? err : bar.above(err);
            try {
                for (int t : threads) {
                    if (!points.isEmpty() || store.state().changed()) {
                        resetStore(method, store, loaders, pointErr);
                    }
                    ExperimentSpec es = setup.timedAsKeysSay(ws, t, measured, warm, b);
                    Path runFile = runs.resolve("T" + t + ".json");
                    Experiment.Outcome o = store.run(ws, es, runFile, bar != null || quiet ? null : err);
                    Point p = point(t, o.result(), runFile);
                    points.add(p);
                    if (bar != null) {
                        bar.stepTo(points.size());
                    }
                    files.failed(o.unwritten());
                    write(files, file, dir.resolve(base + ".csv"), header, points);
                    pointOut.printf(
                            Locale.ROOT, "%6d %,12.0f %9.2f  %s%n", t, p.throughput(), p.withinBetaPct(), latencies(p));
                    pointOut.flush();
                    if (files.errorLine("") != null) {
                        pointErr.println(files.errorLine("the table above"));
                        pointErr.println("bg: the sweep stops at T=" + t + " with the points above");
                        files.release();
                        return Bg.FAILED;
                    }
                    if (!o.run().completed() || o.unsealed() != null) {
                        pointErr.println("bg: error: the point at T=" + t + " did not complete ("
                                + (o.unsealed() != null ? o.unsealed() : o.run().abortReason())
                                + "); the sweep stops here and keeps the points "
                                + "measured");
                        return Bg.FAILED;
                    }
                }
            } finally {
                if (bar != null) {
                    bar.close();
                }
            }
        }
        files.release();
        stdout.println("Result: " + file.toAbsolutePath());
        return 0;
    }

    /** The reset the sweep (and a study) uses between points. */
    static String resetMethod(String how, LocalStore store, int loaders, PrintWriter err) {
        if (!how.equals("auto")) {
            if (how.equals("image") && !store.saveImage(loaders, err)) {
                throw new InvalidParameterException(
                        "--reset", store.name() + " has no database image; use repair " + "or reload");
            }
            return how;
        }
        return store.saveImage(loaders, err) ? "image" : "repair";
    }

    static void resetStore(String method, LocalStore store, int loaders, PrintWriter err) {
        switch (method) {
            case "image" -> store.restoreImage();
            case "repair" -> {
                RepairDb.Report r =
                        store.repair(Math.max(2, Runtime.getRuntime().availableProcessors()));
                if (!r.verified()) {
                    err.println("bg: RepairDB could not verify the store ("
                            + r.mismatches().get(0) + "); reloading it");
                    store.reload(loaders, err);
                }
            }
            case "reload" -> store.reload(loaders, err);
            default -> {
                // none: each point continues from the data the previous one left (the curve then mixes T with time)
            }
        }
    }

    private static Point point(int t, RunResult r, Path file) {
        Map<String, Map<String, Object>> per = new LinkedHashMap<>();
        for (Map.Entry<String, KindResult> e : r.actions().entrySet()) {
            KindResult k = e.getValue();
            if (k.count() == 0 && k.errors() == 0) {
                continue;
            }
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("count", k.count());
            m.put("throughput", k.throughput());
            m.put("mean_ms", k.meanMs());
            m.put("p95_ms", k.p95Ms());
            m.put("p99_ms", k.p99Ms());
            m.put("errors", k.errors());
            per.put(e.getKey(), m);
        }
        Unpredictable u = r.unpredictable();
        Double all = u == null || u.readsChecked() == 0 ? null : u.pct();
        Double vnf = u == null || !u.actions().containsKey("VNF")
                ? null
                : u.actions().get("VNF").pct();
        KindResult total = r.total();
        Totals totals = new Totals(
                r.throughput(),
                total.withinBetaPct() == null ? 0 : total.withinBetaPct(),
                total.count(),
                total.errors());
        return new Point(t, totals, per, new Validity(all, vnf), file.toString());
    }

    private static String latencies(Point p) {
        StringBuilder s = new StringBuilder();
        p.perAction().forEach((a, m) -> {
            Object mean = m.get("mean_ms");
            if (mean != null) {
                s.append(String.format(Locale.ROOT, "%s %.2f  ", a, (Double) mean));
            }
        });
        if (p.validity().vnfUnpredictablePct() != null) {
            s.append(String.format(
                    Locale.ROOT, "(VNF unpredictable %.3f %%)", p.validity().vnfUnpredictablePct()));
        }
        return s.toString().trim();
    }

    /** Writes the curve so far, atomically: an interrupted sweep keeps every completed point. */
    private static void write(ReportFiles files, Path json, Path csv, Map<String, Object> header, List<Point> points)
            throws IOException {
        Map<String, Object> doc = new LinkedHashMap<>(header);
        doc.put("points", points);
        files.write(json, JSON.writeValueAsString(doc));
        TreeSet<String> actions = new TreeSet<>();
        points.forEach(p -> actions.addAll(p.perAction().keySet()));
        StringBuilder c = new StringBuilder(
                "threads,throughput,within_beta_pct,actions,errors,unpredictable_pct," + "vnf_unpredictable_pct");
        for (String a : actions) {
            c.append(',').append(a).append("_mean_ms,").append(a).append("_p95_ms");
        }
        c.append('\n');
        for (Point p : points) {
            c.append(p.threads())
                    .append(',')
                    .append(fmt(p.throughput()))
                    .append(',')
                    .append(fmt(p.withinBetaPct()))
                    .append(',')
                    .append(p.totals().actions())
                    .append(',')
                    .append(p.totals().errors())
                    .append(',')
                    .append(
                            p.validity().unpredictablePct() == null
                                    ? ""
                                    : fmt(p.validity().unpredictablePct()))
                    .append(',')
                    .append(
                            p.validity().vnfUnpredictablePct() == null
                                    ? ""
                                    : fmt(p.validity().vnfUnpredictablePct()));
            for (String a : actions) {
                Map<String, Object> m = p.perAction().get(a);
                c.append(',')
                        .append(m == null || m.get("mean_ms") == null ? "" : fmt((Double) m.get("mean_ms")))
                        .append(',')
                        .append(m == null || m.get("p95_ms") == null ? "" : fmt((Double) m.get("p95_ms")));
            }
            c.append('\n');
        }
        files.write(csv, c.toString());
    }

    private static String fmt(double d) {
        return String.format(Locale.ROOT, "%.4f", d);
    }
}
