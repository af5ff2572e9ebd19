package org.bgbench.store.postgres;

import org.bgbench.store.DataStore;
import org.bgbench.store.conformance.StoreConformanceSuite;

/**
 * The conformance suite with VP, LF and VFR through BG's own protocol client ({@code postgres.client=wire}): they
 * must return exactly what pgJDBC's path returns.
 */
class PostgresWireConformanceTest extends StoreConformanceSuite {
    @Override
    protected DataStore openStore() {
        return PostgresStore.open(new PostgresStore.Config(null, null, null, 0, true, 1)
                .withClient(PostgresStore.Client.WIRE));
    }

    @Override
    protected DataStore openAgain() {
        return PostgresStore.open(new PostgresStore.Config(((PostgresStore) store).url(), null, null, 2, false, 1)
                .withClient(PostgresStore.Client.WIRE));
    }
}
