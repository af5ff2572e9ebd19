package org.bgbench.store.postgres;

import org.bgbench.store.DataStore;
import org.bgbench.store.conformance.StoreConformanceSuite;
import org.junit.jupiter.api.Tag;

/**
 * The conformance suite with VP, LF, VFR, VTR and the four friendship writes through BG's own protocol client
 * ({@code postgres.client=wire}): they must return and change exactly what pgJDBC's path does, and a write in a state
 * it was not chosen for must fail as there.
 */
@Tag("server")
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
