package org.bgbench.cli;

import java.io.PrintWriter;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import org.bgbench.cluster.coordinator.ClusterCoordinator;
import org.bgbench.cluster.protocol.Messages;
import org.bgbench.model.GraphParameters;
import org.bgbench.runner.LocalStore;
import org.bgbench.runner.Parameters;
import org.bgbench.model.generator.SocialGraph;
import org.bgbench.store.StoreProvider;
import org.bgbench.store.StoreRegistry;
import org.bgbench.store.StoreSettings;
import org.bgbench.workload.WorkloadParameters;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(name = "verify", mixinStandardHelpOptions = true,
        description = {"Compare what the store holds, read through its own actions, with the state BG expects after the",
            "runs so far: every member's friends, pending invitations and counts, every resource's comments.",
            "With --workers each worker checks its own members against the state it kept."})
final class VerifyCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    StoreOptions storeOptions;

    @Mixin
    ClusterOptions cluster = new ClusterOptions();

    @Option(names = "--limit", defaultValue = "20", description = "Differences to print at most (default ${DEFAULT-VALUE}).")
    int limit;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        StoreProvider provider = storeOptions.provider(StoreRegistry.discover());
        Parameters params = storeOptions.parameters();
        SocialGraph graph = new SocialGraph(GraphParameters.toSpec(params.asMap()));
        StoreSettings settings = storeOptions.settings(provider, params);
        if (cluster.active()) {
            Map<String, String> all = new TreeMap<>(settings.asMap());
            all.putAll(params.asMap());
            try (ClusterCoordinator c = cluster.connect(err)) {
                if (!c.open(provider.name(), all, graph, WorkloadParameters.toSpec(params.asMap()), cluster.rates(),
                        provider.traits().onePerWorker())) {
                    throw new org.bgbench.loader.LoadException("the store does not hold this graph");
                }
                List<Messages.Verified> found = c.verify(limit);
                int bad = 0;
                for (int k = 0; k < found.size(); k++) {
                    Messages.Verified f = found.get(k);
                    out.printf("worker %d %s: %,d members (%,d touched by writes), %d differences%n", k,
                            c.names().get(k), f.members(), f.touched(), f.differences().size());
                    f.differences().forEach(d -> out.println("  " + d));
                    bad += f.differences().size();
                }
                out.println(bad == 0 ? "The store holds exactly the state BG expects." : "The store differs from the state BG expects.");
                return bad == 0 ? 0 : Bg.FAILED;
            }
        }
        LocalStore.Verification v = LocalStore.verify(provider, settings, graph, limit);
        out.printf("%,d members (%,d touched by writes), %d differences%n", v.members(), v.touched(),
                v.differences().size());
        v.differences().forEach(d -> out.println("  " + d));
        out.println(v.differences().isEmpty() ? "The store holds exactly the state BG expects."
                : "The store differs from the state BG expects.");
        return v.differences().isEmpty() ? 0 : Bg.FAILED;
    }
}
