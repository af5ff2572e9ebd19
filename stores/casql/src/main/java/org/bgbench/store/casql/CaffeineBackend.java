package org.bgbench.store.casql;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.TimeUnit;

/**
 * The in-process (shared address space) cache: Caffeine, bounded by the estimated size of its entries
 * ({@code cache.size}), entries being immutable {@link SnapshotFormat} copies. Leases are objects compared by
 * identity: placed with {@code putIfAbsent}, replaced by the entry with the atomic {@code replace(key, lease, entry)},
 * which fails once a write removed the lease (or it expired, or was evicted).
 */
final class CaffeineBackend extends CacheBackend implements CacheBackend.Ops {
    /** A reader's claim on a missing key; equal only to itself. */
    private static final class Lease {}

    private final Cache<String, Object> cache;
    private final ConcurrentMap<String, Object> map;

    CaffeineBackend(CasqlConfig config) {
        super(config);
        long leaseNanos = TimeUnit.MILLISECONDS.toNanos(LEASE_MILLIS);
        long valueNanos =
                config.valueMillis() > 0 ? TimeUnit.MILLISECONDS.toNanos(config.valueMillis()) : Long.MAX_VALUE;
        this.cache = Caffeine.newBuilder()
                .maximumWeight(config.capacityBytes())
                .weigher((String k, Object v) ->
                        48 + 2 * k.length() + (v instanceof SnapshotFormat.Weighed w ? w.weight() : 16))
                .expireAfter(new Expiry<String, Object>() {
                    @Override
                    public long expireAfterCreate(String key, Object value, long now) {
                        return value instanceof Lease ? leaseNanos : valueNanos;
                    }

                    @Override
                    public long expireAfterUpdate(String key, Object value, long now, long current) {
                        return value instanceof Lease ? leaseNanos : valueNanos;
                    }

                    @Override
                    public long expireAfterRead(String key, Object value, long now, long current) {
                        return current;
                    }
                })
                .build();
        this.map = cache.asMap();
    }

    @Override
    Ops ops() {
        return this;
    }

    @Override
    public Object get(String key) {
        Object v = cache.getIfPresent(key);
        return v instanceof Lease ? LEASED : v;
    }

    @Override
    public Object lease(String key) {
        Lease lease = new Lease();
        return map.putIfAbsent(key, lease) == null ? lease : null;
    }

    @Override
    public boolean fill(String key, Object lease, Object entry) {
        return map.replace(key, lease, entry);
    }

    @Override
    public void put(String key, Object entry) {
        cache.put(key, entry);
    }

    @Override
    public void delete(String... keys) {
        for (String key : keys) {
            map.remove(key);
        }
    }

    @Override
    void flush() {
        cache.invalidateAll();
    }

    /** Entries held now, for tests. */
    long size() {
        cache.cleanUp();
        return cache.estimatedSize();
    }

    @Override
    String describe() {
        return "the in-process Caffeine cache";
    }

    @Override
    public void close() {
        cache.invalidateAll();
        cache.cleanUp();
    }
}
