package org.bgbench.store.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.function.Supplier;
import org.bgbench.model.Action;
import org.bgbench.model.generator.SocialGraph;
import org.bgbench.model.state.GraphState;
import org.bgbench.store.DataStore;
import org.bgbench.store.StoreSession;

/**
 * What every conformance check works on: the store under test, the graph loaded into it before each check, and a way
 * to open a second handle on the same contents (null when the store cannot be opened twice).
 */
final class ConformanceFixture {
    /** Members of the suite's own graph, for which the write counts of the checks were sized. */
    private static final int SIZED_FOR_MEMBERS = 120;

    private static final Action[] WRITES = {
        Action.IF, Action.AFR, Action.RFR, Action.TF, Action.PCR, Action.DCR, Action.SR
    };

    private final DataStore store;
    private final SocialGraph graph;
    private final Supplier<DataStore> again;
    /** Whether the store holds the graph just as the last load left it, by checks that only read since. */
    private boolean asLoaded;

    ConformanceFixture(DataStore store, SocialGraph graph, Supplier<DataStore> again) {
        this.store = store;
        this.graph = graph;
        this.again = again;
    }

    DataStore store() {
        return store;
    }

    SocialGraph graph() {
        return graph;
    }

    /** Another handle on the store's contents, opened anew, or null if the store cannot be opened a second time. */
    DataStore openAgain() {
        return again.get();
    }

    /**
     * Loads the graph afresh, as before every check, unless the check before only read the store and passed: the
     * store then still holds exactly the loaded graph and its mark, and loading it again would change nothing.
     */
    void loadFresh() {
        if (asLoaded) {
            asLoaded = false;
            return;
        }
        GraphLoads.load(store, graph, 3);
    }

    /** Said by a check that only read the store, at its end (so only when it passed): the next need not reload. */
    void leftAsLoaded() {
        asLoaded = true;
    }

    /**
     * {@code writes} (a count of random writes, or a bound on writes done, sized for the suite's 120-member graph)
     * for this graph: the same writes per member on a smaller graph, unchanged on the suite's graph or a larger one,
     * so a store that shrinks the graph because each action costs more (MongoDB over FerretDB) runs as many writes
     * per member as every other store.
     */
    int scaledToGraph(int writes) {
        return (int) Math.max(1, (long) writes * Math.min(graph.members(), SIZED_FOR_MEMBERS) / SIZED_FOR_MEMBERS);
    }

    /** Random valid writes by {@code steps} actions ({@link #scaledToGraph scaled}), checked to have changed it. */
    GraphState randomWrites(int steps, long seed) {
        int scaled = scaledToGraph(steps);
        GraphState state = new GraphState(graph);
        ValidActions actions = new ValidActions(state);
        SplittableRandom rnd = new SplittableRandom(seed);
        try (StoreSession s = store.openSession()) {
            for (int step = 0; step < scaled; step++) {
                Action action = WRITES[rnd.nextInt(WRITES.length)];
                int a = rnd.nextInt(graph.members());
                actions.perform(s, action, a, actions.partner(action, a, rnd), rnd);
            }
        }
        assertThat(StateComparison.differences(store, new GraphState(graph), 1))
                .as("the writes changed the store")
                .isNotEmpty();
        return state;
    }

    /** The member ids of member indexes, sorted. */
    int[] ids(int[] indexes) {
        int[] out = Arrays.stream(indexes).map(graph::memberId).toArray();
        Arrays.sort(out);
        return out;
    }
}
