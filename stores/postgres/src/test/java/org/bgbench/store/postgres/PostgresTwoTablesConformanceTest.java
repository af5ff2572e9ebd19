package org.bgbench.store.postgres;

import org.bgbench.store.DataStore;
import org.bgbench.store.conformance.StoreConformanceSuite;
import org.bgbench.store.relational.PhysicalDesign;
import org.junit.jupiter.api.Tag;

/**
 * The conformance suite with two friendship tables (CIKM 2013 figure 8) and one row per friendship, VP counting
 * {@code friends} on both columns and {@code pending} by aggregate subqueries.
 */
@Tag("server")
class PostgresTwoTablesConformanceTest extends StoreConformanceSuite {
    private static final PhysicalDesign TWO_TABLES = new PhysicalDesign(2, false, false, null);

    @Override
    protected DataStore openStore() {
        return PostgresStore.open(PostgresConfig.embedded().physical(TWO_TABLES).build());
    }

    @Override
    protected DataStore openAgain() {
        return PostgresStore.open(PostgresConfig.at(((PostgresStore) store).url()).pool(2).physical(TWO_TABLES)
                .build());
    }
}
