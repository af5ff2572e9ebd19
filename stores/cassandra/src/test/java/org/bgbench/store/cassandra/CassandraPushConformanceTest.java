package org.bgbench.store.cassandra;

import java.util.Map;
import org.bgbench.store.DataStore;
import org.bgbench.store.conformance.StoreConformanceSuite;
import org.junit.jupiter.api.Tag;

/** The conformance suite on one real Cassandra node: push feeds with references, unlogged batches. */
@Tag("server")
class CassandraPushConformanceTest extends StoreConformanceSuite {
    private static final Map<String, String> SETTINGS = Map.of("feed.design", "push", "cassandra.batch", "unlogged");

    @Override
    protected DataStore openStore() {
        return CassandraStores.open("bg_push", SETTINGS);
    }

    @Override
    protected DataStore openAgain() {
        return CassandraStores.open("bg_push", SETTINGS);
    }
}
