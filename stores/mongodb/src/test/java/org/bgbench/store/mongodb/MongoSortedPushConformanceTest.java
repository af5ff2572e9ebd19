package org.bgbench.store.mongodb;

import java.util.Map;
import org.bgbench.store.DataStore;
import org.bgbench.store.conformance.StoreConformanceSuite;

/** The conformance suite on FerretDB over SQLite: LF by one query per friend, sorted-push feeds with content, majority write concern. */
class MongoSortedPushConformanceTest extends StoreConformanceSuite {
    private static final Map<String, String> SETTINGS = Map.of(
            MongoStoreProvider.LIST_FRIENDS, "each", "feed.design", "sorted-push", "feed.push", "content",
            MongoStoreProvider.WRITE_CONCERN, "majority");

    @Override
    protected DataStore openStore() {
        return MongoStores.open(FerretServer.Backend.SQLITE, "bg_conf_sorted_push", SETTINGS);
    }

    @Override
    protected DataStore openAgain() {
        return MongoStores.open(FerretServer.Backend.SQLITE, "bg_conf_sorted_push", SETTINGS);
    }
}
