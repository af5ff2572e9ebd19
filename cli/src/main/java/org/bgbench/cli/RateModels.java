package org.bgbench.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.bgbench.measurement.report.ReportFiles;
import org.bgbench.model.Durations;
import org.bgbench.rating.ModelsChart;
import org.bgbench.rating.RatingReport;
import org.bgbench.rating.RatingSettings;
import org.bgbench.rating.Sla;
import org.bgbench.rating.Target;
import org.bgbench.runner.ExperimentSpec;
import org.bgbench.runner.OpenModel;
import org.bgbench.runner.progress.ProgressOutput;
import org.bgbench.runner.progress.TerminalBar;
import org.bgbench.runner.rating.ExperimentExecutor;
import org.bgbench.runner.rating.RatingRunner;
import org.bgbench.runner.rating.RatingSession;
import org.bgbench.runner.rating.ResetPolicy;
import org.bgbench.runner.rating.SearchLength;
import org.bgbench.workload.WorkloadSpec;

/**
 * bg rate's rating once its options are checked: the closed model's search over T, the open model's over the arrival
 * rate, or the first then the second and a chart of both; each experiment printed as it finishes, then the result.
 */
final class RateModels {
    /** Which models are rated; both: the closed one first, whose SoAR sizes the open one's defaults. */
    record Which(boolean closed, boolean open) {}

    /** Where every experiment runs: the executor, the workload, the experiment of one T, and the reset between them. */
    record Bench(
            ExperimentExecutor executor,
            WorkloadSpec workload,
            ExperimentSpec template,
            ResetPolicy policy,
            boolean keepGoing) {}

    /** What the lines and reports name, where they go, when the rating began, and the result's extra keys. */
    record Report(String storeName, String workload, Path dir, long t0, Map<String, Object> extra) {}

    /**
     * The open model's options; null ones follow a closed rating before it (SoAR's T in flight, steps of SoAR/32) or
     * take their defaults (64, 100 arrivals/s).
     */
    record OpenOptions(Integer inFlight, Double rateUnit, double maxRate, String arrivalProcess) {}

    private final Which which;
    private final RatingSettings settings;
    private final OpenOptions openOptions;
    private final Report report;

    RateModels(Which which, RatingSettings settings, OpenOptions openOptions, Report report) {
        this.which = which;
        this.settings = settings;
        this.openOptions = openOptions;
        this.report = report;
    }

    /** Runs the rating on {@code bench}; the exit code: 0 when every rating completed and all its files were written. */
    int run(PrintWriter stdout, PrintWriter err, Bench bench) throws IOException {
        Sla theSla = settings.sla();
        String storeName = report.storeName();
        String workload = report.workload();
        Path dir = report.dir();
        RatingRunner closedRunner = null;
        RatingSession.Report closed = null;
        if (which.closed()) {
            // On a terminal, a bar of the experiments done of the search's expected length; lines scroll above it.
            TerminalBar bar = ProgressOutput.current() == ProgressOutput.BAR
                    ? TerminalBar.open(
                            TerminalBar.Start.of(
                                    "rate",
                                    "experiments",
                                    SearchLength.experiments(
                                            settings.maxThreads(),
                                            settings.climbingFactor(),
                                            settings.confirm()
                                                    ? settings.targets().size()
                                                    : 0)),
                            err)
                    : null;
            PrintWriter barErr = bar == null ? err : bar.above(err);
            try {
                closedRunner = runner(bench, dir, barErr);
                closedRunner.prepareImage();
                barErr.printf(
                        "bg: rating %s with the %s mix, SLA %s, δ=%s%n",
                        storeName, workload, theSla, Durations.format(settings.experimentDuration()));
                closed = RatingSession.rate(
                        settings,
                        closedRunner,
                        bench.executor(),
                        ExperimentRows.start(bar == null ? stdout : bar.above(stdout), barErr, "T", closedRunner, bar),
                        settings.experimentDuration(),
                        dir,
                        report.t0(),
                        "BG rating of " + storeName + " (" + workload + " mix)",
                        report.extra());
            } finally {
                if (bar != null) {
                    bar.close();
                }
            }
            stdout.print(closed.describe());
            if (!which.open()) {
                return unwritten(err, closed.unwritten()) && closed.result().complete() ? 0 : Bg.FAILED;
            }
        }
        double soar = closed == null
                ? 0
                : closed.result().soar().map(x -> x.actionsPerSecond()).orElse(0.0);
        double unit = openOptions.rateUnit() != null
                ? openOptions.rateUnit()
                : soar > 0 ? Math.max(1, Math.round(soar / 32)) : 100;
        // The store's best concurrency, as a connection pool sized to it would allow: arrivals beyond it wait in BG
        // (their wait is in their response times). More threads cost BG CPU per arrival (each one's session cycling)
        // and push a store whose throughput falls beyond its best T into that regime: against PostgreSQL on 2 cores,
        // 8 in flight carried what the closed model carries at T = 8, 20 % below SoAR at T = 4 (docs/benchmarks.md).
        int soarThreads = closed == null
                ? 0
                : closed.result().soar().map(x -> x.threads()).orElse(0);
        int inFlight = openOptions.inFlight() != null ? openOptions.inFlight() : soarThreads > 0 ? soarThreads : 64;
        Path openDir = which.closed() ? dir.resolve("open") : dir;
        RatingRunner openRunner =
                runner(bench, openDir, err).openModel(OpenModel.of("1", openOptions.arrivalProcess()), inFlight, unit);
        if (closedRunner != null) {
            openRunner.after(closedRunner);
        } else {
            openRunner.prepareImage();
        }
        err.printf(
                Locale.ROOT,
                "bg: open-model rating of %s with the %s mix, SLA %s, δ=%s: arrival rates in steps of "
                        + "%s/s, at most %d in flight%n",
                storeName,
                workload,
                theSla,
                Durations.format(settings.experimentDuration()),
                openRunner.rate(1),
                inFlight);
        RatingSession.Report open = open(stdout, err, bench, openRunner, unit, inFlight, openDir);
        stdout.print(open.describe());
        List<String> unwritten = new ArrayList<>(closed == null ? List.of() : closed.unwritten());
        unwritten.addAll(open.unwritten());
        if (closed != null) {
            unwritten.addAll(chart(stdout, closedRunner, openRunner, soar, open, unit));
        }
        return unwritten(err, unwritten)
                        && (closed == null || closed.result().complete())
                        && open.result().complete()
                ? 0
                : Bg.FAILED;
    }

    private RatingRunner runner(Bench bench, Path dir, PrintWriter err) {
        return new RatingRunner(
                bench.executor(), bench.workload(), bench.template(), bench.policy(), dir, err, bench.keepGoing());
    }

    /** The open model's search: over the arrival rate in steps of {@code unit}, its Socialites the rating. */
    private RatingSession.Report open(
            PrintWriter stdout,
            PrintWriter err,
            Bench bench,
            RatingRunner openRunner,
            double unit,
            int inFlight,
            Path openDir)
            throws IOException {
        RatingSettings openSettings = RatingSettings.builder(settings.sla())
                .experimentDuration(settings.experimentDuration())
                .climbingFactor(2)
                .localSearch(settings.localSearch())
                .targets(EnumSet.of(Target.SOCIALITES))
                .confirm(settings.confirm())
                .maxThreads((int) Math.max(1, Math.min(openOptions.maxRate() / unit, 1 << 24)))
                .wording(RatingReport.Axis.arrivals(unit)::words)
                .build();
        Map<String, Object> openExtra = new LinkedHashMap<>(report.extra());
        openExtra.put("model", "open");
        openExtra.put("rate_unit", unit);
        openExtra.put("in_flight", inFlight);
        openExtra.put("arrival_process", openOptions.arrivalProcess());
        return RatingSession.rate(
                openSettings,
                openRunner,
                bench.executor(),
                ExperimentRows.start(stdout, err, "rate", openRunner, null),
                settings.experimentDuration(),
                openDir,
                System.nanoTime(),
                "BG open-model rating of " + report.storeName() + " (" + report.workload() + " mix)",
                openExtra,
                RatingReport.Axis.arrivals(unit));
    }

    /** The chart of both models, models.svg; the files that could not be written. */
    private List<String> chart(
            PrintWriter stdout,
            RatingRunner closedRunner,
            RatingRunner openRunner,
            double soar,
            RatingSession.Report open,
            double unit) {
        Sla theSla = settings.sla();
        Path chart = report.dir().resolve("models.svg");
        Double openRating = open.result()
                .socialites()
                .filter(x -> x.threads() > 0)
                .map(x -> x.threads() * unit)
                .orElse(null);
        ReportFiles files = new ReportFiles();
        if (files.write(
                chart,
                ModelsChart.svg(
                        "Closed and open model: " + report.storeName() + " (" + report.workload() + " mix)",
                        points(closedRunner, theSla, false),
                        points(openRunner, theSla, true),
                        soar > 0 ? soar : null,
                        openRating,
                        theSla.beta().toNanos() / 1e6))) {
            stdout.println("Chart: " + chart.toAbsolutePath());
        }
        files.release();
        return files.failures();
    }

    /**
     * After the rating's figures are printed: one error line for the files that could not be written (a full disk);
     * whether there were none.
     */
    private static boolean unwritten(PrintWriter err, List<String> failures) {
        ReportFiles files = new ReportFiles();
        failures.forEach(files::failed);
        String line = files.errorLine("the rating above");
        if (line != null) {
            err.println(line);
        }
        return line == null;
    }

    /** Each experiment's load and p99 for the chart of both models: throughput (closed) or offered rate (open). */
    private static List<ModelsChart.Point> points(RatingRunner runner, Sla sla, boolean open) {
        return runner.results().stream()
                .map(r -> new ModelsChart.Point(
                        open && r.open() != null ? r.open().offeredRate() : r.throughput(),
                        r.total().p99Ms() == null ? 0 : r.total().p99Ms(),
                        RatingRunner.measurement(r).succeeds(sla)))
                .toList();
    }
}
