package org.bgbench.store.casql;

import org.junit.jupiter.api.Tag;

/** The conformance suite on casql with cache=redis, invalidate mode. */
@Tag("server")
class RedisConformanceTest extends CasqlConformance {
    @Override
    CacheServer.Kind server() {
        return CacheServer.Kind.REDIS;
    }
}
