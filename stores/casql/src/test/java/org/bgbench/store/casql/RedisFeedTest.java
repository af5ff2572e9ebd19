package org.bgbench.store.casql;

import org.junit.jupiter.api.Tag;

/** The relational feed suite through casql with cache=redis. */
@Tag("server")
class RedisFeedTest extends CasqlFeedSuite {
    @Override
    CacheServer.Kind server() {
        return CacheServer.Kind.REDIS;
    }
}
