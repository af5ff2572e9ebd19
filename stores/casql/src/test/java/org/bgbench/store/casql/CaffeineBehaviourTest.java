package org.bgbench.store.casql;

import org.junit.jupiter.api.Tag;

/** Keys per write, leases, ttl staleness and flushes with cache=caffeine. */
@Tag("server")
class CaffeineBehaviourTest extends CasqlBehaviour {
    @Override
    CacheServer.Kind server() {
        return null;
    }
}
