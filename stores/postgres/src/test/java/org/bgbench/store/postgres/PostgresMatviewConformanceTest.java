package org.bgbench.store.postgres;

import org.bgbench.store.DataStore;
import org.bgbench.store.conformance.StoreConformanceSuite;
import org.junit.jupiter.api.Tag;

/** The conformance suite on the materialized-view design with synchronous refresh: VP counts are never stale. */
@Tag("server")
class PostgresMatviewConformanceTest extends StoreConformanceSuite {
    @Override
    protected DataStore openStore() {
        return PostgresStore.open(new PostgresStore.Config(null, null, null, 0, true, 1,
                PostgresStore.Design.MATVIEW, null));
    }

    @Override
    protected DataStore openAgain() {
        return PostgresStore.open(new PostgresStore.Config(((PostgresStore) store).url(), null, null, 2, false, 1,
                PostgresStore.Design.MATVIEW, null));
    }
}
