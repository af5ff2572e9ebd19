package org.bgbench.cli;

import java.io.PrintWriter;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import org.bgbench.cluster.coordinator.ClusterCoordinator;
import org.bgbench.loader.LoadReport;
import org.bgbench.model.GraphParameters;
import org.bgbench.model.GraphSpec;
import org.bgbench.model.InvalidParameterException;
import org.bgbench.model.generator.SocialGraph;
import org.bgbench.runner.Loading;
import org.bgbench.runner.Parameters;
import org.bgbench.runner.StoreLoad;
import org.bgbench.store.StateMark;
import org.bgbench.store.StoreProvider;
import org.bgbench.store.StoreRegistry;
import org.bgbench.workload.WorkloadParameters;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(
        name = "load",
        mixinStandardHelpOptions = true,
        header = "Create the schema and load a generated social graph.",
        description = "BG checks the loaded graph afterwards. Graph keys (usercount, "
                + "friendcountperuser, resourcecountperuser, confperc, insertimage, ...): 'bg keys'.")
final class LoadCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    StoreOptions storeOptions;

    @Option(
            names = "--threads",
            paramLabel = "N",
            description = "Loader threads (USC: numloadthreads; default 2 × cores).")
    Integer threads;

    @Option(
            names = "--replace",
            description = "Drop a graph the store already holds, even the same one, and load anew.")
    boolean replace;

    @Option(
            names = "--restore-image",
            description = "Instead of loading, put back the database image a rating "
                    + "took of the freshly loaded graph (fast, where the store has images), with its state mark.")
    boolean restoreImage;

    @Mixin
    ClusterOptions cluster = new ClusterOptions();

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        StoreProvider provider = storeOptions.provider(StoreRegistry.discover());
        if (threads != null && threads < 1) {
            throw new InvalidParameterException("--threads", "must be at least 1, got " + threads);
        }
        Parameters params = storeOptions.parameters();
        params.check(Keys.forLoad(provider).keySet(), Keys.IGNORED_USC);
        params.warnings().forEach(w -> err.println("bg: warning: " + w));
        GraphSpec graphSpec = GraphParameters.toSpec(params.asMap());
        int loaders = threads != null
                ? threads
                : GraphParameters.intOf(
                        params.asMap(),
                        "numloadthreads",
                        2 * Runtime.getRuntime().availableProcessors());
        SocialGraph graph = new SocialGraph(graphSpec);
        if (cluster.active()) {
            return loadWithWorkers(out, err, provider, params, graph, loaders);
        }
        if (restoreImage) {
            if (cluster.active()) {
                throw new InvalidParameterException(
                        "--restore-image",
                        "restores one store in this " + "process; with --workers use bg rate --reset image, or reload");
            }
            String mark = StoreLoad.restoreImage(provider, storeOptions.settings(provider, params), graph, err);
            out.println("Restored the database image of " + provider.name() + "; its state mark: " + mark);
            return 0;
        }
        LoadReport report =
                StoreLoad.load(provider, storeOptions.settings(provider, params), graph, loaders, replace, err);
        if (report == null) {
            out.println("The store already holds this graph (" + graphSpec.fingerprint() + "); nothing to do."
                    + " Pass --replace to load it again.");
            return 0;
        }
        out.print(Loading.describe(provider.name(), graph, report));
        return 0;
    }

    /** Each worker loads its own fragments in parallel; the first creates the schema and finishes (dissertation 4.3). */
    private int loadWithWorkers(
            PrintWriter out,
            PrintWriter err,
            StoreProvider provider,
            Parameters params,
            SocialGraph graph,
            int loaders) {
        Map<String, String> all =
                new TreeMap<>(storeOptions.settings(provider, params).asMap());
        all.putAll(params.asMap());
        try (ClusterCoordinator c = cluster.connect(err)) {
            boolean loaded = c.open(
                    provider.name(),
                    all,
                    graph,
                    WorkloadParameters.toSpec(params.asMap()),
                    cluster.rates(),
                    provider.traits().onePerWorker());
            if (loaded && !replace) {
                out.println("The store already holds this graph ("
                        + graph.spec().fingerprint() + "); nothing to do." + " Pass --replace to load it again.");
                String fresh = StateMark.loaded(graph.spec().fingerprint()).text();
                c.storeMarks().stream()
                        .filter(m -> !fresh.equals(m))
                        .findFirst()
                        .ifPresent(m ->
                                err.println("bg: note: the store holds this graph, but not as loaded (its state mark: "
                                        + m + "); pass " + "--replace to load it anew"));
                return 0;
            }
            ClusterCoordinator.LoadSummary r = c.load(loaders);
            out.printf(
                    Locale.ROOT,
                    "Loaded %s with %d workers in %.1f s (load %.1f s + finish %.1f s): %,d rows, " + "%,.0f rows/s%n",
                    provider.name(),
                    c.names().size(),
                    r.totalS(),
                    r.loadS(),
                    r.finishS(),
                    r.rows(),
                    r.rows() / Math.max(1e-9, r.loadS()));
            out.printf(
                    Locale.ROOT,
                    "  sanity check passed: %,d members, %,d friendships, %,d pending, %,d resources, "
                            + "%,d comments%n",
                    r.counts().members(),
                    r.counts().friendships(),
                    r.counts().pending(),
                    r.counts().resources(),
                    r.counts().comments());
            return 0;
        }
    }
}
