package org.bgbench.store.postgres;

import org.bgbench.store.DataStore;
import org.bgbench.store.conformance.StoreConformanceSuite;

/** The conformance suite against one embedded PostgreSQL, started for the class and stopped when the suite closes it. */
class PostgresConformanceTest extends StoreConformanceSuite {
    @Override
    protected DataStore openStore() {
        return PostgresStore.open(new PostgresStore.Config(null, null, null, 0, true, 1));
    }
}
