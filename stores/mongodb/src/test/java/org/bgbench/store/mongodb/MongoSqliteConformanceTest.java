package org.bgbench.store.mongodb;

import java.util.Map;
import org.bgbench.model.FeedSpec;
import org.bgbench.model.GraphSpec;
import org.bgbench.store.DataStore;
import org.bgbench.store.conformance.StoreConformanceSuite;
import org.junit.jupiter.api.Tag;

/**
 * The conformance suite on FerretDB over SQLite: push feeds by reference (the rest as by default), on a graph half the
 * suite's size: FerretDB's SQLite backend filters every query in Go (it pushes
 * down only string and ObjectId _ids), so each action reads its whole collection. The suite scales its random
 * write counts to the graph ({@code StoreConformanceSuite.scaledToGraph}): the same writes per member as on the
 * suite's 120-member graph, half as many writes.
 */
@Tag("server")
class MongoSqliteConformanceTest extends StoreConformanceSuite {
    private static final Map<String, String> SETTINGS = Map.of("feed.design", "push");

    /** 60 members in 3 fragments, 2 resources each with 2 comments, 6 pages (2 a fragment), each member following 2. */
    @Override
    protected GraphSpec spec() {
        return GraphSpec.builder().members(60).memberIdOffset(1000).friendsPerMember(10).resourcesPerMember(2)
                .commentsPerResource(2).confirmedFraction(0.7).images(true).thumbnailBytes(64)
                .profileImageBytes(256).attributeLength(12).commentLength(40).fragments(3).seed(42).build()
                .withFeed(new FeedSpec(6, 2, 0, 3));
    }

    @Override
    protected DataStore openStore() {
        return MongoStores.open(FerretServer.Backend.SQLITE, "bg_conf_sqlite_push", SETTINGS);
    }

    @Override
    protected DataStore openAgain() {
        return MongoStores.open(FerretServer.Backend.SQLITE, "bg_conf_sqlite_push", SETTINGS);
    }
}
