package org.bgbench.store.mongodb;

import java.util.Map;
import org.bgbench.store.DataStore;
import org.bgbench.store.conformance.StoreConformanceSuite;

/**
 * The conformance suite on FerretDB over PostgreSQL: comments embedded in their resource, sorted-push feeds carrying
 * the resources' content, journaled majority writes, majority reads, VTR from the wall's array.
 */
class MongoSortedPushConformanceTest extends StoreConformanceSuite {
    private static final Map<String, String> SETTINGS = Map.of(MongoStoreProvider.COMMENTS, "embedded",
            "feed.design", "sorted-push", "feed.push", "content",
            MongoStoreProvider.WRITE_CONCERN, "majority", MongoStoreProvider.JOURNAL, "true",
            MongoStoreProvider.READ_CONCERN, "majority", MongoStoreProvider.TOP_K, "wall");

    @Override
    protected DataStore openStore() {
        return MongoStores.open(FerretServer.Backend.POSTGRESQL, "bg_conf_sorted_push", SETTINGS);
    }

    @Override
    protected DataStore openAgain() {
        return MongoStores.open(FerretServer.Backend.POSTGRESQL, "bg_conf_sorted_push", SETTINGS);
    }
}
