package org.bgbench.store.hbase;

import java.util.Map;
import org.bgbench.store.DataStore;
import org.bgbench.store.conformance.StoreConformanceSuite;
import org.junit.jupiter.api.Tag;

/** The conformance suite on a real standalone HBase: the Manual design (the paper's choice), pull feeds, BatchedGet. */
@Tag("server")
class HBaseConformanceTest extends StoreConformanceSuite {
    @Override
    protected DataStore openStore() {
        return HBaseStores.open("bgc_manual_", Map.of());
    }

    @Override
    protected DataStore openAgain() {
        return HBaseStores.open("bgc_manual_", Map.of());
    }
}
