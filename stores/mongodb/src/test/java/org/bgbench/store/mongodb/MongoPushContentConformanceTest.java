package org.bgbench.store.mongodb;

import java.util.Map;
import org.bgbench.store.DataStore;
import org.bgbench.store.conformance.StoreConformanceSuite;

/** The conformance suite on FerretDB over SQLite: comments embedded, images in GridFS, push feeds with content. */
class MongoPushContentConformanceTest extends StoreConformanceSuite {
    private static final Map<String, String> SETTINGS = Map.of(
            MongoStoreProvider.COMMENTS, "embedded", MongoStoreProvider.IMAGES, "gridfs", "feed.design", "push", "feed.push", "content");

    @Override
    protected DataStore openStore() {
        return MongoStores.open(FerretServer.Backend.SQLITE, "bg_conf_push_content", SETTINGS);
    }

    @Override
    protected DataStore openAgain() {
        return MongoStores.open(FerretServer.Backend.SQLITE, "bg_conf_push_content", SETTINGS);
    }
}
