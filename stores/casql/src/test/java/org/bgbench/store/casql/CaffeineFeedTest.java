package org.bgbench.store.casql;

import org.junit.jupiter.api.Tag;

/** The relational feed suite through casql with cache=caffeine. */
@Tag("server")
class CaffeineFeedTest extends CasqlFeedSuite {
    @Override
    CacheServer.Kind server() {
        return null;
    }
}
