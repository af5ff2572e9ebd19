package org.bgbench.store.casql;

/** The conformance suite on casql with cache=memcached, invalidate mode. */
class MemcachedConformanceTest extends CasqlConformance {
    @Override
    CacheServer.Kind server() {
        return CacheServer.Kind.MEMCACHED;
    }
}
