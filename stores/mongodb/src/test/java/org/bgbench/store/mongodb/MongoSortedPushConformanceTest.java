package org.bgbench.store.mongodb;

import java.util.Map;
import org.bgbench.model.FeedSpec;
import org.bgbench.model.GraphSpec;
import org.bgbench.store.DataStore;
import org.bgbench.store.conformance.StoreConformanceSuite;
import org.junit.jupiter.api.Tag;

/**
 * The conformance suite on FerretDB over PostgreSQL: sorted-push feeds carrying the resources' content, journaled
 * majority writes, majority reads; on the 60-member graph of {@link MongoSqliteConformanceTest}: every FerretDB query
 * scans its collection, and with the suite's 120 members this class alone took five minutes of CI (the suite's
 * random write counts scale with the graph too: the same writes per member, half as many writes).
 */
@Tag("server")
class MongoSortedPushConformanceTest extends StoreConformanceSuite {
    private static final Map<String, String> SETTINGS = Map.of("feed.design", "sorted-push", "feed.push", "content",
            MongoStoreProvider.WRITE_CONCERN, "majority", MongoStoreProvider.JOURNAL, "true",
            MongoStoreProvider.READ_CONCERN, "majority");

    @Override
    protected GraphSpec spec() {
        return GraphSpec.builder().members(60).memberIdOffset(1000).friendsPerMember(10).resourcesPerMember(2)
                .commentsPerResource(2).confirmedFraction(0.7).images(true).thumbnailBytes(64)
                .profileImageBytes(256).attributeLength(12).commentLength(40).fragments(3).seed(42).build()
                .withFeed(new FeedSpec(6, 2, 0, 3));
    }

    @Override
    protected DataStore openStore() {
        return MongoStores.open(FerretServer.Backend.POSTGRESQL, "bg_conf_sorted_push", SETTINGS);
    }

    @Override
    protected DataStore openAgain() {
        return MongoStores.open(FerretServer.Backend.POSTGRESQL, "bg_conf_sorted_push", SETTINGS);
    }
}
