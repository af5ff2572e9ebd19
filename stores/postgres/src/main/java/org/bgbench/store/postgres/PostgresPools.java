package org.bgbench.store.postgres;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.pool.HikariPool;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.bgbench.model.Durations;
import org.bgbench.store.StoreException;
import org.bgbench.store.relational.PoolBorrow;
import org.bgbench.store.relational.ReplicaCatchUp;
import org.postgresql.Driver;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The connections of a postgres store: the primary's HikariCP pool of pgJDBC connections with their documented
 * settings, one pool per read replica, and direct connections for loads and the view's refresher. Every failure
 * becomes a {@link StoreException} with one line naming the server and what went wrong.
 */
final class PostgresPools implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(PostgresPools.class);
    private static final Pattern DELAY = Pattern.compile("(\\d+)\\s*(ms|s|min|h|d)?");
    /**
     * Connections kept idle in the pool: none, each is opened when a session asks for one (sessions open before a run
     * acts). With a minimum, Hikari's housekeeper, 30 s after the pool opened, found the members' sessions holding
     * the connections and opened that many more, each with a password exchange, in the middle of a run's measured
     * period (docs/benchmarks.md).
     */
    private static final int MIN_IDLE = 0;
    /** Upper bound of the automatic pool size. */
    private static final int AUTO_POOL_CAP = 128;

    /** A read replica: its URL as given, the server it names, its pool. */
    record Replica(String url, Target target, HikariDataSource pool) {
        /** A one-line message naming the read URL, for a failed connection or statement. */
        String describe(SQLException e) {
            return "read replica " + url + " (" + PostgresStoreProvider.READ_URLS + "): " + target.describe(e);
        }
    }

    /** What a store opens on: the server's version, and its sessions' and loaders' connection properties. */
    record Opened(PostgresPools pools, int serverVersion) {}

    private final Target target;
    private final Properties sessionProperties;
    private final Properties loadProperties;
    private final HikariDataSource pool;
    private final int poolSize;
    private final Duration timeout;
    /** One pool per replica URL, in the configuration's order; empty without replicas. */
    private final List<Replica> replicas;
    /** Whether the replicas were seen to have replayed the primary's WAL as of the first routed session. */
    private volatile boolean replicasCaughtUp;
    /** The first routed session's wait for the replicas. */
    private final ReplicaCatchUp<Replica> catchUp;

    private PostgresPools(
            Target target,
            Properties sessionProperties,
            Properties loadProperties,
            HikariDataSource pool,
            int poolSize,
            Duration timeout,
            List<Replica> replicas) {
        this.target = target;
        this.sessionProperties = sessionProperties;
        this.loadProperties = loadProperties;
        this.pool = pool;
        this.poolSize = poolSize;
        this.timeout = timeout;
        this.replicas = List.copyOf(replicas);
        this.catchUp = new ReplicaCatchUp<>(
                this.replicas, this::walPosition, this::awaitReplay, (r, e) -> new StoreException(r.describe(e), e));
    }

    /** Opens the pools of {@code config} on the server at {@code url} as {@code user}, with {@code password}. */
    static Opened open(PostgresConfig config, String url, String user, String password) {
        Target target = Target.of(url, user);
        Properties props = new Properties();
        props.setProperty("user", user);
        if (password != null) {
            props.setProperty("password", password);
        }
        props.setProperty("ApplicationName", "bg");
        // A stopped server still completes TCP handshakes (the kernel does), so the login must time out too.
        String seconds = Long.toString(Math.max(1, (config.timeout().toMillis() + 999) / 1000));
        props.setProperty("connectTimeout", seconds);
        props.setProperty("loginTimeout", seconds);
        // BG sessions run the same few statements millions of times: plan them server-side from the first use.
        props.setProperty("prepareThreshold", "1");
        target.chooseTls(props);

        int version;
        int slots;
        try (Connection c = connectDirect(target, props);
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT current_setting('server_version_num')::int, "
                        + "current_setting('max_connections')::int - "
                        + "current_setting('superuser_reserved_connections')::int")) {
            rs.next();
            version = rs.getInt(1);
            slots = rs.getInt(2);
        } catch (SQLException e) {
            throw new StoreException(target.describe(e), e);
        }
        // Leave room for the loaders' and index builders' own connections.
        int pool = config.server().pool();
        int size = pool > 0 ? pool : Math.max(2, Math.min(AUTO_POOL_CAP, slots - 8));

        HikariConfig hc = hikari("bg-postgres", url, props, size, config.timeout());
        // Images copy the database at file level, which needs every pooled connection closed meanwhile.
        hc.setAllowPoolSuspension(true);
        HikariDataSource primary;
        try {
            primary = new HikariDataSource(hc);
        } catch (HikariPool.PoolInitializationException e) {
            throw e.getCause() instanceof SQLException se
                    ? new StoreException(target.describe(se), se)
                    : new StoreException(
                            "cannot open a connection pool to PostgreSQL at " + target.address() + ": "
                                    + e.getMessage(),
                            e);
        }
        List<Replica> replicas;
        try {
            replicas = openReplicas(config, user, props, size);
        } catch (RuntimeException e) {
            primary.close();
            throw e;
        }
        Properties load = new Properties();
        load.putAll(props);
        // A load is redone from scratch if it fails, so its commits need not wait for the disk.
        load.setProperty("options", "-c synchronous_commit=off");
        return new Opened(new PostgresPools(target, props, load, primary, size, config.timeout(), replicas), version);
    }

    private static HikariConfig hikari(String name, String url, Properties props, int size, Duration timeout) {
        HikariConfig hc = new HikariConfig();
        hc.setPoolName(name);
        hc.setJdbcUrl(url);
        hc.setDataSourceProperties(props);
        hc.setMaximumPoolSize(size);
        hc.setMinimumIdle(Math.min(MIN_IDLE, size));
        hc.setConnectionTimeout(PoolBorrow.sliceMillis(timeout));
        hc.setValidationTimeout(PoolBorrow.validationMillis(timeout));
        return hc;
    }

    /**
     * One pool per read URL, sized and timed out like the primary's (each replica gets at most as many sessions as the
     * primary); fails, closing those already opened, with one line naming the read URL.
     */
    private static List<Replica> openReplicas(PostgresConfig config, String user, Properties primaryProps, int size) {
        List<Replica> out = new ArrayList<>();
        if (!config.replicas().routes()) {
            return out;
        }
        try {
            int i = 0;
            for (String url : config.replicas().urls()) {
                Target t;
                try {
                    t = Target.of(url, user);
                } catch (StoreException e) {
                    throw new StoreException(
                            PostgresStoreProvider.READ_URLS + ": '" + url + "' is not a PostgreSQL "
                                    + "JDBC URL; expected jdbc:postgresql://HOST:PORT/DATABASE",
                            e);
                }
                Properties props = new Properties();
                props.putAll(primaryProps);
                props.setProperty("ApplicationName", "bg-read");
                t.chooseTls(props);
                HikariConfig hc = hikari("bg-postgres-read-" + i++, url, props, size, config.timeout());
                try {
                    out.add(new Replica(url, t, new HikariDataSource(hc)));
                } catch (HikariPool.PoolInitializationException e) {
                    Replica r = new Replica(url, t, null);
                    throw e.getCause() instanceof SQLException se
                            ? new StoreException(r.describe(se), se)
                            : new StoreException(
                                    "cannot open a connection pool to the read replica " + url + " ("
                                            + PostgresStoreProvider.READ_URLS + "): " + e.getMessage(),
                                    e);
                }
            }
            return out;
        } catch (RuntimeException e) {
            out.forEach(r -> r.pool().close());
            throw e;
        }
    }

    private static Connection connectDirect(Target target, Properties props) throws SQLException {
        Connection c = new Driver().connect(target.url(), props);
        if (c == null) {
            throw new StoreException("postgres.url '" + target.url() + "' is not a PostgreSQL JDBC URL");
        }
        return c;
    }

    private Connection borrow(HikariDataSource from) throws SQLException {
        return PoolBorrow.borrow(from::getConnection, timeout);
    }

    /** A pooled connection to the primary. */
    Connection connect() {
        try {
            return borrow(pool);
        } catch (SQLTransientConnectionException e) {
            if (e.getCause() instanceof SQLException cause) {
                throw new StoreException(target.describe(cause), e);
            }
            int active = pool.getHikariPoolMXBean() == null
                    ? -1
                    : pool.getHikariPoolMXBean().getActiveConnections();
            if (active >= 0 && active < poolSize) {
                // The pool had room: it could not open a new connection in time (the pool opens them one at a time).
                throw new StoreException(
                        "PostgreSQL did not give a new connection within " + Durations.format(timeout)
                                + " (" + PostgresStoreProvider.TIMEOUT + "; " + active + " of " + poolSize + " pooled "
                                + "connections in use): the server is slow to accept connections; raise "
                                + PostgresStoreProvider.TIMEOUT + " or start with fewer threads",
                        e);
            }
            throw new StoreException(
                    "no free PostgreSQL connection within " + Durations.format(timeout) + " ("
                            + PostgresStoreProvider.TIMEOUT + "): all " + poolSize
                            + " pooled connections are held by open sessions; raise postgres.pool",
                    e);
        } catch (SQLException e) {
            throw new StoreException(target.describe(e), e);
        }
    }

    /** A pooled connection to replica {@code index} (in the configuration's order). */
    Connection connectToReplica(int index) {
        Replica r = replicas.get(index);
        try {
            return borrow(r.pool());
        } catch (SQLTransientConnectionException e) {
            if (e.getCause() instanceof SQLException cause) {
                throw new StoreException(r.describe(cause), e);
            }
            throw new StoreException(
                    "no free connection to the read replica " + r.url() + " ("
                            + PostgresStoreProvider.READ_URLS + ") within " + Durations.format(timeout) + " ("
                            + PostgresStoreProvider.TIMEOUT + "): all " + poolSize
                            + " pooled connections are held by open "
                            + "sessions; raise postgres.pool",
                    e);
        } catch (SQLException e) {
            throw new StoreException(r.describe(e), e);
        }
    }

    /** A connection of its own with the loaders' properties (no synchronous commit), outside the pool. */
    Connection connectForLoad() {
        return connectWith(loadProperties);
    }

    /** A connection of its own with the sessions' properties and application name {@code name}, outside the pool. */
    Connection connectAs(String name) {
        Properties p = new Properties();
        p.putAll(sessionProperties);
        p.setProperty("ApplicationName", name);
        return connectWith(p);
    }

    private Connection connectWith(Properties props) {
        try {
            return connectDirect(target, props);
        } catch (SQLException e) {
            throw new StoreException(target.describe(e), e);
        }
    }

    /** Whether the replicas were seen to have caught up with the primary (after {@link #awaitReplicas}). */
    boolean replicasCaughtUp() {
        return replicasCaughtUp;
    }

    /**
     * Waits until every replica has replayed the primary's WAL as it is now (at most {@code postgres.timeout} plus the
     * apply delay), so a run starts on replicas that hold the graph just loaded; a replica that does not catch up in
     * time is logged. Only the first call waits.
     */
    void awaitReplicas() {
        catchUp.await();
        replicasCaughtUp = true;
    }

    /** The primary's current WAL position. */
    private String walPosition() {
        try (Connection c = connect();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT pg_current_wal_lsn()::text")) {
            rs.next();
            return rs.getString(1);
        } catch (SQLException e) {
            throw new StoreException("reading the primary's WAL position failed: " + target.describe(e), e);
        }
    }

    /**
     * Waits until replica {@code r} has replayed the WAL up to {@code lsn} (at most {@code postgres.timeout} plus its
     * apply delay), or logs that it did not.
     */
    private void awaitReplay(Replica r, String lsn) throws SQLException {
        try (Connection c = r.pool().getConnection();
                PreparedStatement ps = c.prepareStatement("SELECT NOT pg_is_in_recovery() OR "
                        + "coalesce(pg_last_wal_replay_lsn() >= ?::pg_lsn, false), "
                        + "current_setting('recovery_min_apply_delay')")) {
            ps.setString(1, lsn);
            long deadline = -1;
            while (true) {
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    if (rs.getBoolean(1)) {
                        break;
                    }
                    if (deadline < 0) {
                        // The apply delay is only known here; wait for it on top of the timeout.
                        deadline = System.nanoTime() + timeout.toNanos() + applyDelayNanos(rs.getString(2));
                    }
                }
                if (System.nanoTime() > deadline) {
                    LOG.warn(
                            "the read replica {} has not replayed the primary's WAL up to {} within {} plus "
                                    + "its apply delay; reads there may miss the graph's latest writes at the start",
                            r.url(),
                            lsn,
                            Durations.format(timeout));
                    break;
                }
                Thread.sleep(20);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StoreException("interrupted while waiting for the read replica " + r.url());
        }
    }

    /** {@code recovery_min_apply_delay} as SHOW prints it (0, 500ms, 2s, 1min, 1h, 1d) in nanoseconds. */
    static long applyDelayNanos(String shown) {
        Matcher m = DELAY.matcher(shown == null ? "" : shown.trim());
        if (!m.matches()) {
            return 0;
        }
        long n = Long.parseLong(m.group(1));
        String unit = m.group(2) == null ? "ms" : m.group(2);
        return switch (unit) {
            case "s" -> TimeUnit.SECONDS.toNanos(n);
            case "min" -> TimeUnit.MINUTES.toNanos(n);
            case "h" -> TimeUnit.HOURS.toNanos(n);
            case "d" -> TimeUnit.DAYS.toNanos(n);
            default -> TimeUnit.MILLISECONDS.toNanos(n);
        };
    }

    Target target() {
        return target;
    }

    /** The primary's pool, which images suspend while they copy the database. */
    HikariDataSource pool() {
        return pool;
    }

    Properties loadProperties() {
        return loadProperties;
    }

    int poolSize() {
        return poolSize;
    }

    List<Replica> replicas() {
        return replicas;
    }

    @Override
    public void close() {
        try {
            pool.close();
        } finally {
            replicas.forEach(r -> r.pool().close());
        }
    }
}
