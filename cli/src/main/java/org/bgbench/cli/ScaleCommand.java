package org.bgbench.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import org.bgbench.measurement.report.ReportFiles;
import org.bgbench.model.Durations;
import org.bgbench.model.GraphParameters;
import org.bgbench.model.GraphSpec;
import org.bgbench.model.InvalidParameterException;
import org.bgbench.model.generator.SocialGraph;
import org.bgbench.rating.Sla;
import org.bgbench.runner.Interrupts;
import org.bgbench.runner.OutputGuard;
import org.bgbench.runner.Parameters;
import org.bgbench.runner.rating.ResetPolicy;
import org.bgbench.scaling.speedup.Bottleneck;
import org.bgbench.scaling.speedup.Hosts;
import org.bgbench.scaling.speedup.RatingDir;
import org.bgbench.scaling.speedup.ScaleMode;
import org.bgbench.scaling.speedup.ScalePlan;
import org.bgbench.scaling.speedup.ScaleReport;
import org.bgbench.store.DeathWatch;
import org.bgbench.store.StoreProvider;
import org.bgbench.store.StoreRegistry;
import org.bgbench.workload.mix.Mixes;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(
        name = "scale",
        mixinStandardHelpOptions = true,
        header = "Measure a store's SoAR speedup or scaleup over a plan.",
        description = "SoAR speedup or scaleup (scalability paper E.2): rate a store in each configuration of a plan "
                + "under one SLA (start it, load the graph, bg rate --target soar, stop it), then report each SoAR, "
                + "its ratio to the first configuration's, the ideal ratio, the efficiency and the bottleneck node "
                + "and resource (docs/scaling.md). Writes scale.json, scale.svg and one normal rating directory per "
                + "configuration.")
final class ScaleCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(
            names = "--plan",
            paramLabel = "PLAN.json",
            required = true,
            description = "The store and its configurations: name, nodes, settings, storeHosts, start, "
                    + "settingsCommand, stop (docs/scaling.md).")
    Path plan;

    @Option(
            names = "--mode",
            paramLabel = "speedup|scaleup",
            required = true,
            description = "speedup (one graph for every configuration; ideal "
                    + "SoAR ratio N/N₁) or scaleup (members × N/N₁; ideal ratio 1).")
    String mode;

    @Option(
            names = "--workload",
            paramLabel = "NAME",
            defaultValue = "high",
            description = "A named mix (default ${DEFAULT-VALUE}).")
    String workload;

    @Option(
            names = "--sla",
            paramLabel = "α:β:τ:Δ",
            defaultValue = "95%:100ms:0.01%:60s",
            description = "The one SLA every configuration is rated under (default ${DEFAULT-VALUE}).")
    String sla;

    @Option(
            names = "--delta",
            paramLabel = "DURATION",
            defaultValue = "10s",
            description = "δ, length of each search experiment (default ${DEFAULT-VALUE}).")
    String delta;

    @Option(
            names = "--warmup",
            paramLabel = "DURATION",
            defaultValue = "2s",
            description = "Warm-up of each experiment (default ${DEFAULT-VALUE}).")
    String warmup;

    @Option(
            names = "--max-threads",
            paramLabel = "T",
            defaultValue = "1024",
            description = "Largest T to try (default ${DEFAULT-VALUE}).")
    int maxThreads;

    @Option(
            names = "--search",
            paramLabel = "optimal|approximate",
            defaultValue = "optimal",
            description = "optimal or approximate (default ${DEFAULT-VALUE}).")
    String search;

    @Option(
            names = "--reset",
            paramLabel = "MODE",
            defaultValue = "auto",
            description = "How each rating resets the store between " + "experiments (default ${DEFAULT-VALUE}).")
    String reset;

    @Option(names = "--no-confirm", description = "Skip each rating's confirmation run of length Δ.")
    boolean noConfirm;

    @Option(
            names = "-p",
            paramLabel = "KEY=VALUE",
            description = "A graph or run key for every configuration, e.g. "
                    + "-p usercount=1000 (scaleup multiplies usercount and pagecount by N/N₁); repeatable.")
    List<String> keys = new ArrayList<>();

    @Option(
            names = "--out",
            paramLabel = "DIR",
            description =
                    "Directory for scale.json, scale.svg and the ratings " + "(default runs/scale-<time>-<store>).")
    Path out;

    /** Keys {@code bg load} takes (graph, loader, the store's settings). */
    private Set<String> loadKeys = Set.of();

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    /** scale.json and scale.svg, each through a space reserve; what cannot be written is named after the table. */
    private final ReportFiles files = new ReportFiles();

    @Override
    public Integer call() throws IOException, InterruptedException {
        PrintWriter stdout = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        // Everything the children would refuse is refused here first, before any configuration starts.
        ScaleMode theMode = ScaleMode.parse("--mode", mode);
        ScalePlan thePlan = readPlan();
        StoreProvider provider;
        try {
            provider = StoreRegistry.discover().get(thePlan.store());
        } catch (InvalidParameterException e) {
            throw new InvalidParameterException(
                    ScalePlan.OPTION, "store: " + e.getMessage().replaceFirst("^--store: ", ""));
        }
        for (int i = 0; i < thePlan.configurations().size(); i++) {
            for (String k : thePlan.configurations().get(i).settings().keySet()) {
                if (!Keys.isRunKey(provider, k)) {
                    throw new InvalidParameterException(
                            ScalePlan.OPTION,
                            "configurations[" + i + "].settings." + k + ": not a setting of store " + provider.name()
                                    + " nor a BG key ('bg stores', 'bg keys')");
                }
            }
        }
        ExperimentSetup.checkKeys(provider, Parameters.of(List.of(), keys), Set.of());
        loadKeys = Keys.forLoad(provider).keySet();
        Sla.parse("--sla", sla).checkExperimentDuration("--delta", Durations.parse("--delta", delta));
        Durations.parse("--warmup", warmup);
        if (Mixes.find(workload).isEmpty()) {
            throw new InvalidParameterException(
                    "--workload",
                    "'" + workload + "' is not a named mix; named mixes: " + String.join(", ", Mixes.names()));
        }
        if (!search.equalsIgnoreCase("optimal") && !search.equalsIgnoreCase("approximate")) {
            throw new InvalidParameterException("--search", "expected optimal or approximate, got '" + search + "'");
        }
        ResetPolicy.Mode.parse(reset);
        if (maxThreads < 1) {
            throw new InvalidParameterException("--max-threads", "expected a whole number ≥ 1, got " + maxThreads);
        }
        Map<String, String> given = new LinkedHashMap<>();
        for (String kv : keys) {
            int eq = kv.indexOf('=');
            if (eq <= 0) {
                throw new InvalidParameterException("-p", "expected KEY=VALUE, got '" + kv + "'");
            }
            given.put(kv.substring(0, eq).trim(), kv.substring(eq + 1).trim());
        }
        int baseNodes = thePlan.baseline().nodes();
        int defaultMembers = GraphSpec.defaults().members();
        List<Map<String, String>> graphs = new ArrayList<>();
        for (ScalePlan.Configuration c : thePlan.configurations()) {
            Map<String, String> g = theMode.graphKeys(given, c.nodes(), baseNodes, defaultMembers);
            try {
                // a graph the generator refuses is bad input now, not a failed child later
                new SocialGraph(GraphParameters.toSpec(g));
            } catch (InvalidParameterException e) {
                throw e;
            } catch (IllegalArgumentException | ArithmeticException e) {
                throw new InvalidParameterException("-p", "configuration " + c.name() + ": " + e.getMessage());
            }
            graphs.add(g);
        }
        Path dir = out != null
                ? out
                : Path.of(
                        "runs",
                        "scale-" + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")) + "-"
                                + thePlan.store());
        OutputGuard.directory("--out", dir);
        if (Files.exists(dir.resolve("scale.json"))) {
            throw new InvalidParameterException("--out", dir + " already holds a scale.json; give another directory");
        }
        Files.createDirectories(dir);
        files.reserve(dir.resolve("scale.json"));
        files.reserve(dir.resolve("scale.svg"));
        err.printf(
                "bg: %s of %s over %d configurations, SLA %s, δ=%s; results in %s%n",
                theMode.label(), thePlan.store(), thePlan.configurations().size(), sla, delta, dir);
        err.flush();

        List<ScaleReport.Outcome> outcomes = new ArrayList<>();
        for (int i = 0; i < thePlan.configurations().size(); i++) {
            ScalePlan.Configuration c = thePlan.configurations().get(i);
            String name = String.format(Locale.ROOT, "%02d-%s", i + 1, c.name());
            if (Interrupts.interrupted()) {
                // Stopped (Ctrl-C, SIGTERM): the children stopped with it; the rest is not started.
                ScaleReport.Outcome.Config planned = new ScaleReport.Outcome.Config(
                        c.name(),
                        c.nodes(),
                        GraphParameters.toSpec(graphs.get(i)).members(),
                        name);
                outcomes.add(
                        ScaleReport.Outcome.failed(planned, "not started: bg scale was " + Interrupts.reason(), false));
                continue;
            }
            outcomes.add(configuration(stdout, err, thePlan, c, name, graphs.get(i), dir));
            // What was measured so far is on disk even if a later configuration hangs or the command is stopped.
            write(dir, report(theMode, thePlan, outcomes));
        }
        ScaleReport report = report(theMode, thePlan, outcomes);
        write(dir, report);
        files.release();
        stdout.print(report.table());
        String unwritten = files.errorLine("the table above");
        if (unwritten == null) {
            stdout.println("Written: " + dir.resolve("scale.json") + ", " + dir.resolve("scale.svg"));
        }
        stdout.flush();
        if (unwritten != null) {
            err.println(unwritten);
        }
        return report.complete() && unwritten == null ? 0 : Bg.FAILED;
    }

    private ScalePlan readPlan() {
        try {
            return ScalePlan.parse(Files.readString(plan));
        } catch (NoSuchFileException e) {
            throw new InvalidParameterException(ScalePlan.OPTION, "no such file: " + plan);
        } catch (IOException e) {
            throw new InvalidParameterException(ScalePlan.OPTION, "cannot read " + plan + ": " + e.getMessage());
        }
    }

    /** Start, settings, load, rate, stop: one configuration; a failing step fails it, and stop still runs. */
    private ScaleReport.Outcome configuration(
            PrintWriter stdout,
            PrintWriter err,
            ScalePlan thePlan,
            ScalePlan.Configuration c,
            String name,
            Map<String, String> graph,
            Path dir)
            throws InterruptedException {
        String prefix = "[" + name + "] ";
        long members = GraphParameters.toSpec(graph).members();
        Path ratingDir = dir.resolve(name);
        err.println("bg: configuration " + name + " (" + c.nodes() + (c.nodes() == 1 ? " node" : " nodes") + ", M="
                + members + ")");
        err.flush();
        String failure = null;
        RatingDir rating = null;
        ScalePlan.Configuration config = c;
        // BG owns the configuration's servers from its start command to its stop command: a bg scale killed in
        // between (SIGKILL, a crash) still runs the stop command, from a watchdog.
        DeathWatch stopOnDeath = null;
        try {
            if (c.stop() != null) {
                stopOnDeath = DeathWatch.start("exec bash -c \"$1\"", c.stop());
            }
            if (c.start() != null) {
                failure = shell(stdout, err, prefix, "start", c.start());
            }
            if (failure == null && c.settingsCommand() != null) {
                BgProcess.Finished f = BgProcess.run(BgProcess.shell(c.settingsCommand()), prefix, stdout, err, true);
                if (f.exitCode() != 0) {
                    failure = commandFailed("settingsCommand", f);
                } else {
                    config = c.withSettings(keyValues(f.stdout()));
                }
            }
            if (failure == null && Interrupts.interrupted()) {
                failure = "not loaded or rated: bg scale was " + Interrupts.reason();
            }
            if (failure == null) {
                List<String> common = new ArrayList<>(List.of("--store", thePlan.store()));
                config.settings().forEach((k, v) -> common.addAll(List.of("-p", k + "=" + v)));
                // --replace: every configuration starts from the freshly generated graph, whatever an earlier one left.
                List<String> load = new ArrayList<>(List.of("load", "--replace"));
                load.addAll(common);
                List<String> runKeys = new ArrayList<>();
                graph.forEach((k, v) -> {
                    // bg load refuses keys of runs (mix, think time, …): they go to bg rate only.
                    if (loadKeys.contains(k)) {
                        load.addAll(List.of("-p", k + "=" + v));
                    }
                    runKeys.addAll(List.of("-p", k + "=" + v));
                });
                common.addAll(runKeys);
                BgProcess.Finished l = bg(stdout, err, prefix, load);
                if (l.exitCode() != 0) {
                    failure = commandFailed("bg load", l);
                } else if (Interrupts.interrupted()) {
                    failure = "not rated: bg scale was " + Interrupts.reason();
                } else {
                    List<String> rate = new ArrayList<>(List.of(
                            "rate",
                            "--target",
                            "soar",
                            "--out",
                            ratingDir.toString(),
                            "--workload",
                            workload,
                            "--sla",
                            sla,
                            "--delta",
                            delta,
                            "--warmup",
                            warmup,
                            "--max-threads",
                            Integer.toString(maxThreads),
                            "--search",
                            search,
                            "--reset",
                            reset));
                    if (noConfirm) {
                        rate.add("--no-confirm");
                    }
                    for (String h : config.storeHosts()) {
                        rate.addAll(List.of("--store-host", h));
                    }
                    rate.addAll(common);
                    BgProcess.Finished r = bg(stdout, err, prefix, rate);
                    try {
                        rating = RatingDir.read(ratingDir);
                        if (!rating.complete()) {
                            failure = "the rating stopped early: " + rating.stop();
                        }
                    } catch (IOException e) {
                        failure = r.exitCode() != 0
                                ? commandFailed("bg rate", r)
                                : "cannot read its rating: " + e.getMessage();
                    }
                }
            }
        } catch (IOException e) {
            failure = "cannot run a command: " + e.getMessage();
        } finally {
            if (stopOnDeath != null) {
                stopOnDeath.release();
            }
            if (c.stop() != null) {
                try {
                    String stopFailure = shell(stdout, err, prefix, "stop", c.stop());
                    if (failure == null && stopFailure != null) {
                        failure = stopFailure;
                    }
                } catch (IOException e) {
                    failure = failure != null ? failure : "cannot run the stop command: " + e.getMessage();
                }
            }
        }
        Set<String> hosts = new LinkedHashSet<>(Hosts.inSettings(config.settings()));
        config.storeHosts().forEach(h -> hosts.add(Hosts.host(h)));
        boolean oneHost = Hosts.allOnThisMachine(hosts);
        String rel = dir.relativize(ratingDir).toString();
        if (rating == null) {
            err.println("bg: configuration " + name + " failed: " + failure);
            err.flush();
            ScaleReport.Outcome.Config planned = new ScaleReport.Outcome.Config(c.name(), c.nodes(), members, rel);
            return ScaleReport.Outcome.failed(planned, failure, oneHost);
        }
        if (failure != null) {
            err.println("bg: configuration " + name + " failed: " + failure + " (its rating is kept)");
            err.flush();
        }
        Bottleneck bottleneck = oneHost
                ? Bottleneck.onOneMachine(rating.resources(), thePlan.linkBytesPerS(), rating.cpu())
                : Bottleneck.of(rating.resources(), thePlan.linkBytesPerS());
        return new ScaleReport.Outcome(
                new ScaleReport.Outcome.Config(c.name(), c.nodes(), members, rel),
                new ScaleReport.Outcome.Rating(failure == null, rating.soar(), failure),
                new ScaleReport.Outcome.Hardware(rating.resources(), bottleneck, oneHost));
    }

    private ScaleReport report(ScaleMode mode, ScalePlan plan, List<ScaleReport.Outcome> outcomes) {
        List<String> warnings = new ArrayList<>();
        List<String> local = outcomes.stream()
                .filter(ScaleReport.Outcome::oneHost)
                .map(ScaleReport.Outcome::name)
                .toList();
        int cores = Runtime.getRuntime().availableProcessors();
        // Figures from nodes that share BG's machine must say so.
        if (!local.isEmpty()) {
            warnings.add((local.size() == outcomes.size()
                            ? "every configuration's nodes and BG ran on this one " + "machine"
                            : "the nodes of " + String.join(", ", local) + " and BG ran on this one machine")
                    + " (" + cores + " cores): the nodes share its cores, so these figures demonstrate the method, "
                    + "not the store's scalability");
        }
        if (outcomes.stream()
                .anyMatch(o -> o.bottleneck() != null && !o.bottleneck().known())) {
            warnings.add("the bottleneck of a configuration without store hosts is unknown: give each configuration "
                    + "its storeHosts (Prometheus node exporters, docs/resources.md)");
        }
        return new ScaleReport(mode, plan.store(), sla, outcomes, warnings);
    }

    private void write(Path dir, ScaleReport report) throws IOException {
        ScaleReport r = report;
        Map<String, Object> json = new LinkedHashMap<>(r.toMap());
        json.put("workload", workload);
        json.put("delta", delta);
        json.put("graph_keys", keys);
        files.write(dir.resolve("scale.json"), JSON.writeValueAsString(json) + "\n");
        files.write(dir.resolve("scale.svg"), r.svg());
    }

    private static String shell(PrintWriter stdout, PrintWriter err, String prefix, String what, String command)
            throws IOException, InterruptedException {
        err.println(prefix + "$ " + command);
        err.flush();
        BgProcess.Finished f = BgProcess.run(BgProcess.shell(command), prefix, stdout, err, false);
        return f.exitCode() == 0 ? null : commandFailed(what + " command", f);
    }

    private static BgProcess.Finished bg(PrintWriter stdout, PrintWriter err, String prefix, List<String> args)
            throws IOException, InterruptedException {
        err.println(prefix + "$ bg " + String.join(" ", args));
        err.flush();
        List<String> cmd = new ArrayList<>(BgProcess.bgCommand());
        cmd.addAll(args);
        return BgProcess.run(cmd, prefix, stdout, err, false, true);
    }

    private static String commandFailed(String what, BgProcess.Finished f) {
        return what + " exited " + f.exitCode() + (f.lastErrorLine() == null ? "" : ": " + f.lastErrorLine());
    }

    /** A settings command's {@code key=value} lines; other lines (messages) are ignored. */
    static Map<String, String> keyValues(String text) {
        Map<String, String> m = new LinkedHashMap<>();
        for (String line : text.split("\n")) {
            int eq = line.indexOf('=');
            if (eq > 0 && line.substring(0, eq).trim().matches("[A-Za-z0-9_.-]+")) {
                m.put(line.substring(0, eq).trim(), line.substring(eq + 1).trim());
            }
        }
        return m;
    }
}
