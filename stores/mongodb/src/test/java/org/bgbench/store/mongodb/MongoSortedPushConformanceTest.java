package org.bgbench.store.mongodb;

import java.util.Map;
import org.bgbench.store.DataStore;
import org.bgbench.store.conformance.StoreConformanceSuite;

/**
 * The conformance suite on FerretDB over PostgreSQL: sorted-push feeds carrying the resources' content, journaled
 * majority writes, majority reads.
 */
class MongoSortedPushConformanceTest extends StoreConformanceSuite {
    private static final Map<String, String> SETTINGS = Map.of("feed.design", "sorted-push", "feed.push", "content",
            MongoStoreProvider.WRITE_CONCERN, "majority", MongoStoreProvider.JOURNAL, "true",
            MongoStoreProvider.READ_CONCERN, "majority");

    @Override
    protected DataStore openStore() {
        return MongoStores.open(FerretServer.Backend.POSTGRESQL, "bg_conf_sorted_push", SETTINGS);
    }

    @Override
    protected DataStore openAgain() {
        return MongoStores.open(FerretServer.Backend.POSTGRESQL, "bg_conf_sorted_push", SETTINGS);
    }
}
