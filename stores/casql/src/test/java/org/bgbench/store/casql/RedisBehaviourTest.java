package org.bgbench.store.casql;

/** Keys per write, leases, ttl staleness and flushes with cache=redis. */
class RedisBehaviourTest extends CasqlBehaviour {
    @Override
    CacheServer.Kind server() {
        return CacheServer.Kind.REDIS;
    }
}
