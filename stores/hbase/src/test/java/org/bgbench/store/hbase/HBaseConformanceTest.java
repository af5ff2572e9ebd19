package org.bgbench.store.hbase;

import java.util.Map;
import java.util.stream.Stream;
import org.bgbench.store.conformance.ConformanceMatrix;
import org.bgbench.store.conformance.ConformanceTarget;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.TestFactory;

/** The conformance suite on the module's one real standalone HBase, each variant under a table prefix of its own. */
@Tag("server")
class HBaseConformanceTest {
    @TestFactory
    Stream<DynamicNode> conformance() {
        return ConformanceMatrix.of(
                        // The Manual design (the paper's choice), pull feeds, BatchedGet.
                        variant("manual", "bgc_manual_", Map.of()),
                        // The Basic design, push feeds with references, SingleGet.
                        variant(
                                "basic",
                                "bgc_basic_",
                                Map.of("hbase.design", "basic", "feed.design", "push", "hbase.fetch", "single")))
                .tests();
    }

    private static ConformanceTarget variant(String name, String prefix, Map<String, String> settings) {
        return ConformanceTarget.of(name, () -> HBaseStores.open(prefix, settings))
                .reopenable();
    }
}
