package org.bgbench.store.mongodb;

import java.util.Map;
import org.bgbench.store.DataStore;
import org.bgbench.store.conformance.StoreConformanceSuite;

/**
 * The conformance suite on FerretDB over SQLite: the defaults (comments in their collection, images inline, LF by
 * $in, pull feeds).
 */
class MongoSqliteConformanceTest extends StoreConformanceSuite {
    private static final Map<String, String> SETTINGS = Map.of();

    @Override
    protected DataStore openStore() {
        return MongoStores.open(FerretServer.Backend.SQLITE, "bg_conf_sqlite", SETTINGS);
    }

    @Override
    protected DataStore openAgain() {
        return MongoStores.open(FerretServer.Backend.SQLITE, "bg_conf_sqlite", SETTINGS);
    }
}
