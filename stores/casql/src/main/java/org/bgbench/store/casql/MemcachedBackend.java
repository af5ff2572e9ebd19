package org.bgbench.store.casql;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeoutException;
import net.rubyeye.xmemcached.GetsResponse;
import net.rubyeye.xmemcached.MemcachedClient;
import net.rubyeye.xmemcached.XMemcachedClientBuilder;
import net.rubyeye.xmemcached.exception.MemcachedException;
import net.rubyeye.xmemcached.exception.MemcachedServerException;
import net.rubyeye.xmemcached.transcoders.CachedData;
import net.rubyeye.xmemcached.transcoders.CompressionMode;
import net.rubyeye.xmemcached.transcoders.Transcoder;
import org.bgbench.model.Durations;
import org.bgbench.store.ErrorText;
import org.bgbench.store.StoreException;

/**
 * memcached through xmemcached: {@code cache.pool} NIO connections shared by every session, each pipelining the
 * requests of many callers (a caller waits on a latch, which parks a virtual thread). Leases: {@code add key token}
 * (stores only if the key is absent); fill: {@code gets} to read the item's CAS id, then {@code cas} with it only if
 * the item still holds the reader's token. Expiry is in whole seconds, as memcached counts it.
 */
final class MemcachedBackend extends CacheBackend implements CacheBackend.Ops {
    private static final int LEASE_SECONDS = (int) (LEASE_MILLIS / 1000);

    private final MemcachedClient client;
    private final int valueSeconds;

    private MemcachedBackend(CasqlConfig config, MemcachedClient client) {
        super(config);
        this.client = client;
        this.valueSeconds = (int) (config.valueMillis() / 1000);
    }

    static MemcachedBackend connect(CasqlConfig config) {
        InetSocketAddress address = new InetSocketAddress(config.host(), config.port());
        if (address.isUnresolved()) {
            throw new StoreException(
                    "cannot reach memcached at " + config.address() + ": unknown host '" + config.host() + "'");
        }
        probe(config, address);
        XMemcachedClientBuilder b = new XMemcachedClientBuilder(List.of(address));
        b.setName("bg-casql");
        b.setConnectionPoolSize(config.pool());
        b.setConnectTimeout(config.timeout().toMillis());
        b.setOpTimeout(config.timeout().toMillis());
        b.setFailureMode(false);
        b.setTranscoder(new RawBytes());
        MemcachedClient client;
        try {
            client = b.build();
        } catch (IOException e) {
            throw new StoreException("cannot reach memcached at " + config.address() + ": " + e.getMessage(), e);
        }
        MemcachedBackend backend = new MemcachedBackend(config, client);
        try {
            if (client.getAvailableServers().isEmpty()) {
                throw new StoreException("cannot reach memcached at " + config.address() + ": no connection (is "
                        + "memcached running there? set " + CasqlConfig.HOST + " and " + CasqlConfig.PORT + ")");
            }
            client.getVersions();
            return backend;
        } catch (TimeoutException | MemcachedException | InterruptedException | RuntimeException e) {
            backend.close();
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            throw e instanceof StoreException se
                    ? se
                    : new StoreException("cannot reach memcached at " + config.address() + ": " + e.getMessage(), e);
        }
    }

    /**
     * Fails with a one-line message when nothing accepts connections at the address. xmemcached would log errors and
     * keep reconnecting in the background instead, so the common misconfiguration is caught before it starts.
     */
    private static void probe(CasqlConfig config, InetSocketAddress address) {
        try (Socket s = new Socket()) {
            s.connect(
                    address, (int) Math.min(Integer.MAX_VALUE, config.timeout().toMillis()));
        } catch (ConnectException e) {
            throw new StoreException(
                    "cannot reach memcached at " + config.address() + ": connection refused (is "
                            + "memcached running there? set " + CasqlConfig.HOST + " and " + CasqlConfig.PORT + ")",
                    e);
        } catch (SocketTimeoutException e) {
            throw new StoreException(
                    "cannot reach memcached at " + config.address() + ": timed out after "
                            + Durations.format(config.timeout()) + " (" + CasqlConfig.TIMEOUT
                            + "; is a firewall dropping the connection?)",
                    e);
        } catch (IOException e) {
            throw new StoreException("cannot reach memcached at " + config.address() + ": " + e.getMessage(), e);
        }
    }

    @Override
    Ops ops() {
        return this;
    }

    @Override
    public Object get(String key) {
        byte[] v;
        try {
            v = client.get(key);
        } catch (TimeoutException | InterruptedException | MemcachedException e) {
            throw failed("get " + key, e);
        }
        if (v == null) {
            return null;
        }
        return ViewCodec.isLease(v) ? LEASED : v;
    }

    @Override
    public Object lease(String key) {
        byte[] token = newLeaseToken();
        try {
            return client.add(key, LEASE_SECONDS, token) ? token : null;
        } catch (TimeoutException | InterruptedException | MemcachedException e) {
            throw failed("add (lease) " + key, e);
        }
    }

    @Override
    public boolean fill(String key, Object lease, Object entry) {
        try {
            GetsResponse<byte[]> current = client.gets(key);
            if (current == null || !Arrays.equals(current.getValue(), (byte[]) lease)) {
                return false;
            }
            return client.cas(key, valueSeconds, entry, current.getCas());
        } catch (MemcachedServerException | IllegalArgumentException e) {
            // Larger than the server's item size limit (-I): left uncached; the lease expires by itself.
            return false;
        } catch (TimeoutException | InterruptedException | MemcachedException e) {
            throw failed("gets/cas " + key, e);
        }
    }

    @Override
    public void put(String key, Object entry) {
        try {
            client.set(key, valueSeconds, entry);
        } catch (MemcachedServerException | IllegalArgumentException e) {
            // Too large to cache: the next read misses again.
        } catch (TimeoutException | InterruptedException | MemcachedException e) {
            throw failed("set " + key, e);
        }
    }

    @Override
    public void delete(String... keys) {
        for (String key : keys) {
            try {
                client.delete(key);
            } catch (TimeoutException | InterruptedException | MemcachedException e) {
                throw failed("delete " + key, e);
            }
        }
    }

    @Override
    void flush() {
        try {
            client.flushAll();
        } catch (TimeoutException | InterruptedException | MemcachedException e) {
            throw failed("flush_all", e);
        }
    }

    @Override
    List<Long> localServerPids() {
        if (!isLoopback(config.host())) {
            return List.of();
        }
        try {
            for (Map<String, String> stats : client.getStats().values()) {
                String pid = stats.get("pid");
                if (pid != null) {
                    return ifProcess(Long.parseLong(pid.trim()), "memcached");
                }
            }
        } catch (TimeoutException | MemcachedException | RuntimeException e) {
            // No pid is no failure: it only feeds the CPU report.
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return List.of();
    }

    @Override
    String describe() {
        return "memcached at " + config.address();
    }

    private StoreException failed(String what, Exception e) {
        if (e instanceof InterruptedException) {
            Thread.currentThread().interrupt();
        }
        return new StoreException(what + " on " + describe() + " failed: " + ErrorText.message(e), e);
    }

    @Override
    public void close() {
        try {
            client.shutdown();
        } catch (IOException e) {
            throw new StoreException("closing the memcached client failed: " + e.getMessage(), e);
        }
    }

    /** Byte arrays stored as they are: no serialization header, no compression. */
    static final class RawBytes implements Transcoder<byte[]> {
        @Override
        public CachedData encode(byte[] o) {
            return new CachedData(0, o);
        }

        @Override
        public byte[] decode(CachedData d) {
            return d.getData();
        }

        @Override
        public void setPrimitiveAsString(boolean primitiveAsString) {}

        @Override
        public void setPackZeros(boolean packZeros) {}

        @Override
        public void setCompressionThreshold(int to) {}

        @Override
        public boolean isPrimitiveAsString() {
            return false;
        }

        @Override
        public boolean isPackZeros() {
            return false;
        }

        @Override
        public void setCompressionMode(CompressionMode compressMode) {}
    }
}
