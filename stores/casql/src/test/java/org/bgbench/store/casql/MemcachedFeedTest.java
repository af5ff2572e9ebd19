package org.bgbench.store.casql;

import org.junit.jupiter.api.Tag;

/** The relational feed suite through casql with cache=memcached. */
@Tag("server")
class MemcachedFeedTest extends CasqlFeedSuite {
    @Override
    CacheServer.Kind server() {
        return CacheServer.Kind.MEMCACHED;
    }
}
