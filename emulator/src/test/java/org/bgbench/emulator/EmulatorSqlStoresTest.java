package org.bgbench.emulator;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;
import org.bgbench.model.Action;
import org.bgbench.model.GraphSpec;
import org.bgbench.model.generator.SocialGraph;
import org.bgbench.model.state.GraphState;
import org.bgbench.store.DataStore;
import org.bgbench.store.StoreSettings;
import org.bgbench.store.conformance.StateComparison;
import org.bgbench.store.conformance.StoreConformanceSuite;
import org.bgbench.store.postgres.PostgresStoreProvider;
import org.bgbench.store.sqlite.SqliteStoreProvider;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Many emulated members against real SQL stores: with the high mix plus comment writes, every action must succeed
 * (the stores check that each write changes exactly the rows it should) and the store must end in BG's expected state.
 */
@Tag("server")
class EmulatorSqlStoresTest {
    private final SocialGraph graph = new SocialGraph(GraphSpec.builder()
            .members(500)
            .friendsPerMember(10)
            .resourcesPerMember(5)
            .commentsPerResource(1)
            .confirmedFraction(0.8)
            .attributeCount(4)
            .attributeLength(6)
            .commentLength(20)
            .fragments(4)
            .seed(3)
            .build());

    @TempDir
    Path dir;

    /** The high mix of the dissertation's table 4.1 with 2 % PCR and 2 % DCR taken from VTR. */
    private static double[] highWithComments() {
        double[] w = WeightedWorkload.high();
        w[Action.VTR.index()] -= 4;
        w[Action.PCR.index()] = 2;
        w[Action.DCR.index()] = 2;
        return w;
    }

    private void runAndCompare(DataStore store, int threads) {
        runAndCompare(store, threads, EmulatorConfig.ThreadKind.AUTO);
    }

    private void runAndCompare(DataStore store, int threads, EmulatorConfig.ThreadKind kind) {
        StoreConformanceSuite.load(store, graph, 2);
        GraphState state = new GraphState(graph);
        CountingRecorder rec = new CountingRecorder();
        EmulatorConfig cfg = EmulatorConfig.builder()
                .threads(threads)
                .operations(8_000)
                .topK(5)
                .commentLength(20)
                .locks(true)
                .uniqueSocialites(true)
                .seed(9)
                .threadKind(kind)
                .build();
        RunOutcome out = new Emulator(
                        store, state, new WeightedWorkload(graph.members(), highWithComments()), cfg, t -> rec)
                .run(() -> {});
        assertThat(out.errorSamples()).isEmpty();
        assertThat(out.completed()).isTrue();
        assertThat(rec.ok.get(3) + rec.ok.get(4) + rec.ok.get(6) + rec.ok.get(9) + rec.ok.get(10))
                .as("friendship and comment writes happened")
                .isGreaterThan(300);
        assertThat(StateComparison.differences(store, state, 10)).isEmpty();
    }

    @Test
    void sqliteEndsInTheExpectedState() {
        try (DataStore store = new SqliteStoreProvider()
                .open(StoreSettings.of(
                        Map.of("sqlite.file", dir.resolve("e.sqlite").toString())))) {
            runAndCompare(store, 32);
        }
    }

    @Test
    void postgresEndsInTheExpectedState() {
        try (DataStore store = new PostgresStoreProvider()
                .open(StoreSettings.forProvider(
                        new PostgresStoreProvider(), Map.of("postgres.embedded", "true", "postgres.pool", "40")))) {
            runAndCompare(store, 32);
        }
    }
}
