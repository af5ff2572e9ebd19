package org.bgbench.runner.observe;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import org.bgbench.emulator.EmulatorConfig;
import org.bgbench.measurement.RunResult;
import org.bgbench.measurement.SecondSample;
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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A registered observer sees one experiment from start to end: its description, every second (the measured ones add
 * up to the result's actions) and the result; a failing observer changes nothing, and a closed registration sees no
 * further experiment.
 */
class ObserversTest {
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

    @TempDir
    Path dir;

    @Test
    void anObserverFollowsAnExperimentAndAFailingOneChangesNothing() throws Exception {
        AtomicReference<ExperimentInfo> started = new AtomicReference<>();
        List<SecondSample> seconds = new CopyOnWriteArrayList<>();
        AtomicReference<RunResult> finished = new AtomicReference<>();
        ExperimentObserver watching = new ExperimentObserver() {
            @Override
            public void started(ExperimentInfo info) {
                started.set(info);
            }

            @Override
            public void second(ExperimentInfo info, SecondSample sample) {
                seconds.add(sample);
            }

            @Override
            public void finished(ExperimentInfo info, RunResult result) {
                finished.set(result);
            }
        };
        ExperimentObserver failing = new ExperimentObserver() {
            @Override
            public void second(ExperimentInfo info, SecondSample sample) {
                throw new IllegalStateException("an observer's bug");
            }
        };
        Path out = dir.resolve("observed.json");
        try (DataStore store = new MemoryStoreProvider().open(StoreSettings.of(Map.of("memory.name", "observed")))) {
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
            Experiment.Outcome o;
            try (Observers.Registration a = Observers.register(failing);
                    Observers.Registration b = Observers.register(watching)) {
                o = Experiment.run(new Experiment.Setup(
                        new Experiment.Subject(store, "memory", Map.of()),
                        new GraphState(GRAPH),
                        ws,
                        spec,
                        new Experiment.Output(out, null)));
            }
            assertThat(started.get()).isEqualTo(new ExperimentInfo("memory", "high", 2, 100, 2, 1, out));
            assertThat(finished.get()).isSameAs(o.result());
            assertThat(seconds).anyMatch(SecondSample::warmup).anyMatch(s -> !s.warmup());
            long measured = seconds.stream()
                    .filter(s -> !s.warmup())
                    .mapToLong(s -> s.point().actions())
                    .sum();
            assertThat(measured).isPositive().isEqualTo(o.result().total().count());

            started.set(null);
            Experiment.run(new Experiment.Setup(
                    new Experiment.Subject(store, "memory", Map.of()),
                    new GraphState(GRAPH),
                    ws,
                    spec,
                    new Experiment.Output(dir.resolve("unobserved.json"), null)));
            assertThat(started.get()).as("a closed registration").isNull();
        }
    }
}
