package org.bgbench.cli;

import java.io.PrintWriter;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import org.bgbench.cluster.coordinator.ClusterCoordinator;
import org.bgbench.cluster.protocol.Messages;
import org.bgbench.loader.LoadException;
import org.bgbench.model.GraphKeys;
import org.bgbench.model.generator.SocialGraph;
import org.bgbench.runner.Parameters;
import org.bgbench.runner.StoreVerification;
import org.bgbench.store.StateMark;
import org.bgbench.store.StoreProvider;
import org.bgbench.store.StoreRegistry;
import org.bgbench.store.StoreSettings;
import org.bgbench.workload.WorkloadParameters;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(
        name = "verify",
        mixinStandardHelpOptions = true,
        header = "Compare what the store holds with the state BG expects.",
        description = "Compare what the store holds, read through its own actions, with the state BG expects after the "
                + "runs so far: every member's friends, pending invitations and counts, every resource's comments; "
                + "and report the store's state mark (which of BG's states it holds). Read-only unless --repair. "
                + "With --workers each worker checks its own members against the state it kept.")
final class VerifyCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    StoreOptions storeOptions;

    @Mixin
    ClusterOptions cluster = new ClusterOptions();

    @Option(
            names = "--limit",
            paramLabel = "N",
            defaultValue = "20",
            description = "Differences to print at most (default ${DEFAULT-VALUE}).")
    int limit;

    @Option(
            names = "--repair",
            description = "Bring the store back to the generated graph: read every member and fix "
                    + "each difference through the store's own actions, read it all back, then mark it as freshly loaded "
                    + "(the runs' saved state is dropped). For a store a run left in an unknown state (interrupted, crashed, "
                    + "changed by hand).")
    boolean repair;

    @Option(
            names = "--threads",
            paramLabel = "N",
            description = "Sessions reading and repairing in parallel with " + "--repair (default: 2 × cores).")
    Integer threads;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        StoreProvider provider = storeOptions.provider(StoreRegistry.discover());
        Parameters params = storeOptions.parameters();
        StoreSettings settings = storeOptions.settings(provider, params);
        // With --workers the workers read the store's graph: the coordinator may not reach the store itself.
        try (ClusterCoordinator c = cluster.active() ? cluster.connect(err) : null) {
            StoreGraph.Choice choice = StoreGraph.choose(ClusterOptions.storeGraph(c, provider), settings, params);
            if (!graphLines(out, choice)) {
                return Bg.FAILED;
            }
            SocialGraph graph = new SocialGraph(choice.asked());
            if (c != null) {
                return withWorkers(c, out, err, provider, choice.params(), graph, settings);
            }
            return here(out, err, provider, settings, graph);
        }
    }

    /** Verifies (or with --repair repairs) the store from this process. */
    private int here(
            PrintWriter out, PrintWriter err, StoreProvider provider, StoreSettings settings, SocialGraph graph) {
        if (repair) {
            return repair(out, err, provider, settings, graph);
        }
        StoreVerification.Verification v = StoreVerification.verify(provider, settings, graph, limit);
        out.println("State mark: " + v.mark() + "; compared with " + v.comparedWith());
        if (v.problem() != null) {
            out.println("Problem: " + v.problem());
        }
        out.printf(
                "%,d members (%,d touched by writes), %d differences%n",
                v.members(), v.touched(), v.differences().size());
        v.differences().forEach(d -> out.println("  " + d));
        out.println(
                v.differences().isEmpty()
                        ? "The store holds exactly the state BG expects"
                                + (v.problem() == null ? "." : ", but BG cannot run from it (see the problem above).")
                        : "The store differs from the state BG expects.");
        return v.clean() ? 0 : Bg.FAILED;
    }

    /**
     * Says which graph is verified: the store's, or, when the -p keys ask for another, both graphs with the keys
     * that differ marked {@code *key=value*}; false in that case (nothing is compared).
     */
    private static boolean graphLines(PrintWriter out, StoreGraph.Choice c) {
        if (c.held().isEmpty()) {
            return true;
        }
        if (!c.differs()) {
            out.println("Graph: " + GraphKeys.text(c.held().get())
                    + (c.named() ? " (the store holds it)" : " (from the store)"));
            return true;
        }
        List<GraphKeys.Difference> d = c.differences();
        out.println("Graph held by the store:   " + marked(c.held().get(), d, true));
        out.println("Graph the -p keys ask for: " + marked(c.askedKeys(), d, false));
        out.println("The store holds another graph ("
                + d.stream().map(GraphKeys.Difference::toString).collect(Collectors.joining(", "))
                + "): drop those -p keys to verify the store's graph.");
        return false;
    }

    /** The keys as {@code key=value}, each that differs marked {@code *key=value*} (and added when not listed). */
    private static String marked(Map<String, String> keys, List<GraphKeys.Difference> d, boolean held) {
        Map<String, String> all = new LinkedHashMap<>(keys);
        Set<String> differing = new HashSet<>();
        for (GraphKeys.Difference x : d) {
            all.putIfAbsent(x.key(), held ? x.held() : x.asked());
            differing.add(x.key());
        }
        return all.entrySet().stream()
                .map(e -> {
                    String kv = e.getKey() + "=" + e.getValue();
                    return differing.contains(e.getKey()) ? "*" + kv + "*" : kv;
                })
                .collect(Collectors.joining(" "));
    }

    private int repair(
            PrintWriter out, PrintWriter err, StoreProvider provider, StoreSettings settings, SocialGraph graph) {
        int n = threads != null ? threads : 2 * Runtime.getRuntime().availableProcessors();
        err.printf(
                "bg: repairing %s: reading all %,d members and fixing what differs from the generated graph%n",
                provider.name(), graph.members());
        err.flush();
        StoreVerification.Repair r = StoreVerification.repair(provider, settings, graph, n, limit, err);
        out.println("State mark before: " + r.markBefore());
        out.printf(
                Locale.ROOT,
                "Read %,d members in %.1f s; restored %,d relationships and %,d comments " + "with %,d actions%n",
                r.report().members(),
                r.report().seconds(),
                r.report().relationships(),
                r.report().comments(),
                r.report().storeCalls());
        if (!r.report().refused().isEmpty()) {
            out.println("Cannot fix through the store's actions:");
            r.report().refused().stream().limit(limit).forEach(d -> out.println("  " + d));
        }
        if (!r.remaining().isEmpty()) {
            out.println("Still different from the generated graph after the repair:");
            r.remaining().forEach(d -> out.println("  " + d));
        }
        out.println("State mark after: " + r.markAfter());
        if (r.done()) {
            out.println("The store holds exactly the generated graph again.");
            return 0;
        }
        out.println("The repair could not bring the store back; reload it (bg load --store " + provider.name()
                + " --replace with the same -p graph keys).");
        return Bg.FAILED;
    }

    private int withWorkers(
            ClusterCoordinator c,
            PrintWriter out,
            PrintWriter err,
            StoreProvider provider,
            Parameters params,
            SocialGraph graph,
            StoreSettings settings) {
        Map<String, String> all = new TreeMap<>(settings.asMap());
        all.putAll(params.asMap());
        if (!c.open(
                provider.name(),
                all,
                graph,
                WorkloadParameters.toSpec(params.asMap()),
                cluster.rates(),
                provider.traits().onePerWorker())) {
            throw new LoadException("the store does not hold this graph");
        }
        if (repair) {
            err.printf(
                    "bg: repairing %s on %d workers: each reads its members and fixes what differs from the "
                            + "generated graph%n",
                    provider.name(), c.names().size());
            err.flush();
            List<Messages.ResetDone> done = c.reset(Messages.ResetHow.FULL);
            boolean ok = true;
            for (int k = 0; k < done.size(); k++) {
                Messages.ResetDone d = done.get(k);
                out.printf(
                        Locale.ROOT,
                        "worker %d %s: restored %,d relationships and %,d comments in " + "%.1f s%s%n",
                        k,
                        c.names().get(k),
                        d.relationships(),
                        d.comments(),
                        d.seconds(),
                        d.verified() ? "" : "; still different: " + d.mismatch());
                ok &= d.verified();
            }
            out.println("State mark after: "
                    + (ok
                            ? StateMark.loaded(graph.spec().fingerprint())
                            : "unchanged from running: (the repair did not finish)"));
            out.println(
                    ok
                            ? "The store holds exactly the generated graph again."
                            : "The repair could not bring the store back; reload it (bg load --store " + provider.name()
                                    + " --replace --workers …).");
            return ok ? 0 : Bg.FAILED;
        }
        String problem = null;
        try {
            c.requireState();
        } catch (ClusterCoordinator.ClusterException e) {
            problem = e.getMessage();
        }
        out.println("State mark: " + String.join(", ", c.storeMarks()));
        if (problem != null) {
            out.println("Problem: " + problem);
        }
        List<Messages.Verified> found = c.verify(limit);
        int bad = 0;
        for (int k = 0; k < found.size(); k++) {
            Messages.Verified f = found.get(k);
            out.printf(
                    "worker %d %s: %,d members (%,d touched by writes), %d differences%n",
                    k,
                    c.names().get(k),
                    f.members(),
                    f.touched(),
                    f.differences().size());
            f.differences().forEach(d -> out.println("  " + d));
            bad += f.differences().size();
        }
        out.println(
                bad == 0
                        ? "The store holds exactly the state BG expects"
                                + (problem == null ? "." : ", but BG cannot run from it (see the problem above).")
                        : "The store differs from the state BG expects.");
        return bad == 0 && problem == null ? 0 : Bg.FAILED;
    }
}
