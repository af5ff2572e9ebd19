package org.bgbench.store.casql;

/** The relational feed suite through casql with cache=caffeine. */
class CaffeineFeedTest extends CasqlFeedSuite {
    @Override
    CacheServer.Kind server() {
        return null;
    }
}
