package org.bgbench.store.cassandra;

import java.util.Map;
import org.bgbench.store.DataStore;
import org.bgbench.store.conformance.StoreConformanceSuite;
import org.junit.jupiter.api.Tag;

/** The conformance suite on one real Cassandra node: sorted-push feeds carrying the resource's content, reads and writes at ONE. */
@Tag("server")
class CassandraSortedPushConformanceTest extends StoreConformanceSuite {
    private static final Map<String, String> SETTINGS = Map.of("feed.design", "sorted-push", "feed.push", "content",
            "cassandra.read-consistency", "ONE", "cassandra.write-consistency", "ONE");

    @Override
    protected DataStore openStore() {
        return CassandraStores.open("bg_sortedpush", SETTINGS);
    }

    @Override
    protected DataStore openAgain() {
        return CassandraStores.open("bg_sortedpush", SETTINGS);
    }
}
