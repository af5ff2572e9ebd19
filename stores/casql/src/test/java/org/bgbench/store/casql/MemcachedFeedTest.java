package org.bgbench.store.casql;

/** The relational feed suite through casql with cache=memcached. */
class MemcachedFeedTest extends CasqlFeedSuite {
    @Override
    CacheServer.Kind server() {
        return CacheServer.Kind.MEMCACHED;
    }
}
