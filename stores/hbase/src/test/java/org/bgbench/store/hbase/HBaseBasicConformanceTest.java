package org.bgbench.store.hbase;

import java.util.Map;
import org.bgbench.store.DataStore;
import org.bgbench.store.conformance.StoreConformanceSuite;
import org.junit.jupiter.api.Tag;

/** The conformance suite on a real standalone HBase: the Basic design, push feeds with references, SingleGet. */
@Tag("server")
class HBaseBasicConformanceTest extends StoreConformanceSuite {
    private static final Map<String, String> SETTINGS = Map.of("hbase.design", "basic", "feed.design", "push",
            "hbase.fetch", "single");

    @Override
    protected DataStore openStore() {
        return HBaseStores.open("bgc_basic_", SETTINGS);
    }

    @Override
    protected DataStore openAgain() {
        return HBaseStores.open("bgc_basic_", SETTINGS);
    }
}
