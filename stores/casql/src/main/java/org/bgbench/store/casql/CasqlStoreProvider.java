package org.bgbench.store.casql;

import java.util.ArrayList;
import java.util.List;
import org.bgbench.store.DataStore;
import org.bgbench.store.StoreProvider;
import org.bgbench.store.StoreSetting;
import org.bgbench.store.StoreSettings;
import org.bgbench.store.StoreTraits;
import org.bgbench.store.postgres.PostgresStore;
import org.bgbench.store.postgres.PostgresStoreProvider;

/**
 * The {@code casql} store: PostgreSQL (the {@code postgres} store, whose settings all apply) with a cache of the read
 * actions' results in Redis, memcached or an in-process Caffeine cache.
 */
public final class CasqlStoreProvider implements StoreProvider {
    private static final String EMBEDDED = "postgres.embedded";
    private final PostgresStoreProvider postgres = new PostgresStoreProvider();

    @Override
    public String name() {
        return "casql";
    }

    @Override
    public String description() {
        return "cache-augmented SQL: PostgreSQL (as the postgres store) with read results cached in Redis, memcached "
                + "or in-process Caffeine; writes invalidate keys (leases) or entries expire after a TTL";
    }

    @Override
    public List<StoreSetting> settings() {
        List<StoreSetting> s = new ArrayList<>(List.of(
                new StoreSetting(
                        CasqlConfig.CACHE,
                        "redis",
                        "redis or memcached (client-server, at cache.host:cache.port) or caffeine (in BG's own JVM)"),
                new StoreSetting(CasqlConfig.HOST, CasqlConfig.DEFAULT_HOST, "host of the Redis or memcached server"),
                new StoreSetting(CasqlConfig.PORT, null, "its port; default 6379 for redis, 11211 for memcached"),
                new StoreSetting(
                        CasqlConfig.POOL,
                        CasqlConfig.DEFAULT_POOL,
                        "connections to the cache server, 1 to " + CasqlConfig.MAX_POOL
                                + "; each multiplexes the requests of many sessions"),
                new StoreSetting(
                        CasqlConfig.SIZE,
                        CasqlConfig.DEFAULT_SIZE,
                        "caffeine only: bound on the estimated heap size of cached entries (e.g. 256MB, 2GB)"),
                new StoreSetting(
                        CasqlConfig.CONSISTENCY,
                        "invalidate",
                        "invalidate: writes delete the keys they affect, reads fill under leases (no stale reads); "
                                + "ttl: writes delete nothing, entries expire after ttl (stale reads by design)"),
                new StoreSetting(
                        CasqlConfig.TTL,
                        CasqlConfig.DEFAULT_TTL,
                        "consistency=ttl: life of a cached entry (500ms, 30s, 5m; whole seconds for memcached)"),
                new StoreSetting(
                        CasqlConfig.SAFETY_TTL,
                        CasqlConfig.DEFAULT_SAFETY_TTL,
                        "consistency=invalidate: optional upper bound on an entry's life, a safety net against a lost "
                                + "invalidation; 0: entries live until invalidated, flushed or evicted"),
                // No default value: it follows β (and a key BG fills in would change the store's identity).
                new StoreSetting(
                        CasqlConfig.TIMEOUT,
                        null,
                        "redis, memcached: how long connecting and each cache command wait before failing (the "
                                + "database's own is postgres.timeout); at least 1s; default max(10s, 100·β)")));
        s.addAll(postgres.settings());
        return s;
    }

    /** Loads go to PostgreSQL alone (the cache starts empty). */
    @Override
    public double loadRowsPerSecond() {
        return postgres.loadRowsPerSecond();
    }

    /** A server (PostgreSQL and, but for caffeine, the cache); {@code --embedded} starts a throwaway PostgreSQL. */
    @Override
    public StoreTraits traits() {
        return postgres.traits();
    }

    /**
     * Reads who sees a share on the database the {@code postgres} store opened, as the same role (its settings and
     * their USC aliases; the embedded server's superuser when embedded).
     */
    private static FeedAudience audience(PostgresStore database, StoreSettings s) {
        boolean embedded = s.getBoolean(EMBEDDED, false);
        String user = embedded ? "postgres" : either(s, "postgres.user", "db.user", "postgres");
        String password = embedded ? null : either(s, "postgres.password", "db.passwd", null);
        return new FeedAudience(
                database.url(),
                user,
                password,
                database.callTimeout(),
                database.physicalDesign().twoTables());
    }

    /** As the postgres store reads them: the postgres.* value unless absent or the default and the alias is given. */
    private static String either(StoreSettings s, String key, String alias, String fallback) {
        String v = s.get(key);
        String a = s.get(alias);
        if (a != null && !a.isBlank() && (v == null || v.equals(fallback))) {
            return a;
        }
        return v == null ? fallback : v;
    }

    @Override
    public DataStore open(StoreSettings settings) {
        CasqlConfig config = CasqlConfig.of(settings);
        // The cache first: it is quick to reach or refuse, PostgreSQL (embedded, above all) is slower to start.
        CacheBackend cache = switch (config.cache()) {
            case REDIS -> RedisBackend.connect(config);
            case MEMCACHED -> MemcachedBackend.connect(config);
            case CAFFEINE -> new CaffeineBackend(config);
        };
        DataStore database = null;
        try {
            StoreSettings pg =
                    StoreSettings.forProvider(postgres, settings.asMap()).withBeta(settings.beta());
            database = postgres.open(pg);
            return new CasqlStore(database, cache, config, audience((PostgresStore) database, pg));
        } catch (RuntimeException e) {
            try {
                cache.close();
            } catch (RuntimeException suppressed) {
                e.addSuppressed(suppressed);
            }
            if (database != null) {
                database.close();
            }
            throw e;
        }
    }
}
