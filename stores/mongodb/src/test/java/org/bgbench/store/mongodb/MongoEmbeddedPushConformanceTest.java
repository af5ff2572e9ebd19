package org.bgbench.store.mongodb;

import java.util.Map;
import org.bgbench.store.DataStore;
import org.bgbench.store.conformance.StoreConformanceSuite;

/**
 * The conformance suite on FerretDB over PostgreSQL: comments embedded in their resource, images in GridFS, push
 * feeds by reference.
 */
class MongoEmbeddedPushConformanceTest extends StoreConformanceSuite {
    private static final Map<String, String> SETTINGS = Map.of(
            MongoStoreProvider.COMMENTS, "embedded", MongoStoreProvider.IMAGES, "gridfs", "feed.design", "push");

    @Override
    protected DataStore openStore() {
        return MongoStores.open(FerretServer.Backend.POSTGRESQL, "bg_conf_embedded_push", SETTINGS);
    }

    @Override
    protected DataStore openAgain() {
        return MongoStores.open(FerretServer.Backend.POSTGRESQL, "bg_conf_embedded_push", SETTINGS);
    }
}
