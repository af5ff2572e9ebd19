package org.bgbench.deck;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
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
    private static final SocialGraph GRAPH = new SocialGraph(GraphSpec.builder()
            .members(400)
            .friendsPerMember(10)
            .resourcesPerMember(5)
            .commentsPerResource(2)
            .confirmedFraction(0.8)
            .attributeCount(4)
            .attributeLength(6)
            .commentLength(20)
            .fragments(4)
            .seed(3)
            .build());
    private static final AtomicInteger STORES = new AtomicInteger();

    private TestRuns() {}

    /** Runs the experiment with the observers registered now and returns its result (also written to {@code out}). */
    public static RunResult run(Path out) {
        String name = "deck-test-" + STORES.incrementAndGet();
        try (DataStore store = new MemoryStoreProvider().open(StoreSettings.of(Map.of("memory.name", name)))) {
            StoreConformanceSuite.load(store, GRAPH, 2);
            WorkloadSpec ws = WorkloadParameters.toSpec(Map.of("mix", "high"));
            ExperimentSpec spec = ExperimentSpec.timed(
                    ws,
                    2,
                    Duration.ofSeconds(2),
                    Duration.ofSeconds(1),
                    EmulatorConfig.ThreadKind.PLATFORM,
                    Duration.ofMillis(100),
                    null);
            return Experiment.run(new Experiment.Setup(
                            new Experiment.Subject(store, "memory", Map.of()),
                            new GraphState(GRAPH),
                            ws,
                            spec,
                            new Experiment.Output(out, null)))
                    .result();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Copies the hand-written samples into {@code runs}: a {@code bg scale} directory ({@code scale/scale.json} with
     * the first configuration's rating as {@code scale/01-primary/rating.json}) and an elasticity result
     * ({@code elast/elasticity.json}, the format the lead's {@code bg elasticity} writes).
     */
    public static void scaleAndElasticity(Path runs) throws IOException {
        Path scale = Files.createDirectories(runs.resolve("scale"));
        Files.writeString(scale.resolve("scale.json"), sample("scale.json"));
        Files.writeString(
                Files.createDirectories(scale.resolve("01-primary")).resolve("rating.json"),
                "{\"soar\":{\"actions_per_second\":1000.0,\"threads\":8,\"status\":\"confirmed\"},"
                        + "\"complete\":true,\"store\":\"postgres\",\"workload\":\"high\"}");
        Files.writeString(
                Files.createDirectories(runs.resolve("elast")).resolve("elasticity.json"), sample("elasticity.json"));
    }

    /** A sample file of the test resources. */
    public static String sample(String name) throws IOException {
        try (var in = TestRuns.class.getResourceAsStream("samples/" + name)) {
            if (in == null) {
                throw new FileNotFoundException("samples/" + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
