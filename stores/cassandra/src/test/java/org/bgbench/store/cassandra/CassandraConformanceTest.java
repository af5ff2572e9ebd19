package org.bgbench.store.cassandra;

import java.util.Map;
import java.util.stream.Stream;
import org.bgbench.store.conformance.ConformanceMatrix;
import org.bgbench.store.conformance.ConformanceTarget;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.TestFactory;

/** The conformance suite on the module's one real Cassandra node, each variant in a keyspace of its own. */
@Tag("server")
class CassandraConformanceTest {
    @TestFactory
    Stream<DynamicNode> conformance() {
        return ConformanceMatrix.of(
                        // BG's design, pull feeds, QUORUM reads and writes.
                        variant("default", "bg_conformance", Map.of()),
                        // Push feeds with references, unlogged batches.
                        variant("push", "bg_push", Map.of("feed.design", "push", "cassandra.batch", "unlogged")),
                        // The report design, separate statements for AFR and TF, pull feeds.
                        variant(
                                "report",
                                "bg_report",
                                Map.of("cassandra.design", "report", "cassandra.batch", "separate")),
                        // Sorted-push feeds carrying the resource's content, reads and writes at ONE.
                        variant(
                                "sorted-push",
                                "bg_sortedpush",
                                Map.of(
                                        "feed.design",
                                        "sorted-push",
                                        "feed.push",
                                        "content",
                                        "cassandra.read-consistency",
                                        "ONE",
                                        "cassandra.write-consistency",
                                        "ONE")))
                .tests();
    }

    private static ConformanceTarget variant(String name, String keyspace, Map<String, String> settings) {
        return ConformanceTarget.of(name, () -> CassandraStores.open(keyspace, settings))
                .reopenable();
    }
}
