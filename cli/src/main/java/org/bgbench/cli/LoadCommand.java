package org.bgbench.cli;

import java.io.PrintWriter;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.bgbench.loader.GraphLoad;
import org.bgbench.loader.LoadException;
import org.bgbench.loader.LoadReport;
import org.bgbench.model.GraphParameters;
import org.bgbench.model.GraphSpec;
import org.bgbench.model.generator.SocialGraph;
import org.bgbench.store.DataStore;
import org.bgbench.store.StoreProvider;
import org.bgbench.store.StoreRegistry;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

@Command(name = "load", mixinStandardHelpOptions = true,
        description = {"Create the schema and load a generated social graph, then check it.",
            "Graph keys (usercount, friendcountperuser, resourcecountperuser, confperc, insertimage, ...): 'bg keys'."})
final class LoadCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    StoreOptions storeOptions;

    @Option(names = "--threads", paramLabel = "N", description = "Loader threads (USC: numloadthreads; default 2 × cores).")
    Integer threads;

    @Option(names = "--replace", description = "Drop a graph the store already holds, even the same one, and load anew.")
    boolean replace;

    @Mixin
    ClusterOptions cluster = new ClusterOptions();

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        StoreProvider provider = storeOptions.provider(StoreRegistry.discover());
        Parameters params = storeOptions.parameters();
        params.check(Keys.forLoad(provider).keySet(), Keys.IGNORED_USC);
        params.warnings().forEach(w -> err.println("bg: warning: " + w));
        GraphSpec graphSpec = GraphParameters.toSpec(params.asMap());
        int loaders = threads != null ? threads
                : GraphParameters.intOf(params.asMap(), "numloadthreads", 2 * Runtime.getRuntime().availableProcessors());
        SocialGraph graph = new SocialGraph(graphSpec);
        if (cluster.active()) {
            return loadWithWorkers(out, err, provider, params, graph, loaders);
        }
        try (DataStore store = storeOptions.open(provider, params)) {
            LoadReport report = load(store, graph, loaders, replace, err);
            if (report == null) {
                out.println("The store already holds this graph (" + graphSpec.fingerprint() + "); nothing to do."
                        + " Pass --replace to load it again.");
                return 0;
            }
            print(out, provider.name(), graph, report);
            // A fresh load is the generated state: forget what earlier runs left.
            StateFiles states = StateFiles.defaultLocation();
            try {
                states.delete(states.fileFor(provider.name(), storeOptions.settings(provider, params)));
            } catch (java.io.IOException e) {
                err.println("bg: warning: cannot delete the saved state of earlier runs: " + e.getMessage());
            }
        }
        return 0;
    }

    /** Each worker loads its own fragments in parallel; the first creates the schema and finishes [SPEC §14]. */
    private int loadWithWorkers(PrintWriter out, PrintWriter err, StoreProvider provider, Parameters params,
                                SocialGraph graph, int loaders) {
        Map<String, String> all = new java.util.TreeMap<>(storeOptions.settings(provider, params).asMap());
        all.putAll(params.asMap());
        try (ClusterCoordinator c = cluster.connect(err)) {
            boolean loaded = c.open(provider.name(), all, graph,
                    org.bgbench.workload.WorkloadParameters.toSpec(params.asMap()), cluster.rates(),
                    ClusterOptions.storePerWorker(provider));
            if (loaded && !replace) {
                out.println("The store already holds this graph (" + graph.spec().fingerprint() + "); nothing to do."
                        + " Pass --replace to load it again.");
                return 0;
            }
            com.fasterxml.jackson.databind.JsonNode r = c.load(loaders);
            out.printf(java.util.Locale.ROOT, "Loaded %s with %d workers in %.1f s (load %.1f s + finish %.1f s): %,d rows, "
                            + "%,.0f rows/s%n", provider.name(), c.names().size(), r.path("total_s").asDouble(),
                    r.path("load_s").asDouble(), r.path("finish_s").asDouble(), r.path("rows").asLong(),
                    r.path("rows").asLong() / Math.max(1e-9, r.path("load_s").asDouble()));
            out.printf(java.util.Locale.ROOT, "  sanity check passed: %,d members, %,d friendships, %,d pending, %,d resources, "
                            + "%,d comments%n", r.path("members").asLong(), r.path("friendships").asLong(),
                    r.path("pending").asLong(), r.path("resources").asLong(), r.path("comments").asLong());
            return 0;
        }
    }

    /** Loads unless the store holds this graph already (then returns null); refuses to overwrite another graph. */
    static LoadReport load(DataStore store, SocialGraph graph, int threads, boolean replace, PrintWriter err) {
        Optional<String> existing = store.loadedGraph();
        String want = graph.spec().fingerprint();
        if (existing.isPresent() && !replace) {
            if (existing.get().equals(want)) {
                return null;
            }
            throw new LoadException("the store already holds a different graph (" + existing.get()
                    + "); pass --replace to drop it and load " + want);
        }
        long expectedRows = graph.members() + graph.totalFriendships() + graph.totalPendingInvitations()
                + graph.totalResources() + graph.totalInitialComments();
        long start = System.nanoTime();
        return new GraphLoad(store, graph, threads).run(rows -> {
            double s = (System.nanoTime() - start) / 1e9;
            err.printf("  %5.0fs  %,d rows (%.0f %%)  %,.0f rows/s%n", s, rows, 100.0 * rows / Math.max(1, expectedRows),
                    rows / Math.max(1e-9, s));
            err.flush();
        });
    }

    static void print(PrintWriter out, String store, SocialGraph graph, LoadReport r) {
        GraphSpec s = graph.spec();
        out.printf("Loaded %s: M=%s φ=%d ρ=%d%s with %d threads%n", store, Format.count(s.members()),
                s.friendsPerMember(), s.resourcesPerMember(),
                s.images() ? " images " + s.thumbnailBytes() + " B / " + s.profileImageBytes() + " B" : " no images",
                r.threads());
        out.printf("  time  %s (bulk load %s + indexes %s)%n", Format.seconds(r.totalSeconds()),
                Format.seconds(r.loadSeconds()), Format.seconds(r.finishSeconds()));
        out.printf("  rows  %s, %s rows/s%n", Format.count(r.rows()), Format.rate(r.rowsPerSecond()));
        out.printf("  sanity check passed: %s members, %s friendships, %s pending, %s resources, %s comments%n",
                Format.count(r.counts().members()), Format.count(r.counts().friendships()),
                Format.count(r.counts().pending()), Format.count(r.counts().resources()),
                Format.count(r.counts().comments()));
    }
}
