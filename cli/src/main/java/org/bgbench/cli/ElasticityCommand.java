package org.bgbench.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.function.DoubleSupplier;
import org.bgbench.measurement.report.ReportFiles;
import org.bgbench.model.Action;
import org.bgbench.model.InvalidParameterException;
import org.bgbench.model.generator.SocialGraph;
import org.bgbench.runner.ExperimentSpec;
import org.bgbench.runner.Interrupts;
import org.bgbench.runner.LocalStore;
import org.bgbench.runner.OutputGuard;
import org.bgbench.runner.Parameters;
import org.bgbench.runner.RunKeys;
import org.bgbench.scaling.elasticity.Curves;
import org.bgbench.scaling.elasticity.DeltaStability;
import org.bgbench.scaling.elasticity.ElasticityPlan;
import org.bgbench.scaling.elasticity.ElasticityResult;
import org.bgbench.scaling.elasticity.ElasticityRun;
import org.bgbench.scaling.elasticity.ExperimentRequestSets;
import org.bgbench.scaling.elasticity.ScalabilityScore;
import org.bgbench.scaling.elasticity.SetPoint;
import org.bgbench.scaling.elasticity.ShellGrowth;
import org.bgbench.scaling.report.ElasticityChart;
import org.bgbench.scaling.speedup.Hosts;
import org.bgbench.store.StoreProvider;
import org.bgbench.store.StoreRegistry;
import org.bgbench.store.StoreSettings;
import org.bgbench.workload.WorkloadSpec;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(
        name = "elasticity",
        mixinStandardHelpOptions = true,
        header = "Measure how a loaded store absorbs new nodes under load.",
        description = "Measure how a loaded store absorbs new nodes under load (elasticity paper, sections 2 and 5): "
                + "request sets of R actions (80 %% reads by default) back to back on threads ∝ nodes, each point "
                + "the mean of several sets; after the baseline BG runs your --add command(s) and keeps timing "
                + "until the store is stable again (the last X delta times within the baseline's median). Prints "
                + "and writes the stabilisation time, the elasticity score (A+B)/((Rt1+Rt2)(Av1+Av2)) with its "
                + "terms, a chart, and with --previous the scalability score (Avg_2N − Avg_N)/Avg_N. "
                + "docs/scaling.md.")
final class ElasticityCommand implements Callable<Integer> {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    /** The report and its chart, each through a space reserve; what cannot be written is named after the figures. */
    private final ReportFiles files = new ReportFiles();

    @Spec
    CommandSpec spec;

    @Mixin
    StoreOptions storeOptions;

    @Option(
            names = "--nodes",
            paramLabel = "N",
            required = true,
            description = "Nodes of the store when the test begins (threads = N × --threads-per-node).")
    int nodes;

    @Option(
            names = "--add",
            paramLabel = "COMMAND",
            description = "Shell command that adds node(s) to the running store; repeatable (run in order). "
                    + "Without it BG measures the stable phase only (for --previous).")
    List<String> add = new ArrayList<>();

    @Option(
            names = "--added-nodes",
            paramLabel = "M",
            description = "Nodes the --add commands add (default: N, " + "doubling, as the paper does).")
    Integer addedNodes;

    @Option(
            names = "--settled",
            paramLabel = "COMMAND",
            description =
                    "Shell command that exits 0 once the store's "
                            + "own tools show no data transfer (e.g. scripts/cassandra.sh settled DIR); stability is judged after it.")
    String settled;

    @Option(
            names = "--request-set",
            paramLabel = "R",
            defaultValue = "10000",
            description = "Actions per request set (default ${DEFAULT-VALUE}, the paper's).")
    int requestSet;

    @Option(
            names = "--repeats",
            paramLabel = "K",
            defaultValue = "10",
            description =
                    "Request sets per point: its mean and standard deviation (default ${DEFAULT-VALUE}, the paper's).")
    int repeats;

    @Option(
            names = "--read-pct",
            paramLabel = "r",
            description = "Percentage of reads (default 80, the paper's); the "
                    + "reads and writes are split as in the high mix. Not with -p mix or frequency keys.")
    Double readPct;

    @Option(
            names = "--threads-per-node",
            paramLabel = "K",
            defaultValue = "1",
            description =
                    "Threads per node at the start (default ${DEFAULT-VALUE}: as many threads as nodes, the paper's).")
    int threadsPerNode;

    @Option(
            names = "--warmup-sets",
            paramLabel = "N",
            defaultValue = "2",
            description = "Request sets run before the baseline and not recorded (default ${DEFAULT-VALUE}).")
    int warmupSets;

    @Option(
            names = "--baseline",
            paramLabel = "P",
            defaultValue = "10",
            description = "Points measured before the add: the stable phase (default ${DEFAULT-VALUE}).")
    int baseline;

    @Option(
            names = "--after",
            paramLabel = "Q",
            defaultValue = "5",
            description = "Points measured after the stable moment: Av2 and Rt2 (default ${DEFAULT-VALUE}).")
    int after;

    @Option(
            names = "--window",
            paramLabel = "X",
            defaultValue = "5",
            description =
                    "Consecutive delta times within the median that make the store stable (default ${DEFAULT-VALUE}).")
    int window;

    @Option(
            names = "--margin",
            paramLabel = "F",
            defaultValue = "1",
            description =
                    "A delta time counts as stable up to F × the baseline's median (default ${DEFAULT-VALUE}, the "
                            + "paper's rule; docs/scaling.md on why a larger F may be wanted).")
    double margin;

    @Option(
            names = "--max-points",
            paramLabel = "N",
            defaultValue = "100",
            description = "Points after the add to wait for stability before giving up (default ${DEFAULT-VALUE}).")
    int maxPoints;

    @Option(
            names = "--interpolation",
            paramLabel = "spline|linear",
            defaultValue = "spline",
            description = "How points are joined for the areas A and B (default ${DEFAULT-VALUE}, the paper's).")
    String interpolation;

    @Option(
            names = "--previous",
            paramLabel = "FILE",
            description = "The elasticity result at half this size (N/2 "
                    + "nodes, half the data, requests and threads): adds the scalability score.")
    Path previous;

    @Option(
            names = "--beta",
            paramLabel = "DURATION",
            defaultValue = "100ms",
            description = "β: the store's timeouts follow it (default ${DEFAULT-VALUE}).")
    String beta;

    @Option(names = "--load", description = "Load the graph first if the store does not hold it.")
    boolean load;

    @Option(
            names = "--out",
            paramLabel = "FILE",
            description = "Result JSON (default "
                    + "runs/elasticity-<time>-<store>-N<N>.json); the chart is written beside it (.svg).")
    Path out;

    @Override
    public Integer call() throws IOException {
        PrintWriter stdout = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        StoreProvider provider = storeOptions.provider(StoreRegistry.discover());
        if (nodes < 1) {
            throw new InvalidParameterException("--nodes", "expected a whole number ≥ 1, got " + nodes);
        }
        if (threadsPerNode < 1) {
            throw new InvalidParameterException(
                    "--threads-per-node", "expected a whole number ≥ 1, got " + threadsPerNode);
        }
        if (addedNodes != null && addedNodes < 1) {
            throw new InvalidParameterException("--added-nodes", "expected a whole number ≥ 1, got " + addedNodes);
        }
        if (add.stream().anyMatch(String::isBlank)) {
            throw new InvalidParameterException("--add", "expected a shell command, got an empty one");
        }
        if (settled != null && add.isEmpty()) {
            throw new InvalidParameterException("--settled", "only means something with --add");
        }
        ElasticityPlan plan = new ElasticityPlan(
                new ElasticityPlan.Sets(requestSet, repeats, nodes * threadsPerNode, warmupSets),
                new ElasticityPlan.Stability(baseline, after, window, margin, maxPoints),
                Curves.Interpolation.parse("--interpolation", interpolation));
        JsonNode prev = previous == null ? null : readPrevious(previous);
        Parameters params = storeOptions.parameters();
        String mix = mix(params);
        ExperimentSetup setup =
                ExperimentSetup.checked(provider, params, err).withStoreGraph(storeOptions, load, true, err);
        ExperimentSetup.Plan planned = setup.plan();
        SocialGraph graph = planned.graph();
        WorkloadSpec ws = planned.workload();
        ExperimentSpec template = setup.experiment(ws, null, (long) requestSet, "0", beta, false);
        StoreSettings settings = setup.storeSettings(storeOptions).withBeta(template.beta());
        Path file = out != null
                ? out
                : Path.of(
                        "runs",
                        "elasticity-"
                                + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")) + "-"
                                + provider.name()
                                + "-N" + nodes + ".json");
        if (Files.isDirectory(file)) {
            throw new InvalidParameterException(
                    "--out", file + " is a directory; give a file such as " + file.resolve("elasticity.json"));
        }
        OutputGuard.file("--out", file);
        if (!Files.exists(file) && Files.exists(sibling(file, ".svg"), LinkOption.NOFOLLOW_LINKS)) {
            // the chart beside a result is BG's when the result is; without one it is someone else's file
            throw new InvalidParameterException(
                    "--out",
                    sibling(file, ".svg") + " exists without the result it would "
                            + "chart; BG replaces only its own earlier results: give another path");
        }
        Files.createDirectories(file.toAbsolutePath().getParent());
        List<String> warnings = new ArrayList<>();
        Set<String> hosts = Hosts.inSettings(settings.asMap());
        if (Hosts.allOnThisMachine(hosts)) {
            // Figures from nodes that share BG's machine must say so.
            warnings.add("every node of the store (" + (hosts.isEmpty() ? "in BG's process" : String.join(", ", hosts))
                    + ") and BG ran on this one machine ("
                    + Runtime.getRuntime().availableProcessors() + " cores): "
                    + "the nodes share its cores, so these figures demonstrate the method, not the store's "
                    + "elasticity");
        }
        warnings.forEach(w -> err.println("bg: warning: " + w));
        Map<String, Object> about = new LinkedHashMap<>();
        about.put("store", provider.name());
        about.put("nodesBefore", nodes);
        about.put("nodesAfter", add.isEmpty() ? nodes : nodes + (addedNodes != null ? addedNodes : nodes));
        about.put("members", graph.spec().members());
        about.put("workload", mix);
        about.put("readPct", round(100 * (1 - ws.mix().writeFraction())));
        about.put("storeHosts", List.copyOf(hosts));
        about.put("warnings", warnings);
        int loaders = setup.loaders();
        ElasticityResult result;
        files.reserve(file);
        files.reserve(sibling(file, ".svg"));
        try (LocalStore store = LocalStore.open(
                        provider,
                        settings,
                        graph,
                        load ? LocalStore.IfMissing.LOAD : LocalStore.IfMissing.REFUSE_OFFER_LOAD,
                        loaders,
                        RunKeys.verifySample(params),
                        err);
                Interrupts.Registration r = Interrupts.onInterrupt(why -> {})) {
            err.printf(
                    Locale.ROOT,
                    "bg: elasticity of %s with %d node(s): request sets of %d actions (%s), %d per "
                            + "point, %d threads%s%n",
                    provider.name(),
                    nodes,
                    requestSet,
                    about.get("readPct") + " % reads",
                    repeats,
                    plan.threads(),
                    add.isEmpty() ? "; no --add: the stable phase only" : "");
            stdout.printf("%4s %9s %-10s %10s %10s %12s%n", "#", "t (s)", "phase", "set (s)", "sd (s)", "latency ms");
            stdout.flush();
            long t0 = System.nanoTime();
            DoubleSupplier clock = () -> (System.nanoTime() - t0) / 1e9;
            ShellGrowth growth = add.isEmpty() ? null : new ShellGrowth(add, settled, sibling(file, ".add.log"));
            int[] printed = {0};
            ElasticityRun run = new ElasticityRun(
                    plan, new ExperimentRequestSets(store, ws, template), clock, Interrupts::interrupted, ws.seed());
            result = run.run(growth, partial -> {
                for (; printed[0] < partial.points().size(); printed[0]++) {
                    SetPoint p = partial.points().get(printed[0]);
                    stdout.printf(
                            Locale.ROOT,
                            "%4d %9.1f %-10s %10.4f %10.4f %12.3f%n",
                            p.index(),
                            p.end(),
                            p.phase().label(),
                            p.mean(),
                            p.sd(),
                            p.meanLatency() * 1000);
                }
                stdout.flush();
                save(file, partial, about, prev);
            });
        }
        List<SetPoint> base = result.points().stream()
                .filter(p -> p.phase() == SetPoint.Phase.BASELINE)
                .toList();
        if (result.medianDelta() != null) {
            DeltaStability.drift(base, result.medianDelta()).ifPresent(w -> {
                warnings.add(w);
                err.println("bg: warning: " + w);
            });
        }
        save(file, result, about, prev);
        files.release();
        stdout.print(describe(result, prev, file));
        String unwritten = files.errorLine("the elasticity above");
        if (unwritten != null) {
            err.println(unwritten);
        }
        if (Interrupts.interrupted() || unwritten != null) {
            return Bg.FAILED;
        }
        return result.status() == ElasticityResult.Status.STABLE
                        || result.status() == ElasticityResult.Status.BASELINE_ONLY
                ? 0
                : Bg.FAILED;
    }

    /** The named mix or frequency keys given with -p, or the paper's read percentage split as the high mix splits. */
    private String mix(Parameters params) {
        boolean given = params.has("mix")
                || params.asMap().keySet().stream().anyMatch(k -> k.endsWith("Action") || k.endsWith("Session"));
        if (given) {
            if (readPct != null) {
                throw new InvalidParameterException("--read-pct", "not together with -p mix or frequency keys");
            }
            return params.has("mix") ? params.get("mix") : "custom";
        }
        double r = readPct == null ? 80 : readPct;
        if (!(r >= 0 && r <= 100)) {
            throw new InvalidParameterException("--read-pct", "expected a percentage from 0 to 100, got " + readPct);
        }
        double w = 100 - r;
        // The high mix's reads (VP 35, LF 5, VFR 5, VTR 45 of 90) and writes (IF 4, AFR 2, RFR 2, TF 2 of 10),
        // scaled: the writes stay symmetric (dissertation 4.1), so the graph neither grows nor shrinks.
        Map<Action, Double> pct = new LinkedHashMap<>();
        pct.put(Action.VP, r * 35 / 90);
        pct.put(Action.LF, r * 5 / 90);
        pct.put(Action.VFR, r * 5 / 90);
        pct.put(Action.VTR, r * 45 / 90);
        pct.put(Action.IF, w * 4 / 10);
        pct.put(Action.AFR, w * 2 / 10);
        pct.put(Action.RFR, w * 2 / 10);
        pct.put(Action.TF, w * 2 / 10);
        pct.forEach((a, v) -> params.put(a.uscKey(), String.format(Locale.ROOT, "%.9f%%", v), "--read-pct"));
        return "reads-" + round(r);
    }

    private static JsonNode readPrevious(Path file) {
        JsonNode n;
        try {
            n = new ObjectMapper().readTree(file.toFile());
        } catch (IOException e) {
            throw new InvalidParameterException("--previous", "cannot read " + file + ": " + e.getMessage());
        }
        if (n == null
                || !"elasticity".equals(n.path("kind").asText())
                || !n.path("points").isArray()) {
            throw new InvalidParameterException("--previous", file + " is not a result of bg elasticity");
        }
        double sum = 0;
        int count = 0;
        for (JsonNode p : n.path("points")) {
            if ("baseline".equals(p.path("phase").asText())) {
                sum += p.path("mean").asDouble();
                count++;
            }
        }
        if (count == 0) {
            throw new InvalidParameterException("--previous", file + " has no baseline points");
        }
        ((ObjectNode) n).put("baselineAverage", sum / count);
        return n;
    }

    /** The scalability score against the previous result, and warnings where this run did not double its inputs. */
    private Map<String, Object> scalability(ElasticityResult r, JsonNode prev, Map<String, Object> about) {
        Map<String, Object> m = new LinkedHashMap<>();
        ScalabilityScore s = ScalabilityScore.of(prev.path("baselineAverage").asDouble(), r.baselineAverage());
        m.put("previous", previous.toString());
        m.put("averageN", s.averageN());
        m.put("average2N", s.average2N());
        m.put("score", s.score());
        List<String> notDoubled = new ArrayList<>();
        check(notDoubled, "nodes", prev.path("nodesBefore").asLong(), nodes);
        check(notDoubled, "members", prev.path("members").asLong(), ((Number) about.get("members")).longValue());
        check(
                notDoubled,
                "request set",
                prev.path("requestSet").asLong(),
                r.plan().requests());
        check(notDoubled, "threads", prev.path("threads").asLong(), r.plan().threads());
        if (!notDoubled.isEmpty()) {
            m.put(
                    "warning",
                    "the paper's score compares N with 2N nodes after data, requests and threads all doubled; "
                            + "here " + String.join(", ", notDoubled));
        }
        return m;
    }

    private static void check(List<String> out, String what, long before, long now) {
        if (now != 2 * before) {
            out.add(what + " went from " + before + " to " + now);
        }
    }

    private void save(Path file, ElasticityResult r, Map<String, Object> about, JsonNode prev) {
        Map<String, Object> json = r.toMap(about);
        if (prev != null && !r.points().isEmpty() && r.medianDelta() != null) {
            json.put("scalability", scalability(r, prev, about));
        }
        try {
            // Written whole or not at all (a crash mid-write keeps the previous point's file), through a reserve.
            files.write(file, JSON.writeValueAsString(json));
            files.write(
                    sibling(file, ".svg"),
                    ElasticityChart.svg(
                            r,
                            "Elasticity of " + about.get("store") + ": " + about.get("nodesBefore") + " → "
                                    + about.get("nodesAfter") + " nodes"));
        } catch (IOException e) {
            files.failed("cannot write " + file + ": " + e.getMessage());
        }
    }

    private static Path sibling(Path json, String suffix) {
        String name = json.getFileName().toString();
        String stem = name.endsWith(".json") ? name.substring(0, name.length() - 5) : name;
        return json.resolveSibling(stem + suffix);
    }

    private String describe(ElasticityResult r, JsonNode prev, Path file) {
        StringBuilder s = new StringBuilder();
        String nl = System.lineSeparator();
        s.append("Status: ")
                .append(r.status().label())
                .append(r.reason() != null ? " (" + r.reason() + ")" : "")
                .append(nl);
        if (r.medianDelta() != null) {
            s.append(String.format(
                    Locale.ROOT,
                    "Baseline: mean set time %.4f s, median delta time %.4f s%n",
                    r.baselineAverage(),
                    r.medianDelta()));
        }
        if (r.transferSeconds() != null) {
            s.append(String.format(
                    Locale.ROOT, "Nodes added and data settled: %.1f s after the add%n", r.transferSeconds()));
        }
        if (r.stabilisationSeconds() != null) {
            s.append(String.format(Locale.ROOT, "Stabilisation time: %.1f s%n", r.stabilisationSeconds()));
        }
        if (r.score() != null) {
            var c = r.score();
            s.append(String.format(
                    Locale.ROOT,
                    "Elasticity score: %.2f  (A=%.4g s², B=%.4g s², Rt1=%.3f ms, "
                            + "Rt2=%.3f ms, Av1=%.4f s, Av2=%.4f s; with the whole SD area: %.2f)%n",
                    c.elasticity(),
                    c.a(),
                    c.b(),
                    c.rt1() * 1000,
                    c.rt2() * 1000,
                    c.av1(),
                    c.av2(),
                    c.elasticityWithRawB()));
        }
        if (prev != null && r.medianDelta() != null) {
            ScalabilityScore sc =
                    ScalabilityScore.of(prev.path("baselineAverage").asDouble(), r.baselineAverage());
            s.append(String.format(
                    Locale.ROOT,
                    "Scalability score: %.3f  (Avg_N=%.4f s, Avg_2N=%.4f s)%n",
                    sc.score(),
                    sc.averageN(),
                    sc.average2N()));
        }
        if (r.errors() > 0) {
            s.append("Errors: ").append(r.errors()).append(" requests failed").append(nl);
        }
        s.append("Result: ").append(file.toAbsolutePath()).append(nl);
        return s.toString();
    }

    private static double round(double v) {
        return Math.round(v * 1000) / 1000.0;
    }
}
