package org.bgbench.store.casql;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisException;
import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.SetArgs;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.codec.StringCodec;
import java.net.ConnectException;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.bgbench.store.ErrorText;
import org.bgbench.store.StoreException;

/**
 * Redis through Lettuce: {@code cache.pool} connections, each multiplexing the commands of many sessions (Lettuce
 * pipelines them over one socket; a blocked caller parks on a future, which suits virtual threads). A session keeps
 * the connection it was given. Leases: {@code SET key token NX PX}; fill: a Lua script that replaces the value only
 * while it still equals the reader's token, atomically on the server.
 */
final class RedisBackend extends CacheBackend {
    private static final RedisCodec<String, byte[]> CODEC = RedisCodec.of(StringCodec.UTF8, ByteArrayCodec.INSTANCE);
    /** KEYS[1]: the key; ARGV[1]: the reader's lease token; ARGV[2]: the entry; ARGV[3]: TTL in ms, 0 for none. */
    static final String FILL_SCRIPT = """
            if redis.call('GET', KEYS[1]) == ARGV[1] then
              if ARGV[3] == '0' then
                redis.call('SET', KEYS[1], ARGV[2])
              else
                redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
              end
              return 1
            end
            return 0
            """;

    private final RedisClient client;
    private final List<StatefulRedisConnection<String, byte[]>> connections;
    private final AtomicInteger next = new AtomicInteger();
    private final String fillSha;
    private final SetArgs leaseArgs = SetArgs.Builder.nx().px(LEASE_MILLIS);
    private final SetArgs putArgs;
    private final byte[] valueTtl;

    private RedisBackend(
            CasqlConfig config, RedisClient client, List<StatefulRedisConnection<String, byte[]>> cs, String fillSha) {
        super(config);
        this.client = client;
        this.connections = cs;
        this.fillSha = fillSha;
        long ttl = config.valueMillis();
        this.putArgs = ttl > 0 ? SetArgs.Builder.px(ttl) : new SetArgs();
        this.valueTtl = Long.toString(ttl).getBytes(StandardCharsets.US_ASCII);
    }

    /** Connects {@code cache.pool} connections and loads the fill script; fails naming host:port. */
    static RedisBackend connect(CasqlConfig config) {
        RedisURI uri = RedisURI.builder()
                .withHost(config.host())
                .withPort(config.port())
                .withTimeout(config.timeout())
                .build();
        RedisClient client = RedisClient.create(uri);
        client.setOptions(ClientOptions.builder()
                .socketOptions(
                        SocketOptions.builder().connectTimeout(config.timeout()).build())
                // A command issued while the connection is down fails at once instead of queueing for later.
                .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
                .build());
        List<StatefulRedisConnection<String, byte[]>> cs = new ArrayList<>();
        try {
            for (int i = 0; i < config.pool(); i++) {
                cs.add(client.connect(CODEC));
            }
            String sha = cs.get(0).sync().scriptLoad(FILL_SCRIPT);
            return new RedisBackend(config, client, cs, sha);
        } catch (RuntimeException e) {
            cs.forEach(StatefulRedisConnection::close);
            client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
            throw new StoreException(unreachable(config, e), e);
        }
    }

    private static String unreachable(CasqlConfig config, RuntimeException e) {
        String why = null;
        Throwable root = e;
        for (Throwable t = e; t != null && why == null; t = t.getCause() == t ? null : t.getCause()) {
            root = t;
            if (t instanceof ConnectException) {
                why = "connection refused (is redis-server running there? set " + CasqlConfig.HOST + " and "
                        + CasqlConfig.PORT + ")";
            } else if (t instanceof UnknownHostException) {
                why = "unknown host '" + config.host() + "'";
            }
        }
        return "cannot reach Redis at " + config.address() + ": " + (why != null ? why : root.getMessage());
    }

    @Override
    Ops ops() {
        return new RedisOps(connections
                .get(Math.floorMod(next.getAndIncrement(), connections.size()))
                .sync());
    }

    @Override
    void flush() {
        try {
            connections.get(0).sync().flushdb();
        } catch (RedisException e) {
            throw failed("FLUSHDB", e);
        }
    }

    @Override
    List<Long> localServerPids() {
        if (!isLoopback(config.host())) {
            return List.of();
        }
        try {
            for (String line : connections.get(0).sync().info("server").split("\r?\n")) {
                if (line.startsWith("process_id:")) {
                    return ifProcess(Long.parseLong(line.substring(11).trim()), "redis");
                }
            }
        } catch (RuntimeException e) {
            // No pid is no failure: it only feeds the CPU report.
        }
        return List.of();
    }

    @Override
    String describe() {
        return "Redis at " + config.address();
    }

    private StoreException failed(String what, RedisException e) {
        return new StoreException(what + " on " + describe() + " failed: " + ErrorText.message(e), e);
    }

    @Override
    public void close() {
        try {
            connections.forEach(StatefulRedisConnection::close);
        } finally {
            client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
        }
    }

    private final class RedisOps implements Ops {
        private final RedisCommands<String, byte[]> c;

        RedisOps(RedisCommands<String, byte[]> c) {
            this.c = c;
        }

        @Override
        public Object get(String key) {
            byte[] v;
            try {
                v = c.get(key);
            } catch (RedisException e) {
                throw failed("GET " + key, e);
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
                return "OK".equals(c.set(key, token, leaseArgs)) ? token : null;
            } catch (RedisException e) {
                throw failed("SET NX (lease) " + key, e);
            }
        }

        @Override
        public boolean fill(String key, Object lease, Object entry) {
            String[] keys = {key};
            byte[][] args = {(byte[]) lease, (byte[]) entry, valueTtl};
            Long done;
            try {
                try {
                    done = c.evalsha(fillSha, ScriptOutputType.INTEGER, keys, args);
                } catch (RedisNoScriptException e) {
                    // The server lost its script cache (restart, SCRIPT FLUSH): send the script itself.
                    done = c.eval(FILL_SCRIPT, ScriptOutputType.INTEGER, keys, args);
                }
            } catch (RedisException e) {
                throw failed("fill " + key, e);
            }
            return done != null && done == 1L;
        }

        @Override
        public void put(String key, Object entry) {
            try {
                c.set(key, (byte[]) entry, putArgs);
            } catch (RedisException e) {
                throw failed("SET " + key, e);
            }
        }

        @Override
        public void delete(String... keys) {
            try {
                c.del(keys);
            } catch (RedisException e) {
                throw failed("DEL " + String.join(" ", keys), e);
            }
        }
    }
}
