package org.bgbench.store.casql;

/** The conformance suite on casql with cache=redis, invalidate mode. */
class RedisConformanceTest extends CasqlConformance {
    @Override
    CacheServer.Kind server() {
        return CacheServer.Kind.REDIS;
    }
}
