package org.bgbench.store.casql;

import org.junit.jupiter.api.Tag;

/** The conformance suite on casql with cache=caffeine, invalidate mode. */
@Tag("server")
class CaffeineConformanceTest extends CasqlConformance {
    @Override
    CacheServer.Kind server() {
        return null;
    }
}
