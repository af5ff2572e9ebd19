package org.bgbench.store.conformance;

import org.bgbench.model.generator.SocialGraph;
import org.bgbench.model.state.GraphState;
import org.bgbench.store.DataStore;

/** A group of conformance checks over one {@link ConformanceFixture}, with its store and graph at hand. */
abstract class FixtureChecks {
    protected final DataStore store;
    protected final SocialGraph graph;
    private final ConformanceFixture fixture;

    FixtureChecks(ConformanceFixture fixture) {
        this.fixture = fixture;
        this.store = fixture.store();
        this.graph = fixture.graph();
    }

    final DataStore openAgain() {
        return fixture.openAgain();
    }

    final int scaledToGraph(int writes) {
        return fixture.scaledToGraph(writes);
    }

    final GraphState randomWrites(int steps, long seed) {
        return fixture.randomWrites(steps, seed);
    }

    /** Ends a check that only read the store: the next check starts from it without loading it again. */
    final void leftAsLoaded() {
        fixture.leftAsLoaded();
    }

    final int[] ids(int[] indexes) {
        return fixture.ids(indexes);
    }

    static void load(DataStore store, SocialGraph graph, int threads) {
        GraphLoads.load(store, graph, threads);
    }
}
