package org.bgbench.store.casql;

import org.junit.jupiter.api.condition.EnabledIf;

/** Keys per write, leases, ttl staleness and flushes with cache=redis. */
@EnabledIf(value = "org.bgbench.store.casql.CacheServer#redisInstalled",
        disabledReason = "redis-server is not installed (apt-get install redis-server memcached, as .ci/run does)")
class RedisBehaviourTest extends CasqlBehaviour {
    @Override
    CacheServer.Kind server() {
        return CacheServer.Kind.REDIS;
    }
}
