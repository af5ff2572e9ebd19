package org.bgbench.store.casql;

import java.util.HashMap;
import java.util.Map;
import org.bgbench.store.postgres.PostgresConfig;
import org.bgbench.store.postgres.PostgresStore;

/**
 * What a test class's casql stores run on: a cache (a server of one kind started for the class, or the in-process
 * Caffeine cache) and one embedded PostgreSQL. Closing stops PostgreSQL, then the cache server.
 */
final class CasqlBackends implements AutoCloseable {
    private final CacheServer server;
    private final PostgresStore postgres;

    private CasqlBackends(CacheServer server, PostgresStore postgres) {
        this.server = server;
        this.postgres = postgres;
    }

    /** Starts a cache server of {@code kind} (none for null: the in-process cache) and an embedded PostgreSQL. */
    static CasqlBackends start(CacheServer.Kind kind) {
        CacheServer server = kind == null ? null : CacheServer.start(kind);
        try {
            return new CasqlBackends(
                    server, PostgresStore.open(PostgresConfig.embedded().pool(2).build()));
        } catch (RuntimeException e) {
            if (server != null) {
                server.close();
            }
            throw e;
        }
    }

    /** The settings that put a casql store on this cache. */
    Map<String, String> cacheSettings() {
        Map<String, String> s = new HashMap<>();
        if (server != null) {
            s.putAll(server.settings());
        } else {
            s.put("cache", "caffeine");
        }
        return s;
    }

    /** The cache server, or null for the in-process cache. */
    CacheServer server() {
        return server;
    }

    PostgresStore postgres() {
        return postgres;
    }

    @Override
    public void close() {
        try {
            postgres.close();
        } finally {
            if (server != null) {
                server.close();
            }
        }
    }
}
