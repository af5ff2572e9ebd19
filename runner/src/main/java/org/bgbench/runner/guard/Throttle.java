package org.bgbench.runner.guard;

import java.net.InetAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Slows down guessing of a credential (a worker's secret, the deck's token), per source address: after a refused
 * call, the next call from that address is not looked at before a backoff has passed, which starts at {@code base}
 * and doubles with every further refusal up to {@code max}. A call with the right credential clears the address. It
 * logs one warning per address when its first call is refused, then a count at most once per {@link #REPORT_EVERY},
 * and a last count when it presents the right credential or goes quiet. The workers' transport and the deck share it.
 *
 * <p>The map of addresses is bounded ({@code maxSources}, least recently seen dropped first), so a flood from many
 * addresses cannot exhaust memory; an address quiet for {@link #FORGET_AFTER} starts again from {@code base}.
 * Thread-safe.
 */
public final class Throttle {

    /** How often a count of refused calls per address is logged, at most. */
    public static final Duration REPORT_EVERY = Duration.ofMinutes(1);

    /** An address with no refused call for this long is forgotten. */
    public static final Duration FORGET_AFTER = Duration.ofMinutes(2);

    /** Calls of one address that may wait for their turn at once; more are refused unchecked. */
    public static final int MAX_WAITING = 32;

    /** The usual first backoff, and its ceiling. */
    public static final Duration BASE = Duration.ofMillis(100);

    public static final Duration MAX = Duration.ofSeconds(5);

    /** The usual bound of the map of addresses. */
    public static final int MAX_SOURCES = 4096;

    private final long baseNanos;
    private final long maxNanos;
    private final String credential;
    private final Consumer<String> warn;
    private final Map<InetAddress, Source> sources;

    private static final class Source {
        int consecutive; // refused since the last success or since forgotten; sets the backoff
        long refused; // all refused calls while remembered
        long unreported; // refused since the last report
        long nextCheck; // nanoTime before which no call of this source is checked
        long lastRefusal;
        long lastReport;
        int waiting;
    }

    /**
     * @param credential what the callers present, as the log names it ("secret", "token")
     * @param warn       where the warnings and counts go
     */
    public Throttle(Duration base, Duration max, int maxSources, String credential, Consumer<String> warn) {
        if (base.isNegative() || base.isZero() || max.compareTo(base) < 0) {
            throw new IllegalArgumentException("need 0 < base <= max, got " + base + ", " + max);
        }
        this.baseNanos = base.toNanos();
        this.maxNanos = max.toNanos();
        this.credential = credential;
        this.warn = warn;
        this.sources = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<InetAddress, Source> eldest) {
                return size() > maxSources;
            }
        };
    }

    /** How long (nanoseconds) a call from {@code from} must wait before its secret is checked; 0: check it now. */
    public synchronized long delay(InetAddress from, long now) {
        Source s = sources.get(from);
        return s == null ? 0 : Math.max(0, s.nextCheck - now);
    }

    /** Takes a place in the queue of {@code from}'s waiting calls; false when it is full. */
    public synchronized boolean enqueue(InetAddress from) {
        Source s = sources.get(from);
        if (s == null) {
            return true; // forgotten meanwhile: nothing to wait for
        }
        if (s.waiting >= MAX_WAITING) {
            return false;
        }
        s.waiting++;
        return true;
    }

    public synchronized void dequeue(InetAddress from) {
        Source s = sources.get(from);
        if (s != null && s.waiting > 0) {
            s.waiting--;
        }
    }

    /** A call from {@code from} was refused ({@code why}: e.g. "wrong secret", "no secret"). */
    public synchronized void refused(InetAddress from, String why, long now) {
        Source s = sources.get(from);
        if (s != null && now - s.lastRefusal > FORGET_AFTER.toNanos() && s.waiting == 0) {
            report(from, s, now);
            sources.remove(from);
            s = null;
        }
        boolean first = s == null;
        if (first) {
            s = new Source();
            s.lastReport = now;
            sources.put(from, s);
        }
        s.consecutive = Math.min(s.consecutive + 1, 62);
        s.refused++;
        s.unreported++;
        s.lastRefusal = now;
        long backoff = s.consecutive > 40 ? maxNanos : Math.min(maxNanos, baseNanos << (s.consecutive - 1));
        s.nextCheck = now + backoff;
        if (first) {
            s.unreported = 0;
            warn.accept("refused a call from " + name(from) + ": " + why + "; its further calls wait "
                    + describe(Duration.ofNanos(baseNanos)) + ", doubling up to "
                    + describe(Duration.ofNanos(maxNanos)) + ", and are counted here once a minute");
        } else if (now - s.lastReport >= REPORT_EVERY.toNanos()) {
            report(from, s, now);
        }
    }

    /** A call from {@code from} presented the right credential: the address is cleared. */
    public synchronized void accepted(InetAddress from, long now) {
        Source s = sources.remove(from);
        if (s != null) {
            warn.accept(name(from) + " presented the right " + credential + " after " + s.refused + " refused call"
                    + (s.refused == 1 ? "" : "s"));
        }
    }

    /** Logs the counts not logged yet of addresses quiet for {@link #REPORT_EVERY}, and forgets the long quiet ones. */
    public void sweep(long now) {
        List<String> lines = new ArrayList<>();
        synchronized (this) {
            for (Iterator<Map.Entry<InetAddress, Source>> it =
                            sources.entrySet().iterator();
                    it.hasNext(); ) {
                Map.Entry<InetAddress, Source> e = it.next();
                Source s = e.getValue();
                if (s.unreported > 0 && now - s.lastReport >= REPORT_EVERY.toNanos()) {
                    lines.add(reportLine(e.getKey(), s, now));
                    s.unreported = 0;
                    s.lastReport = now;
                }
                if (now - s.lastRefusal > FORGET_AFTER.toNanos() && s.waiting == 0) {
                    it.remove();
                }
            }
        }
        lines.forEach(warn);
    }

    public synchronized int sources() {
        return sources.size();
    }

    private void report(InetAddress from, Source s, long now) {
        if (s.unreported > 0) {
            warn.accept(reportLine(from, s, now));
        }
        s.unreported = 0;
        s.lastReport = now;
    }

    private static String reportLine(InetAddress from, Source s, long now) {
        long seconds = Math.max(1, TimeUnit.NANOSECONDS.toSeconds(now - s.lastReport));
        return "refused " + s.unreported + " more call" + (s.unreported == 1 ? "" : "s") + " from " + name(from)
                + " in the last " + seconds + " s (" + s.refused + " in all)";
    }

    /** An address as the log names it. */
    public static String name(InetAddress a) {
        return a == null ? "an unknown address" : a.getHostAddress();
    }

    /** A backoff as the warning names it: "100ms", "5s", "1.5s". */
    private static String describe(Duration d) {
        long ms = d.toMillis();
        if (ms < 1000) {
            return ms + "ms";
        }
        if (ms % 60_000 == 0) {
            return ms / 60_000 + "m";
        }
        if (ms % 1000 == 0) {
            return ms / 1000 + "s";
        }
        return String.format(Locale.ROOT, "%.1fs", ms / 1000.0);
    }
}
