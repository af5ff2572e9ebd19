package org.bgbench.store.postgres;

import org.bgbench.model.GraphSpec;
import org.bgbench.store.DataStore;
import org.bgbench.store.conformance.StoreConformanceSuite;

/**
 * The conformance suite with two rows per friendship, on a graph with an odd φ (diameter edges), member ids from 0
 * and more attributes than USC BG's eleven columns.
 */
class PostgresTwoRowsConformanceTest extends StoreConformanceSuite {
    @Override
    protected GraphSpec spec() {
        return new GraphSpec(200, 0, 9, 5, 2, 0.7, true, 32, 128, 14, 8, 30, 2, 7);
    }

    @Override
    protected DataStore openStore() {
        return PostgresStore.open(new PostgresStore.Config(null, null, null, 0, true, 2));
    }

    @Override
    protected DataStore openAgain() {
        return PostgresStore.open(new PostgresStore.Config(((PostgresStore) store).url(), null, null, 2, false, 2));
    }
}
