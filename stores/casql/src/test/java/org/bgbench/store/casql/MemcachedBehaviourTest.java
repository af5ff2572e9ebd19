package org.bgbench.store.casql;

/** Keys per write, leases, ttl staleness and flushes with cache=memcached. */
class MemcachedBehaviourTest extends CasqlBehaviour {
    @Override
    CacheServer.Kind server() {
        return CacheServer.Kind.MEMCACHED;
    }
}
