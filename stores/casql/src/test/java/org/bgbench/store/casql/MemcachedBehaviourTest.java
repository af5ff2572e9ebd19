package org.bgbench.store.casql;

import org.junit.jupiter.api.Tag;

/** Keys per write, leases, ttl staleness and flushes with cache=memcached. */
@Tag("server")
class MemcachedBehaviourTest extends CasqlBehaviour {
    @Override
    CacheServer.Kind server() {
        return CacheServer.Kind.MEMCACHED;
    }
}
