package org.bgbench.emulator;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
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
    private final SocialGraph graph = new SocialGraph(new GraphSpec(500, 0, 10, 5, 1, 0.8, false, 0, 0, 4, 6, 20, 4, 3));

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
        EmulatorConfig cfg = new EmulatorConfig(threads, null, 8_000, Duration.ZERO, 0, 0, 0, 5, 20, true, true, 9,
                kind);
        RunOutcome out = new Emulator(store, state, new WeightedWorkload(graph.members(), highWithComments()), cfg,
                t -> rec).run(() -> { });
        assertThat(out.errorSamples()).isEmpty();
        assertThat(out.completed()).isTrue();
        assertThat(rec.ok.get(3) + rec.ok.get(4) + rec.ok.get(6) + rec.ok.get(9) + rec.ok.get(10))
                .as("friendship and comment writes happened").isGreaterThan(300);
        assertThat(StateComparison.differences(store, state, 10)).isEmpty();
    }

    @Test
    void sqliteEndsInTheExpectedState() {
        try (DataStore store = new SqliteStoreProvider().open(
                StoreSettings.of(Map.of("sqlite.file", dir.resolve("e.sqlite").toString())))) {
            runAndCompare(store, 32);
        }
    }

    /**
     * 32 members taking turns on one thread per core, each leaving it while PostgreSQL answers (pgJDBC's writes
     * and the wire client's reads alike): the same writes, the same end state, and the members really interleaved.
     */
    @Test
    void postgresOnSharedThreadsEndsInTheExpectedState() {
        long before = SharedThreads.handOffs();
        try (DataStore store = new PostgresStoreProvider().open(StoreSettings.forProvider(new PostgresStoreProvider(),
                Map.of("postgres.embedded", "true", "postgres.pool", "40", "postgres.client", "wire")))) {
            assertThat(store.handsOffWhileWaiting()).isTrue();
            runAndCompare(store, 32, EmulatorConfig.ThreadKind.SHARED);
        }
        assertThat(SharedThreads.handOffs() - before).as("members left their thread while the store answered")
                .isGreaterThan(8_000);
    }

    @Test
    void sharedThreadsAreRefusedForAStoreThatDoesNotHandOff() {
        try (DataStore store = new SqliteStoreProvider().open(
                StoreSettings.of(Map.of("sqlite.file", dir.resolve("s.sqlite").toString())))) {
            EmulatorConfig cfg = new EmulatorConfig(4, null, 100, Duration.ZERO, 0, 0, 0, 5, 20, true, true, 9,
                    EmulatorConfig.ThreadKind.SHARED);
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> new Emulator(store, new GraphState(graph),
                            new WeightedWorkload(graph.members(), highWithComments()), cfg, t -> new CountingRecorder()))
                    .isInstanceOf(org.bgbench.model.InvalidParameterException.class)
                    .hasMessageContaining("threadkind").hasMessageContaining("shared needs a store");
        }
    }

    @Test
    void postgresEndsInTheExpectedState() {
        try (DataStore store = new PostgresStoreProvider().open(
                StoreSettings.forProvider(new PostgresStoreProvider(), Map.of("postgres.embedded", "true", "postgres.pool", "40")))) {
            runAndCompare(store, 32);
        }
    }
}
