package org.bgbench.store.mongodb;

import java.util.Map;
import org.bgbench.store.DataStore;
import org.bgbench.store.conformance.StoreConformanceSuite;

/** The conformance suite on FerretDB over PostgreSQL: LF by one query per friend, sorted-push feeds by reference, journaled majority writes. */
class MongoSortedPushReferenceConformanceTest extends StoreConformanceSuite {
    private static final Map<String, String> SETTINGS = Map.of(
            MongoStoreProvider.LIST_FRIENDS, "each", "feed.design", "sorted-push", MongoStoreProvider.WRITE_CONCERN, "majority",
            MongoStoreProvider.JOURNAL, "true");

    @Override
    protected DataStore openStore() {
        return MongoStores.open(FerretServer.Backend.POSTGRESQL, "bg_conf_sorted_ref", SETTINGS);
    }

    @Override
    protected DataStore openAgain() {
        return MongoStores.open(FerretServer.Backend.POSTGRESQL, "bg_conf_sorted_ref", SETTINGS);
    }
}
