package org.bgbench.store.postgres;

import org.bgbench.store.DataStore;
import org.bgbench.store.conformance.StoreConformanceSuite;
import org.junit.jupiter.api.Tag;

/** The conformance suite against one embedded PostgreSQL, started for the class and stopped when the suite closes it. */
@Tag("server")
class PostgresConformanceTest extends StoreConformanceSuite {
    @Override
    protected DataStore openStore() {
        return PostgresStore.open(PostgresConfig.embedded().build());
    }

    /** A second client of the embedded server (closing the suite's own handle would stop the server). */
    @Override
    protected DataStore openAgain() {
        return PostgresStore.open(PostgresConfig.at(((PostgresStore) store).url()).pool(2).build());
    }
}
