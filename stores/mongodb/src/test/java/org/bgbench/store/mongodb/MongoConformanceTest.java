package org.bgbench.store.mongodb;

import java.util.Map;
import org.bgbench.store.DataStore;
import org.bgbench.store.conformance.StoreConformanceSuite;
import org.junit.jupiter.api.Tag;

/**
 * The conformance suite on FerretDB over PostgreSQL: the defaults (comments in their collection, images inline, LF
 * by $in, pull feeds).
 */
@Tag("server")
class MongoConformanceTest extends StoreConformanceSuite {
    private static final Map<String, String> SETTINGS = Map.of();

    @Override
    protected DataStore openStore() {
        return MongoStores.open(FerretServer.Backend.POSTGRESQL, "bg_conf", SETTINGS);
    }

    @Override
    protected DataStore openAgain() {
        return MongoStores.open(FerretServer.Backend.POSTGRESQL, "bg_conf", SETTINGS);
    }
}
