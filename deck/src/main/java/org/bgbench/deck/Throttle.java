package org.bgbench.deck;

import java.net.InetAddress;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Slows down guessing of the deck's token, per source address, as the workers do for their secret: after a wrong
 * token the address's requests are refused unchecked for a backoff that starts at {@code base} and doubles with every
 * further wrong token up to {@code max}; the right token clears the address. The map is bounded (least recently seen
 * dropped first), and an address quiet for {@link #FORGET_AFTER} starts again from {@code base}. Thread-safe.
 */
final class Throttle {
    static final Duration BASE = Duration.ofMillis(100);
    static final Duration MAX = Duration.ofSeconds(5);
    static final Duration FORGET_AFTER = Duration.ofMinutes(2);
    private static final int MAX_SOURCES = 4096;
    private final long baseNanos;
    private final long maxNanos;
    private final Map<InetAddress, Source> sources = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<InetAddress, Source> eldest) {
            return size() > MAX_SOURCES;
        }
    };

    private static final class Source {
        int consecutive;
        long nextCheck;
        long lastRefusal;
    }

    Throttle(Duration base, Duration max) {
        if (base.isNegative() || base.isZero() || max.compareTo(base) < 0) {
            throw new IllegalArgumentException("need 0 < base <= max, got " + base + ", " + max);
        }
        this.baseNanos = base.toNanos();
        this.maxNanos = max.toNanos();
    }

    /** How long (nanoseconds) {@code from} must still wait before a token of its is checked; 0: check it now. */
    synchronized long delay(InetAddress from, long now) {
        Source s = sources.get(from);
        return s == null ? 0 : Math.max(0, s.nextCheck - now);
    }

    /** {@code from} sent a wrong token. */
    synchronized void refused(InetAddress from, long now) {
        Source s = sources.get(from);
        if (s == null || now - s.lastRefusal > FORGET_AFTER.toNanos()) {
            s = new Source();
            sources.put(from, s);
        }
        s.consecutive = Math.min(s.consecutive + 1, 62);
        s.lastRefusal = now;
        long backoff = s.consecutive > 40 ? maxNanos : Math.min(maxNanos, baseNanos << (s.consecutive - 1));
        s.nextCheck = now + backoff;
    }

    /** {@code from} sent the right token. */
    synchronized void accepted(InetAddress from) {
        sources.remove(from);
    }
}
