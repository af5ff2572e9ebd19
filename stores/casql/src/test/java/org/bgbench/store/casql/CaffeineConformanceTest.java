package org.bgbench.store.casql;

/** The conformance suite on casql with cache=caffeine, invalidate mode. */
class CaffeineConformanceTest extends CasqlConformance {
    @Override
    CacheServer.Kind server() {
        return null;
    }
}
