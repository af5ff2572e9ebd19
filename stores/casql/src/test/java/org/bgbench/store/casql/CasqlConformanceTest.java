package org.bgbench.store.casql;

import java.util.HashMap;
import java.util.Map;
import java.util.stream.Stream;
import org.bgbench.store.DataStore;
import org.bgbench.store.StoreSettings;
import org.bgbench.store.conformance.ConformanceMatrix;
import org.bgbench.store.conformance.ConformanceTarget;
import org.bgbench.store.postgres.PostgresStore;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.TestFactory;

/**
 * The shared conformance suite against {@code casql} in invalidate mode over a throwaway embedded PostgreSQL, once per
 * cache: the in-process Caffeine cache, and memcached and Redis servers started for their variant.
 */
@Tag("server")
class CasqlConformanceTest {
    @TestFactory
    Stream<DynamicNode> conformance() {
        return ConformanceMatrix.of(variant(null), variant(CacheServer.Kind.MEMCACHED), variant(CacheServer.Kind.REDIS))
                .tests();
    }

    /** The variant on cache server {@code kind}, or on the in-process cache for null. */
    private static ConformanceTarget variant(CacheServer.Kind kind) {
        Variant v = new Variant(kind);
        return ConformanceTarget.of(kind == null ? "caffeine" : kind.name().toLowerCase(), v::open)
                .reopenedBy(v::openAgain)
                .closing(v);
    }

    /** One cache's variant: its cache server (closed after the store) and the settings its store was opened with. */
    private static final class Variant implements AutoCloseable {
        private final CacheServer.Kind kind;
        private CacheServer server;
        private Map<String, String> settings;

        Variant(CacheServer.Kind kind) {
            this.kind = kind;
        }

        DataStore open() {
            Map<String, String> s = new HashMap<>();
            if (kind != null) {
                server = CacheServer.start(kind);
                s.putAll(server.settings());
            } else {
                s.put("cache", "caffeine");
            }
            s.put("consistency", "invalidate");
            s.put("postgres.embedded", "true");
            settings = Map.copyOf(s);
            return openWith(s);
        }

        /** A second casql store on the same PostgreSQL database and cache (opening it empties the cache: harmless). */
        DataStore openAgain(DataStore first) {
            Map<String, String> s = new HashMap<>(settings);
            s.remove("postgres.embedded");
            s.put("postgres.url", ((PostgresStore) ((CasqlStore) first).database()).url());
            s.put("postgres.pool", "2");
            return openWith(s);
        }

        private static DataStore openWith(Map<String, String> s) {
            CasqlStoreProvider provider = new CasqlStoreProvider();
            return provider.open(StoreSettings.forProvider(provider, s));
        }

        @Override
        public void close() {
            if (server != null) {
                server.close();
            }
        }
    }
}
