package org.bgbench.store.cassandra;

import java.util.Map;
import org.bgbench.store.DataStore;
import org.bgbench.store.conformance.StoreConformanceSuite;
import org.junit.jupiter.api.Tag;

/** The conformance suite on one real Cassandra node: report design, separate statements for AFR and TF, pull feeds. */
@Tag("server")
class CassandraReportConformanceTest extends StoreConformanceSuite {
    private static final Map<String, String> SETTINGS = Map.of("cassandra.design", "report", "cassandra.batch", "separate");

    @Override
    protected DataStore openStore() {
        return CassandraStores.open("bg_report", SETTINGS);
    }

    @Override
    protected DataStore openAgain() {
        return CassandraStores.open("bg_report", SETTINGS);
    }
}
