package org.bgbench.store.mongodb;

import java.util.Map;
import java.util.stream.Stream;
import org.bgbench.model.FeedSpec;
import org.bgbench.model.GraphSpec;
import org.bgbench.store.conformance.ConformanceMatrix;
import org.bgbench.store.conformance.ConformanceTarget;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.TestFactory;

/**
 * The conformance suite on FerretDB (the JVM's shared server of each backend), each variant in a database of its own.
 * Every FerretDB query scans its collection, and the SQLite backend filters every query in Go (it pushes down only
 * string and ObjectId _ids), so the variants beyond the defaults run on a graph half the suite's size; the suite
 * scales its random write counts to the graph: the same writes per member, half as many writes.
 */
@Tag("server")
class MongoConformanceTest {
    /** 60 members in 3 fragments, 2 resources each with 2 comments, 6 pages (2 a fragment), each member following 2. */
    private static final GraphSpec HALF = GraphSpec.builder()
            .members(60)
            .memberIdOffset(1000)
            .friendsPerMember(10)
            .resourcesPerMember(2)
            .commentsPerResource(2)
            .confirmedFraction(0.7)
            .images(true)
            .thumbnailBytes(64)
            .profileImageBytes(256)
            .attributeCount(11)
            .attributeLength(12)
            .commentLength(40)
            .fragments(3)
            .seed(42)
            .build()
            .withFeed(new FeedSpec(6, 2, 0, 3));

    @TestFactory
    Stream<DynamicNode> conformance() {
        return ConformanceMatrix.of(
                        // The defaults over PostgreSQL: comments in their collection, images inline, LF by $in, pull
                        // feeds.
                        variant("default", FerretServer.Backend.POSTGRESQL, "bg_conf", Map.of()),
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
                                .on(HALF),
                        // Over SQLite: push feeds by reference, the rest as by default.
                        variant(
                                        "sqlite-push",
                                        FerretServer.Backend.SQLITE,
                                        "bg_conf_sqlite_push",
                                        Map.of("feed.design", "push"))
                                .on(HALF))
                .tests();
    }

    private static ConformanceTarget variant(
            String name, FerretServer.Backend backend, String database, Map<String, String> settings) {
        return ConformanceTarget.of(name, () -> MongoStores.open(backend, database, settings))
                .reopenable();
    }
}
