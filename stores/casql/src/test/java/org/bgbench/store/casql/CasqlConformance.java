package org.bgbench.store.casql;

import java.util.HashMap;
import java.util.Map;
import org.bgbench.store.DataStore;
import org.bgbench.store.StoreSettings;
import org.bgbench.store.conformance.StoreConformanceSuite;
import org.junit.jupiter.api.AfterAll;

/**
 * The shared conformance suite against {@code casql} in invalidate mode over a throwaway embedded PostgreSQL and, for
 * the client-server caches, a cache server started for the class. Subclasses name the cache.
 */
abstract class CasqlConformance extends StoreConformanceSuite {
    private CacheServer server;

    /** The cache server to start, or null for the in-process cache. */
    abstract CacheServer.Kind server();

    private Map<String, String> settings;

    /** A second casql store on the same PostgreSQL database and cache (opening it empties the cache: harmless). */
    @Override
    protected DataStore openAgain() {
        Map<String, String> s = new HashMap<>(settings);
        s.remove("postgres.embedded");
        s.put("postgres.url", ((org.bgbench.store.postgres.PostgresStore) ((CasqlStore) store).database()).url());
        s.put("postgres.pool", "2");
        CasqlStoreProvider provider = new CasqlStoreProvider();
        return provider.open(StoreSettings.forProvider(provider, s));
    }

    @Override
    protected DataStore openStore() {
        Map<String, String> s = new HashMap<>();
        if (server() != null) {
            server = CacheServer.start(server());
            s.putAll(server.settings());
        } else {
            s.put("cache", "caffeine");
        }
        s.put("consistency", "invalidate");
        s.put("postgres.embedded", "true");
        settings = Map.copyOf(s);
        CasqlStoreProvider provider = new CasqlStoreProvider();
        return provider.open(StoreSettings.forProvider(provider, s));
    }

    @AfterAll
    void stopCacheServer() {
        // Runs before the suite's own @AfterAll: close the store while its cache server is still up.
        if (store != null) {
            store.close();
            store = null;
        }
        if (server != null) {
            server.close();
        }
    }
}
