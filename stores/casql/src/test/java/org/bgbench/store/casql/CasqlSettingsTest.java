package org.bgbench.store.casql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.bgbench.model.InvalidParameterException;
import org.bgbench.store.StoreException;
import org.bgbench.store.StoreProvider;
import org.bgbench.store.StoreRegistry;
import org.bgbench.store.StoreSetting;
import org.bgbench.store.StoreSettings;
import org.bgbench.store.postgres.PostgresStoreProvider;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Settings, their checks and messages, registration, and unreachable caches; needs no server. */
@Tag("server")
class CasqlSettingsTest {
    private final CasqlStoreProvider provider = new CasqlStoreProvider();

    private CasqlConfig config(String... kv) {
        Map<String, String> m = new HashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return CasqlConfig.of(StoreSettings.forProvider(provider, m));
    }

    private void refused(String key, String accepted, String... kv) {
        assertThatThrownBy(() -> config(kv))
                .isInstanceOf(InvalidParameterException.class)
                .hasMessageStartingWith(key + ": ")
                .hasMessageContaining(accepted)
                .satisfies(e ->
                        assertThat(((InvalidParameterException) e).parameter()).isEqualTo(key));
    }

    @Test
    void theStoreIsFoundByServiceLoaderWithEveryPostgresSetting() {
        StoreProvider p = StoreRegistry.discover().get("casql");
        assertThat(p).isInstanceOf(CasqlStoreProvider.class);
        List<String> keys = p.settings().stream().map(StoreSetting::key).toList();
        assertThat(keys)
                .doesNotHaveDuplicates()
                .contains(
                        "cache",
                        "cache.host",
                        "cache.port",
                        "cache.pool",
                        "cache.size",
                        "consistency",
                        "ttl",
                        "invalidate.ttl",
                        "feed.design",
                        "feed.push")
                .containsAll(new PostgresStoreProvider()
                        .settings().stream().map(StoreSetting::key).toList());
        // bg --embedded picks the one key ending in .embedded.
        assertThat(keys.stream().filter(k -> k.endsWith(".embedded"))).containsExactly("postgres.embedded");
        assertThat(p.description()).contains("PostgreSQL", "Redis", "memcached", "Caffeine");
    }

    @Test
    void defaults() {
        CasqlConfig c = config();
        assertThat(c.cache()).isEqualTo(CasqlConfig.Cache.REDIS);
        assertThat(c.address()).isEqualTo("127.0.0.1:6379");
        assertThat(c.consistency()).isEqualTo(CasqlConfig.Consistency.INVALIDATE);
        assertThat(c.ttlMillis()).isEqualTo(30_000);
        assertThat(c.safetyMillis()).isZero();
        assertThat(c.valueMillis()).as("invalidate mode: no expiry by default").isZero();
        assertThat(c.pool()).isEqualTo(1);
        assertThat(c.capacityBytes()).isEqualTo(256L << 20);
        assertThat(config("cache", "memcached").port()).isEqualTo(11211);
        assertThat(config("cache", "MemCached", "cache.port", "").port()).isEqualTo(11211);
        assertThat(config("cache", "redis", "cache.port", "7000", "cache.host", "cache.example")
                        .address())
                .isEqualTo("cache.example:7000");
        assertThat(config("cache.host", "::1").address()).isEqualTo("[::1]:6379");
        CasqlConfig ttl = config("consistency", "ttl", "ttl", "500ms");
        assertThat(ttl.valueMillis()).isEqualTo(500);
        assertThat(config("invalidate.ttl", "1h").valueMillis()).isEqualTo(3_600_000);
    }

    @Test
    void durationsAndSizes() {
        assertThat(CasqlConfig.millis("ttl", "500ms")).isEqualTo(500);
        assertThat(CasqlConfig.millis("ttl", "30s")).isEqualTo(30_000);
        assertThat(CasqlConfig.millis("ttl", "1.5s")).isEqualTo(1_500);
        assertThat(CasqlConfig.millis("ttl", " 2 m ")).isEqualTo(120_000);
        assertThat(CasqlConfig.millis("ttl", "10min")).isEqualTo(600_000);
        assertThat(CasqlConfig.millis("ttl", "1h")).isEqualTo(3_600_000);
        assertThat(CasqlConfig.millis("ttl", "45")).as("plain seconds").isEqualTo(45_000);
        assertThat(CasqlConfig.millis("ttl", "0")).isZero();
        assertThat(CasqlConfig.bytes("cache.size", "64MB")).isEqualTo(64L << 20);
        assertThat(CasqlConfig.bytes("cache.size", "2g")).isEqualTo(2L << 30);
        assertThat(CasqlConfig.bytes("cache.size", "512")).as("plain megabytes").isEqualTo(512L << 20);
        assertThat(CasqlConfig.bytes("cache.size", "4096kb")).isEqualTo(4L << 20);
    }

    @Test
    void badValuesNameTheKeyAndWhatItAccepts() {
        refused("cache", "redis, memcached, caffeine", "cache", "ehcache");
        refused("consistency", "invalidate, ttl", "consistency", "eventual");
        refused("cache.port", "1 to 65535", "cache.port", "0");
        refused("cache.port", "1 to 65535", "cache.port", "70000");
        refused("cache.port", "whole number", "cache.port", "redis");
        refused("cache.host", "one host", "cache.host", "a b");
        refused("cache.pool", "1 to 64", "cache.pool", "0");
        refused("cache.pool", "1 to 64", "cache.pool", "65");
        refused("ttl", "500ms, 30s", "ttl", "soon");
        refused("ttl", "positive duration", "ttl", "0s");
        refused("ttl", "500ms, 30s", "ttl", "-1s");
        refused("ttl", "unknown unit", "ttl", "3 weeks");
        refused("ttl", "whole milliseconds", "ttl", "0.5ms");
        refused("invalidate.ttl", "500ms, 30s", "invalidate.ttl", "never");
        refused("cache.size", "256MB", "cache.size", "lots");
        refused("cache.size", "at least 1MB", "cache.size", "10KB");
        refused("cache.size", "unknown unit", "cache.size", "5TB");
        // memcached counts expiry in whole seconds, up to 30 days.
        refused("ttl", "whole seconds", "cache", "memcached", "consistency", "ttl", "ttl", "500ms");
        refused("ttl", "whole seconds", "cache", "memcached", "consistency", "ttl", "ttl", "1.5s");
        refused("ttl", "30 days", "cache", "memcached", "consistency", "ttl", "ttl", "31d");
        refused("invalidate.ttl", "whole seconds", "cache", "memcached", "invalidate.ttl", "100ms");
        // ...but only where the value is used.
        assertThat(config("cache", "memcached", "consistency", "invalidate", "ttl", "500ms")
                        .ttlMillis())
                .isEqualTo(500);
        assertThat(config("cache", "redis", "consistency", "ttl", "ttl", "500ms")
                        .ttlMillis())
                .isEqualTo(500);
    }

    @Test
    void theCacheTimeoutFollowsBetaUnlessGiven() {
        assertThat(config().timeout()).isEqualTo(Duration.ofSeconds(10));
        assertThat(config("cache.timeout", "3s").timeout()).isEqualTo(Duration.ofSeconds(3));
        assertThat(CasqlConfig.of(StoreSettings.forProvider(provider, Map.of()).withBeta(Duration.ofMillis(200)))
                        .timeout())
                .isEqualTo(Duration.ofSeconds(20));
        refused("cache.timeout", "such as 10s", "cache.timeout", "soon");
        refused("cache.timeout", "from 1s to 1d", "cache.timeout", "100ms");
        refused("cache.timeout", "from 1s to 1d", "cache.timeout", "0");
    }

    @Test
    void badSettingsFailBeforeAnythingStarts() {
        Map<String, String> m = Map.of("cache", "nope", "postgres.embedded", "true");
        assertThatThrownBy(() -> provider.open(StoreSettings.forProvider(provider, m)))
                .isInstanceOf(InvalidParameterException.class)
                .hasMessageStartingWith("cache: ");
    }

    @Test
    void anUnreachableCacheIsNamedWithHostAndPort() throws Exception {
        int closed = CacheServer.freePort();
        for (String cache : List.of("redis", "memcached")) {
            Map<String, String> m = Map.of(
                    "cache",
                    cache,
                    "cache.port",
                    Integer.toString(closed),
                    "postgres.url",
                    "jdbc:postgresql://127.0.0.1:1/never-reached");
            String label = cache.equals("redis") ? "Redis" : "memcached";
            long started = System.nanoTime();
            assertThatThrownBy(() -> provider.open(StoreSettings.forProvider(provider, m)))
                    .isInstanceOf(StoreException.class)
                    .hasMessageStartingWith("cannot reach " + label + " at 127.0.0.1:" + closed + ": ")
                    .hasMessageContaining("connection refused");
            assertThat(System.nanoTime() - started).as("%s fails fast", cache).isLessThan(20_000_000_000L);
            Map<String, String> unknown = Map.of("cache", cache, "cache.host", "no-such-host.invalid");
            assertThatThrownBy(() -> provider.open(StoreSettings.forProvider(provider, unknown)))
                    .isInstanceOf(StoreException.class)
                    .hasMessageStartingWith("cannot reach " + label + " at no-such-host.invalid:")
                    .hasMessageContaining("unknown host 'no-such-host.invalid'");
        }
    }
}
