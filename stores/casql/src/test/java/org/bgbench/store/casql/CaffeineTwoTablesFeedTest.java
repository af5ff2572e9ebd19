package org.bgbench.store.casql;

import java.util.Map;
import java.util.stream.Stream;
import org.bgbench.store.FeedDesign;
import org.junit.jupiter.api.Tag;

/**
 * The relational feed suite through casql (cache=caffeine) on two friendship tables (CIKM 2013 figure 8): Share
 * Resource's audience, whose cached feeds it deletes, is read from {@code friends} whatever the feed design, so one
 * design is enough: push, as pull's first run through the cache takes over a minute (CaffeineFeedTest).
 */
@Tag("server")
class CaffeineTwoTablesFeedTest extends CasqlFeedSuite {
    @Override
    CacheServer.Kind server() {
        return null;
    }

    @Override
    protected Stream<FeedDesign> designs() {
        return Stream.of(new FeedDesign(FeedDesign.Kind.PUSH, false));
    }

    @Override
    Map<String, String> moreSettings() {
        return Map.of("friendship.tables", "2", "counts", "attributes");
    }
}
