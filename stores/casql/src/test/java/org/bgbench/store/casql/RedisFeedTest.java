package org.bgbench.store.casql;

/** The relational feed suite through casql with cache=redis. */
class RedisFeedTest extends CasqlFeedSuite {
    @Override
    CacheServer.Kind server() {
        return CacheServer.Kind.REDIS;
    }
}
