package org.bgbench.store.casql;

import org.junit.jupiter.api.condition.EnabledIf;

/** The conformance suite on casql with cache=memcached, invalidate mode. */
@EnabledIf(value = "org.bgbench.store.casql.CacheServer#memcachedInstalled",
        disabledReason = "memcached is not installed (apt-get install redis-server memcached, as .ci/run does)")
class MemcachedConformanceTest extends CasqlConformance {
    @Override
    CacheServer.Kind server() {
        return CacheServer.Kind.MEMCACHED;
    }
}
