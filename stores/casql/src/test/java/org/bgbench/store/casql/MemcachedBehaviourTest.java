package org.bgbench.store.casql;

import org.junit.jupiter.api.condition.EnabledIf;

/** Keys per write, leases, ttl staleness and flushes with cache=memcached. */
@EnabledIf(value = "org.bgbench.store.casql.CacheServer#memcachedInstalled",
        disabledReason = "memcached is not installed (apt-get install redis-server memcached, as .ci/run does)")
class MemcachedBehaviourTest extends CasqlBehaviour {
    @Override
    CacheServer.Kind server() {
        return CacheServer.Kind.MEMCACHED;
    }
}
