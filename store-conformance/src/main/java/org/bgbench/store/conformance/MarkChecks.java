package org.bgbench.store.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.bgbench.model.state.GraphState;
import org.bgbench.store.DataStore;
import org.bgbench.store.StateMark;
import org.bgbench.store.StoreException;
import org.bgbench.store.StoreImage;

/** The state mark's checks: what a load records, the mark's round trip, its compare-and-set race, reopening and images. */
final class MarkChecks extends FixtureChecks {
    MarkChecks(ConformanceFixture fixture) {
        super(fixture);
    }

    void recordsTheLoadedGraph() {
        assertThat(store.loadedGraph()).contains(graph.spec().fingerprint());
        leftAsLoaded();
    }

    void aLoadSetsTheLoadedStateMark() {
        assertThat(store.stateMark())
                .contains(StateMark.loaded(graph.spec().fingerprint()).text());
        store.writeStateMark("running:a run");
        // A new load replaces whatever a run left.
        load(store, graph, 2);
        assertThat(store.stateMark()).contains("loaded:" + graph.spec().fingerprint());
    }

    void theStateMarkRoundTripsAndGoesWithTheSchema() {
        store.writeStateMark("running:3f2c started 2025-01-01T00:00:00Z");
        assertThat(store.stateMark()).contains("running:3f2c started 2025-01-01T00:00:00Z");
        store.writeStateMark("state:9a8b7c");
        assertThat(store.stateMark()).contains("state:9a8b7c");
        // Writing the mark changes nothing BG reads, and no read changes the mark.
        assertThat(StateComparison.differences(store, new GraphState(graph), 5)).isEmpty();
        assertThat(store.stateMark()).contains("state:9a8b7c");
        assertThat(store.loadedGraph()).contains(graph.spec().fingerprint());
        store.createSchema(graph.spec());
        assertThat(store.stateMark()).as("a new schema holds no state BG knows").isEmpty();
        store.dropSchema();
        assertThat(store.stateMark()).isEmpty();
        assertThatThrownBy(() -> store.writeStateMark("state:x"))
                .as("no schema, no mark")
                .isInstanceOf(StoreException.class);
    }

    void theStateMarkSurvivesClosingAndReopeningTheStore() {
        store.writeStateMark("state:before-reopen");
        DataStore again = openAgain();
        assumeTrue(
                again != null,
                "the suite's store cannot be opened a second time (its contents live only as long as its handle)");
        try {
            assertThat(again.stateMark()).contains("state:before-reopen");
            again.writeStateMark("running:written by another handle");
        } finally {
            again.close();
        }
        DataStore third = openAgain();
        try {
            assertThat(third.stateMark()).contains("running:written by another handle");
            assertThat(third.loadedGraph()).contains(graph.spec().fingerprint());
        } finally {
            third.close();
        }
        assertThat(store.stateMark()).contains("running:written by another handle");
    }

    /** Handles racing for the mark in {@link #ofManyReplacingTheSameMarkAtTheSameInstantExactlyOneSucceeds}. */
    private static final int RACERS = 4;
    /** Rounds of that race: a store that checks and writes in two steps loses one of them. */
    private static final int RACE_ROUNDS = 6;

    /**
     * Two runs that start together both read the mark they may start from; the store's compare-and-set must let only
     * one of them write {@code running:}. Each racer has its own handle where the store can be opened again (its own
     * connections, as separate processes would), and all are released by one barrier in every round.
     */
    void ofManyReplacingTheSameMarkAtTheSameInstantExactlyOneSucceeds() throws Exception {
        String loaded = StateMark.loaded(graph.spec().fingerprint()).text();
        assertThat(store.replaceStateMark("state:another", "running:not this one"))
                .as("a mark other than the expected one is not replaced")
                .isFalse();
        assertThat(store.stateMark()).contains(loaded);
        List<DataStore> handles = new ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(RACERS);
        try {
            for (int i = 0; i < RACERS; i++) {
                DataStore again = openAgain();
                handles.add(again == null ? store : again);
            }
            String expected = loaded;
            for (int round = 0; round < RACE_ROUNDS; round++) {
                CyclicBarrier start = new CyclicBarrier(RACERS);
                List<Future<Boolean>> won = new ArrayList<>();
                for (int i = 0; i < RACERS; i++) {
                    DataStore h = handles.get(i);
                    String from = expected;
                    String to = "running:round " + round + " racer " + i;
                    won.add(pool.submit(() -> {
                        start.await();
                        return h.replaceStateMark(from, to);
                    }));
                }
                List<Integer> winners = new ArrayList<>();
                for (int i = 0; i < RACERS; i++) {
                    if (won.get(i).get()) {
                        winners.add(i);
                    }
                }
                assertThat(winners)
                        .as("racers that replaced %s in round %d", expected, round)
                        .hasSize(1);
                expected = "running:round " + round + " racer " + winners.get(0);
                assertThat(store.stateMark())
                        .as("the winner's mark, round %d", round)
                        .contains(expected);
            }
        } finally {
            pool.shutdownNow();
            for (DataStore h : handles) {
                if (h != store) {
                    h.close();
                }
            }
        }
        store.dropSchema();
        assertThatThrownBy(() -> store.replaceStateMark("loaded:x", "running:y"))
                .as("no schema, no mark")
                .isInstanceOf(StoreException.class);
    }

    void anImageRestoreBringsBackTheMarkItWasSavedWith() {
        Optional<StoreImage> image = store.image();
        assumeTrue(image.isPresent(), "the store has no database image");
        String loaded = "loaded:" + graph.spec().fingerprint();
        assertThat(store.stateMark()).contains(loaded);
        image.get().save();
        store.writeStateMark("running:an experiment");
        randomWrites(200, 15);
        assertThat(image.get().exists()).isTrue();
        image.get().restore();
        assertThat(store.stateMark()).contains(loaded);
        assertThat(StateComparison.differences(store, new GraphState(graph), 20))
                .isEmpty();
        // The image keeps the mark it was taken with, whatever the store's mark is when it is restored again.
        store.writeStateMark("state:after-restore");
        image.get().restore();
        assertThat(store.stateMark()).contains(loaded);
    }
}
