package org.bgbench.deck;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.bgbench.emulator.EmulatorConfig;
import org.bgbench.measurement.RunResult;
import org.bgbench.model.GraphSpec;
import org.bgbench.model.generator.SocialGraph;
import org.bgbench.model.state.GraphState;
import org.bgbench.runner.Experiment;
import org.bgbench.runner.ExperimentSpec;
import org.bgbench.store.DataStore;
import org.bgbench.store.StoreSettings;
import org.bgbench.store.conformance.StoreConformanceSuite;
import org.bgbench.store.memory.MemoryStoreProvider;
import org.bgbench.workload.WorkloadParameters;
import org.bgbench.workload.WorkloadSpec;

/** A real, short experiment on the memory store (1 s warm-up, 2 s measured, 2 threads) writing its result to a file. */
public final class TestRuns {
    private static final SocialGraph GRAPH = new SocialGraph(new GraphSpec(400, 0, 10, 5, 2, 0.8, false, 0, 0, 4, 6,
            20, 4, 3));
    private static final AtomicInteger STORES = new AtomicInteger();

    private TestRuns() {
    }

    /** Runs the experiment with the observers registered now and returns its result (also written to {@code out}). */
    public static RunResult run(Path out) {
        String name = "deck-test-" + STORES.incrementAndGet();
        try (DataStore store = new MemoryStoreProvider().open(StoreSettings.of(Map.of("memory.name", name)))) {
            StoreConformanceSuite.load(store, GRAPH, 2);
            WorkloadSpec ws = WorkloadParameters.toSpec(Map.of("mix", "high"));
            ExperimentSpec spec = ExperimentSpec.timed(ws, 2, Duration.ofSeconds(2), Duration.ofSeconds(1),
                    EmulatorConfig.ThreadKind.PLATFORM, Duration.ofMillis(100), null);
            return Experiment.run(new Experiment.Setup(store, "memory", Map.of(), new GraphState(GRAPH), ws, spec,
                    out, null)).result();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
