package org.bgbench.store.cassandra;

import java.util.Map;
import org.bgbench.store.DataStore;
import org.bgbench.store.conformance.StoreConformanceSuite;
import org.junit.jupiter.api.Tag;

/** The conformance suite on one real Cassandra node: BG's design, pull feeds, QUORUM reads and writes. */
@Tag("server")
class CassandraConformanceTest extends StoreConformanceSuite {
    @Override
    protected DataStore openStore() {
        return CassandraStores.open("bg_conformance", Map.of());
    }

    @Override
    protected DataStore openAgain() {
        return CassandraStores.open("bg_conformance", Map.of());
    }
}
