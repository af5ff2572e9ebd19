package org.bgbench.store.casql;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.bgbench.model.InvalidParameterException;
import org.bgbench.store.StoreSettings;

/**
 * The cache side of a {@code casql} store, checked once when the store opens.
 *
 * @param cache         which cache holds the read actions' results
 * @param server        how to reach a client-server cache
 * @param freshness     how writes keep the cache consistent and how long entries live
 * @param capacityBytes upper bound of the in-process cache's estimated size
 */
public record CasqlConfig(Cache cache, Server server, Freshness freshness, long capacityBytes) {
    /**
     * A client-server cache's address and connections.
     *
     * @param host    cache server host
     * @param port    cache server port
     * @param pool    connections to the cache server, shared by all sessions
     * @param timeout how long connecting to the cache server and each command wait
     */
    public record Server(String host, int port, int pool, Duration timeout) {}

    /**
     * How cached values stay fresh.
     *
     * @param consistency  how writes keep the cache consistent with PostgreSQL
     * @param ttlMillis    life of an entry in {@code ttl} mode
     * @param safetyMillis life of an entry in {@code invalidate} mode; 0: until invalidated or evicted
     */
    public record Freshness(Consistency consistency, long ttlMillis, long safetyMillis) {}

    static final String CACHE = "cache";
    static final String HOST = "cache.host";
    static final String PORT = "cache.port";
    static final String POOL = "cache.pool";
    static final String SIZE = "cache.size";
    static final String CONSISTENCY = "consistency";
    static final String TTL = "ttl";
    static final String SAFETY_TTL = "invalidate.ttl";
    static final String TIMEOUT = "cache.timeout";

    static final String DEFAULT_HOST = "127.0.0.1";
    static final String DEFAULT_POOL = "1";
    static final String DEFAULT_SIZE = "256MB";
    static final String DEFAULT_TTL = "30s";
    static final String DEFAULT_SAFETY_TTL = "0";
    static final int MAX_POOL = 64;
    /** memcached reads an expiry above 30 days as an absolute Unix time. */
    static final long MEMCACHED_MAX_EXPIRY_MS = 30L * 24 * 3600 * 1000;

    /** The cache behind the store. */
    public enum Cache {
        REDIS("Redis", 6379),
        MEMCACHED("memcached", 11211),
        CAFFEINE("Caffeine", 0);

        final String label;
        final int defaultPort;

        Cache(String label, int defaultPort) {
            this.label = label;
            this.defaultPort = defaultPort;
        }

        boolean remote() {
            return this != CAFFEINE;
        }
    }

    /** How writes keep the cache consistent with the database. */
    public enum Consistency {
        /** Writes delete the keys they affect; reads fill under a lease so a racing write cannot be undone. */
        INVALIDATE,
        /** Writes touch no key; entries expire after the TTL, so reads within it may be stale by design. */
        TTL
    }

    /** Reads and checks the cache settings; bad values fail naming the key and what it accepts. */
    static CasqlConfig of(StoreSettings s) {
        Cache cache = Cache.valueOf(
                s.getChoice(CACHE, "redis", "redis", "memcached", "caffeine").toUpperCase(Locale.ROOT));
        Consistency consistency = Consistency.valueOf(
                s.getChoice(CONSISTENCY, "invalidate", "invalidate", "ttl").toUpperCase(Locale.ROOT));
        String host = s.get(HOST, DEFAULT_HOST).trim();
        if (host.isEmpty() || host.contains(" ") || host.contains(",")) {
            throw new InvalidParameterException(HOST, "expected one host name or address, got '" + s.get(HOST) + "'");
        }
        String portText = s.get(PORT);
        int port = portText == null || portText.isBlank() ? cache.defaultPort : s.getInt(PORT, cache.defaultPort);
        if (cache.remote() && (port < 1 || port > 65535)) {
            throw new InvalidParameterException(PORT, "expected a TCP port from 1 to 65535, got " + port);
        }
        int pool = s.getInt(POOL, Integer.parseInt(DEFAULT_POOL));
        if (pool < 1 || pool > MAX_POOL) {
            throw new InvalidParameterException(POOL, "expected 1 to " + MAX_POOL + " connections, got " + pool);
        }
        long ttl = millis(TTL, s.get(TTL, DEFAULT_TTL));
        if (ttl <= 0) {
            throw new InvalidParameterException(
                    TTL, "expected a positive duration such as 500ms or 30s, got '" + s.get(TTL) + "'");
        }
        long safety = millis(SAFETY_TTL, s.get(SAFETY_TTL, DEFAULT_SAFETY_TTL));
        if (cache == Cache.MEMCACHED) {
            if (consistency == Consistency.TTL) {
                wholeSeconds(TTL, s.get(TTL, DEFAULT_TTL), ttl);
            }
            if (consistency == Consistency.INVALIDATE && safety > 0) {
                wholeSeconds(SAFETY_TTL, s.get(SAFETY_TTL), safety);
            }
        }
        long capacity = bytes(SIZE, s.get(SIZE, DEFAULT_SIZE));
        if (capacity < 1 << 20) {
            throw new InvalidParameterException(SIZE, "expected at least 1MB, got '" + s.get(SIZE) + "'");
        }
        return new CasqlConfig(
                cache,
                new Server(host, port, pool, s.timeout(TIMEOUT)),
                new Freshness(consistency, ttl, safety),
                capacity);
    }

    // The parts' settings, read where they are used.

    public String host() {
        return server.host();
    }

    public int port() {
        return server.port();
    }

    public int pool() {
        return server.pool();
    }

    public Duration timeout() {
        return server.timeout();
    }

    public Consistency consistency() {
        return freshness.consistency();
    }

    public long ttlMillis() {
        return freshness.ttlMillis();
    }

    public long safetyMillis() {
        return freshness.safetyMillis();
    }

    /** Life of a cached value: the TTL in ttl mode, the safety TTL (0: none) in invalidate mode. */
    long valueMillis() {
        return consistency() == Consistency.TTL ? ttlMillis() : safetyMillis();
    }

    /** host:port of a client-server cache, as messages show it. */
    String address() {
        String host = server.host();
        return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + server.port();
    }

    private static void wholeSeconds(String key, String text, long ms) {
        if (ms % 1000 != 0) {
            throw new InvalidParameterException(
                    key,
                    "memcached expires entries in whole seconds; expected e.g. 1s or " + "30s, got '" + text + "'");
        }
        if (ms > MEMCACHED_MAX_EXPIRY_MS) {
            throw new InvalidParameterException(key, "memcached accepts at most 30 days, got '" + text + "'");
        }
    }

    private static final Pattern DURATION = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*([a-z]*)");
    private static final Pattern SIZE_VALUE = Pattern.compile("(\\d+)\\s*([a-z]*)");

    /**
     * A duration in milliseconds: a number with a unit ({@code 500ms}, {@code 30s}, {@code 1.5s}, {@code 10m},
     * {@code 1h}) or a plain number of seconds.
     */
    static long millis(String key, String value) {
        String v = value == null ? "" : value.trim().toLowerCase(Locale.ROOT);
        Matcher m = DURATION.matcher(v);
        if (!m.matches()) {
            throw new InvalidParameterException(
                    key, "expected a duration such as 500ms, 30s, 10m or 1h, got '" + value + "'");
        }
        long unit = switch (m.group(2)) {
            case "ms" -> 1L;
            case "", "s", "sec", "secs", "second", "seconds" -> 1000L;
            case "m", "min", "mins", "minute", "minutes" -> 60_000L;
            case "h", "hour", "hours" -> 3_600_000L;
            case "d", "day", "days" -> 86_400_000L;
            default ->
                throw new InvalidParameterException(
                        key, "unknown unit '" + m.group(2) + "'; expected ms, s, m, h or d, got '" + value + "'");
        };
        BigDecimal ms = new BigDecimal(m.group(1)).multiply(BigDecimal.valueOf(unit));
        if (ms.compareTo(BigDecimal.valueOf(Long.MAX_VALUE / 1_000_000)) > 0) {
            throw new InvalidParameterException(key, "duration '" + value + "' is too long");
        }
        if (ms.stripTrailingZeros().scale() > 0) {
            throw new InvalidParameterException(key, "expected whole milliseconds, got '" + value + "'");
        }
        return ms.longValueExact();
    }

    /** A size in bytes: a number with a unit (B, KB, MB, GB; K, M, G) or a plain number of megabytes. */
    static long bytes(String key, String value) {
        String v = value == null ? "" : value.trim().toLowerCase(Locale.ROOT);
        Matcher m = SIZE_VALUE.matcher(v);
        if (!m.matches()) {
            throw new InvalidParameterException(key, "expected a size such as 256MB or 2GB, got '" + value + "'");
        }
        int shift = switch (m.group(2)) {
            case "b" -> 0;
            case "k", "kb" -> 10;
            case "", "m", "mb" -> 20;
            case "g", "gb" -> 30;
            default ->
                throw new InvalidParameterException(
                        key, "unknown unit '" + m.group(2) + "'; expected B, KB, MB or GB, got '" + value + "'");
        };
        long n;
        try {
            n = Long.parseLong(m.group(1));
        } catch (NumberFormatException e) {
            throw new InvalidParameterException(key, "size '" + value + "' is too large");
        }
        if (n > Long.MAX_VALUE >> shift) {
            throw new InvalidParameterException(key, "size '" + value + "' is too large");
        }
        return n << shift;
    }
}
