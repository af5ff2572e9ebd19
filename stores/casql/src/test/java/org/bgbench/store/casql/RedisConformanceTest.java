package org.bgbench.store.casql;

import org.junit.jupiter.api.condition.EnabledIf;

/** The conformance suite on casql with cache=redis, invalidate mode. */
@EnabledIf(value = "org.bgbench.store.casql.CacheServer#redisInstalled",
        disabledReason = "redis-server is not installed (apt-get install redis-server memcached, as .ci/run does)")
class RedisConformanceTest extends CasqlConformance {
    @Override
    CacheServer.Kind server() {
        return CacheServer.Kind.REDIS;
    }
}
