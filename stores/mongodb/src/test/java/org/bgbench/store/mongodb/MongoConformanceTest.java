package org.bgbench.store.mongodb;

import java.util.Map;
import java.util.stream.Stream;
import org.bgbench.store.conformance.ConformanceMatrix;
import org.bgbench.store.conformance.ConformanceTarget;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.TestFactory;

/**
 * The conformance suite on FerretDB (the JVM's shared server of each backend), each variant in a database of its own.
 * Every FerretDB query scans its collection, and the SQLite backend filters every query in Go (it pushes down only
 * string and ObjectId _ids), so every variant runs on {@link ConformanceTarget#halfGraph()} (an action costs about
 * half, and half as many run); the suite scales its random write counts to the graph: the same writes per member.
 */
@Tag("server")
class MongoConformanceTest {
    @TestFactory
    Stream<DynamicNode> conformance() {
        return ConformanceMatrix.of(
                        // The defaults over PostgreSQL: comments in their collection, images inline, LF by $in, pull
                        // feeds.
                        variant("default", FerretServer.Backend.POSTGRESQL, "bg_conf", Map.of())
                                .on(ConformanceTarget.halfGraph()),
                        // Sorted-push feeds carrying the resources' content, journaled majority writes, majority reads.
                        variant(
                                        "sorted-push",
                                        FerretServer.Backend.POSTGRESQL,
                                        "bg_conf_sorted_push",
                                        Map.of(
                                                "feed.design",
                                                "sorted-push",
                                                "feed.push",
                                                "content",
                                                MongoStoreProvider.WRITE_CONCERN,
                                                "majority",
                                                MongoStoreProvider.JOURNAL,
                                                "true",
                                                MongoStoreProvider.READ_CONCERN,
                                                "majority"))
                                .on(ConformanceTarget.halfGraph()),
                        // Over SQLite: push feeds by reference, the rest as by default.
                        variant(
                                        "sqlite-push",
                                        FerretServer.Backend.SQLITE,
                                        "bg_conf_sqlite_push",
                                        Map.of("feed.design", "push"))
                                .on(ConformanceTarget.halfGraph()))
                .tests();
    }

    private static ConformanceTarget variant(
            String name, FerretServer.Backend backend, String database, Map<String, String> settings) {
        return ConformanceTarget.of(name, () -> MongoStores.open(backend, database, settings))
                .reopenable();
    }
}
