package org.bgbench.store.casql;

/** Keys per write, leases, ttl staleness and flushes with cache=caffeine. */
class CaffeineBehaviourTest extends CasqlBehaviour {
    @Override
    CacheServer.Kind server() {
        return null;
    }
}
