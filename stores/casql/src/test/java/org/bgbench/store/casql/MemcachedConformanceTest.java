package org.bgbench.store.casql;

import org.junit.jupiter.api.Tag;

/** The conformance suite on casql with cache=memcached, invalidate mode. */
@Tag("server")
class MemcachedConformanceTest extends CasqlConformance {
    @Override
    CacheServer.Kind server() {
        return CacheServer.Kind.MEMCACHED;
    }
}
