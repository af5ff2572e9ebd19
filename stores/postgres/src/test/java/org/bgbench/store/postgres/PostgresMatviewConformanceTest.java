package org.bgbench.store.postgres;

import org.bgbench.store.DataStore;
import org.bgbench.store.conformance.StoreConformanceSuite;
import org.junit.jupiter.api.Tag;

/** The conformance suite on the materialized-view design with synchronous refresh: VP counts are never stale. */
@Tag("server")
class PostgresMatviewConformanceTest extends StoreConformanceSuite {
    @Override
    protected DataStore openStore() {
        return PostgresStore.open(PostgresConfig.embedded().design(PostgresStore.Design.MATVIEW).build());
    }

    @Override
    protected DataStore openAgain() {
        return PostgresStore.open(PostgresConfig.at(((PostgresStore) store).url()).pool(2)
                .design(PostgresStore.Design.MATVIEW).build());
    }
}
