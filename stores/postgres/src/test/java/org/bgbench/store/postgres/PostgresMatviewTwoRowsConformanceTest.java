package org.bgbench.store.postgres;

import org.bgbench.model.GraphSpec;
import org.bgbench.store.DataStore;
import org.bgbench.store.conformance.StoreConformanceSuite;

/**
 * The conformance suite on the materialized-view design with synchronous refresh and two rows per friendship, whose
 * accept is the session's own two-statement transaction that also refreshes the view.
 */
class PostgresMatviewTwoRowsConformanceTest extends StoreConformanceSuite {
    @Override
    protected GraphSpec spec() {
        return new GraphSpec(200, 0, 9, 5, 2, 0.7, true, 32, 128, 14, 8, 30, 2, 7);
    }

    @Override
    protected DataStore openStore() {
        return PostgresStore.open(new PostgresStore.Config(null, null, null, 0, true, 2,
                PostgresStore.Design.MATVIEW, null));
    }
}
