package org.bgbench.store.casql;

import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.bgbench.store.StoreException;

/**
 * A cache the store keeps the read actions' results in, with the operations of the lease protocol (see the README):
 * a reader that misses places a lease on the key <em>before</em> it queries PostgreSQL and stores its result only if
 * its own lease is still there; a write deletes the keys it affects (value or lease) <em>after</em> its SQL commits.
 * A write that races a reader therefore either precedes the reader's query (the reader sees the new data) or deletes
 * the lease (the reader's stale result is dropped), so no stale entry outlives the write.
 */
abstract class CacheBackend implements AutoCloseable {
    /** What {@link Ops#get} returns when another reader holds a lease on the key: a miss that must not lease. */
    static final Object LEASED = new Object() {
        @Override
        public String toString() {
            return "LEASED";
        }
    };
    /**
     * Life of a lease: a reader that dies (or takes longer than this over its SQL query) gives up its claim; its fill
     * then fails, which is safe.
     */
    static final long LEASE_MILLIS = 10_000;

    private static final long PROCESS = new SecureRandom().nextLong();
    private static final AtomicLong COUNTER = new AtomicLong();

    protected final CasqlConfig config;

    CacheBackend(CasqlConfig config) {
        this.config = config;
    }

    /** A fresh lease value, unique across processes: 'L', then 8 random bytes of this process and a counter. */
    static byte[] newLeaseToken() {
        byte[] t = new byte[17];
        t[0] = ViewCodec.LEASE;
        long p = PROCESS;
        long c = COUNTER.incrementAndGet();
        for (int i = 0; i < 8; i++) {
            t[1 + i] = (byte) (p >>> (56 - 8 * i));
            t[9 + i] = (byte) (c >>> (56 - 8 * i));
        }
        return t;
    }

    /** Operations for one session (a connection picked for it, or the shared client). */
    abstract Ops ops();

    /** Empties the cache: every value and lease. */
    abstract void flush();

    /** The cache server's pid when it runs on this host and says so; empty otherwise. */
    List<Long> localServerPids() {
        return List.of();
    }

    /** The cache as messages name it, e.g. {@code Redis at 127.0.0.1:6379}. */
    abstract String describe();

    @Override
    public abstract void close();

    /** Cache operations of one session. Failures are {@link StoreException}s naming the cache. */
    interface Ops {
        /** The entry under {@code key}; null on a miss; {@link #LEASED} when another reader holds a lease on it. */
        Object get(String key);

        /** Places a lease on the (missing) key; its token for {@link #fill}, or null when the key is taken. */
        Object lease(String key);

        /** Stores {@code entry} under {@code key} only if {@code lease} is still on it; whether it did. */
        boolean fill(String key, Object lease, Object entry);

        /** Stores {@code entry} under {@code key} unconditionally, with the value TTL (ttl mode). */
        void put(String key, Object entry);

        /** Deletes every key given, values and leases alike. */
        void delete(String... keys);
    }

    /** Whether {@code host} is this machine. */
    static boolean isLoopback(String host) {
        try {
            return InetAddress.getByName(host).isLoopbackAddress();
        } catch (UnknownHostException e) {
            return false;
        }
    }

    /** {@code pid} if /proc shows a process of that id whose name starts with {@code name}. */
    static List<Long> ifProcess(long pid, String name) {
        try {
            Path comm = Path.of("/proc", Long.toString(pid), "comm");
            return Files.exists(comm) && Files.readString(comm).trim().startsWith(name) ? List.of(pid) : List.of();
        } catch (IOException | RuntimeException e) {
            return List.of();
        }
    }
}
