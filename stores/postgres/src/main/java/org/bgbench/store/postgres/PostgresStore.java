package org.bgbench.store.postgres;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.pool.HikariPool;
import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import org.bgbench.model.Durations;
import org.bgbench.model.GraphSpec;
import org.bgbench.model.generator.SocialGraph;
import org.bgbench.store.StoreException;
import org.bgbench.store.StoreImage;
import org.bgbench.store.StoreSession;
import org.bgbench.store.StoreSettings;
import org.bgbench.store.FeedDesign;
import org.bgbench.store.ReplyWait;
import org.bgbench.store.relational.ReplicaCatchUp;
import org.bgbench.store.relational.net.BufferedSocketFactory;
import org.bgbench.store.postgres.wire.PgWire;
import org.bgbench.store.postgres.wire.WireException;
import org.bgbench.store.relational.ReadReplicas;
import org.bgbench.store.relational.PhysicalDesign;
import org.bgbench.store.relational.RelationalSchema;
import org.bgbench.store.relational.RelationalSession;
import org.bgbench.store.relational.PoolBorrow;
import org.bgbench.store.relational.RelationalStore;
import org.postgresql.Driver;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * BG's Basic relational design on PostgreSQL: sessions borrow a connection from a HikariCP pool for their whole life,
 * loaders stream COPY on connections of their own, and an embedded mode starts a throwaway server. With
 * {@link Design#MATVIEW} View Profile reads its counts from a materialized view instead ({@link CountsView}).
 */
public final class PostgresStore extends RelationalStore {
    private static final Logger LOG = LoggerFactory.getLogger(PostgresStore.class);
    /**
     * Connections kept idle in the pool: none, each is opened when a session asks for one (sessions open before a run
     * acts). With a minimum, Hikari's housekeeper, 30 s after the pool opened, found the members' sessions holding
     * the connections and opened that many more, each with a password exchange (SCRAM: 4,096 rounds of HMAC), in the
     * middle of a run's measured period (docs/benchmarks.md, issue 20).
     */
    private static final int MIN_IDLE = 0;
    /** Upper bound of the automatic pool size. */
    private static final int AUTO_POOL_CAP = 128;

    private final Target target;
    /** The read actions' client ({@code postgres.client}). */
    private final Client client;
    /** The wire client's Unix socket directory ({@code postgres.socket}); null for TCP. */
    private final String socket;
    /** The password BG logs in with (null with the embedded server), for {@link Client#WIRE}'s connections. */
    private final String password;
    private final Properties loadProperties;
    private final HikariDataSource pool;
    private final EmbeddedServer embedded;
    private final int poolSize;
    private final Duration timeout;
    private final PostgresImage image;
    /** The materialized view of the counts; null with the basic design. */
    private final CountsView view;
    /** The read replicas ({@code postgres.read-urls}) and the read actions routed to them. */
    private final ReadReplicas replicas;
    /** One pool per replica URL, in {@code replicas}' order; empty without replicas. */
    private final List<Replica> replicaPools;
    /** Whether the replicas were seen to have replayed the primary's WAL as of the first routed session. */
    private volatile boolean replicasCaughtUp;
    /** The first routed session's wait for the replicas. */
    private final ReplicaCatchUp<Replica> catchUp;

    /** A read replica: its URL as given, the server it names, its pool. */
    private record Replica(String url, Target target, HikariDataSource pool) {
        /** A one-line message naming the read URL, for a failed connection or statement. */
        String describe(SQLException e) {
            return "read replica " + url + " (" + PostgresStoreProvider.READ_URLS + "): " + target.describe(e);
        }
    }

    /** How View Profile gets a member's counts. */
    public enum Design {
        /** Aggregate queries over the tables at every VP (USC BG's Basic design). */
        BASIC,
        /** A materialized view of the counts, refreshed by the writes or by a background thread [CIKM section E.1]. */
        MATVIEW
    }

    /** Which client VP, LF, VFR, VTR and the friendship writes go through ({@code postgres.client}). */
    public enum Client {
        /** pgJDBC for every action. */
        PGJDBC,
        /**
         * BG's own protocol client ({@link org.bgbench.store.postgres.wire.PgWire}) for VP, LF, VFR and VTR and the
         * friendship writes the design does in one statement, on a second connection per session; pgJDBC for the
         * rest. The Basic design only, no TLS.
         */
        WIRE
    }

    /**
     * Connection settings of a store.
     *
     * @param url            JDBC URL (ignored when embedded)
     * @param user           role to log in as (ignored when embedded)
     * @param password       its password, may be null
     * @param pool           session connections in the pool; 0 picks one from the server's max_connections
     * @param embedded       start a throwaway server instead of connecting to {@code url}
     * @param friendshipRows rows per confirmed friendship, 1 or 2
     * @param design         how View Profile gets the counts
     * @param refresh        with {@link Design#MATVIEW}: null to refresh the view in every count-changing write, or
     *                       the interval of a background refresh (VP counts may then be stale); null with BASIC
     * @param timeout        how long a session's statement may run before the server cancels it; a server that does
     *                       not answer at all is given up one second later (pgJDBC's read timeout), and connecting
     *                       and borrowing a pooled connection wait as long (whole seconds, at least 1 s)
     * @param replicas       read replicas and the read actions sent to them; null for none
     * @param physical       friendship tables, counts, profile images (CIKM 2013 sections C–E); the matview design
     *                       keeps the counts in its view, so it refuses {@code counts=attributes}
     * @param client         the read actions' client; null for pgJDBC. {@link Client#WIRE} takes the basic design
     *                       with images inline and no read replicas
     * @param socket         with {@link Client#WIRE}: the directory of the server's Unix domain socket (its {@code
     *                       unix_socket_directories}, e.g. {@code /var/run/postgresql}), which the wire client's
     *                       connections use instead of TCP to the URL's host, at the URL's port; null for TCP. The
     *                       embedded server's wire connections always use its own socket
     */
    public record Config(String url, String user, String password, int pool, boolean embedded, int friendshipRows,
                         Design design, Duration refresh, Duration timeout, FeedDesign feed, ReadReplicas replicas,
                         PhysicalDesign physical, Client client, String socket) {
        public Config {
            if (client == null) {
                client = Client.PGJDBC;
            }
            if (replicas == null) {
                replicas = ReadReplicas.NONE;
            }
            if (physical == null) {
                physical = PhysicalDesign.BASIC;
            }
            if (design == Design.MATVIEW && physical.countAttributes()) {
                throw new IllegalArgumentException("the matview design keeps the counts in its view, not as attributes");
            }
            if (design == null) {
                design = Design.BASIC;
            }
            if (feed == null) {
                feed = FeedDesign.PULL;
            }
            if (refresh != null && (design != Design.MATVIEW || refresh.isNegative() || refresh.isZero())) {
                throw new IllegalArgumentException("a refresh interval needs the matview design and must be positive");
            }
            if (timeout == null) {
                timeout = StoreSettings.defaultTimeout(StoreSettings.DEFAULT_BETA);
            }
            if (timeout.compareTo(StoreSettings.MIN_TIMEOUT) < 0) {
                throw new IllegalArgumentException("the timeout must be at least 1 s, got " + timeout);
            }
            if (client == Client.WIRE && (design != Design.BASIC || physical.imagesInFiles()
                    || !replicas.urls().isEmpty())) {
                throw new IllegalArgumentException("the wire client reads the basic design with images inline and "
                        + "no read replicas");
            }
            if (socket != null && (client != Client.WIRE || !PgWire.isSocketDirectory(socket))) {
                throw new IllegalArgumentException("a Unix socket directory is an absolute path, for the wire client: "
                        + socket);
            }
        }

        public Config(String url, String user, String password, int pool, boolean embedded, int friendshipRows,
                      Design design, Duration refresh, Duration timeout, FeedDesign feed, ReadReplicas replicas,
                      PhysicalDesign physical, Client client) {
            this(url, user, password, pool, embedded, friendshipRows, design, refresh, timeout, feed, replicas,
                    physical, client, null);
        }

        public Config(String url, String user, String password, int pool, boolean embedded, int friendshipRows,
                      Design design, Duration refresh, Duration timeout, FeedDesign feed, ReadReplicas replicas,
                      PhysicalDesign physical) {
            this(url, user, password, pool, embedded, friendshipRows, design, refresh, timeout, feed, replicas,
                    physical, null, null);
        }

        /** The same settings with the read actions' client {@code c}. */
        public Config withClient(Client c) {
            return new Config(url, user, password, pool, embedded, friendshipRows, design, refresh, timeout, feed,
                    replicas, physical, c, socket);
        }

        /** The same settings with the wire client's Unix socket directory {@code dir} (null: TCP). */
        public Config withSocket(String dir) {
            return new Config(url, user, password, pool, embedded, friendshipRows, design, refresh, timeout, feed,
                    replicas, physical, client, dir);
        }

        /** No read replicas, the Basic physical design. */
        public Config(String url, String user, String password, int pool, boolean embedded, int friendshipRows,
                      Design design, Duration refresh, Duration timeout, FeedDesign feed) {
            this(url, user, password, pool, embedded, friendshipRows, design, refresh, timeout, feed, null, null);
        }

        /** The same settings with the read replicas {@code r}. */
        public Config withReplicas(ReadReplicas r) {
            return new Config(url, user, password, pool, embedded, friendshipRows, design, refresh, timeout, feed, r,
                    physical, client, socket);
        }

        /** The same settings with physical design {@code p}. */
        public Config withPhysical(PhysicalDesign p) {
            return new Config(url, user, password, pool, embedded, friendshipRows, design, refresh, timeout, feed,
                    replicas, p, client, socket);
        }

        /** The pull feed. */
        public Config(String url, String user, String password, int pool, boolean embedded, int friendshipRows,
                      Design design, Duration refresh, Duration timeout) {
            this(url, user, password, pool, embedded, friendshipRows, design, refresh, timeout, null);
        }

        /** The same settings with feed design {@code f}. */
        public Config withFeed(FeedDesign f) {
            return new Config(url, user, password, pool, embedded, friendshipRows, design, refresh, timeout, f,
                    replicas, physical, client, socket);
        }

        /** The default timeout. */
        public Config(String url, String user, String password, int pool, boolean embedded, int friendshipRows,
                      Design design, Duration refresh) {
            this(url, user, password, pool, embedded, friendshipRows, design, refresh, null);
        }

        /** The basic design. */
        public Config(String url, String user, String password, int pool, boolean embedded, int friendshipRows) {
            this(url, user, password, pool, embedded, friendshipRows, Design.BASIC, null);
        }
    }

    private PostgresStore(PostgresDialect dialect, Config config, Target target, Properties sessionProperties,
                          Properties loadProperties, HikariDataSource pool, EmbeddedServer embedded, int poolSize,
                          List<Replica> replicaPools) {
        super(dialect, config.friendshipRows(), config.feed(), config.physical());
        this.replicas = config.replicas();
        this.replicaPools = List.copyOf(replicaPools);
        this.catchUp = new ReplicaCatchUp<>(this.replicaPools, this::walPosition, this::awaitReplay,
                (r, e) -> new StoreException(r.describe(e), e));
        this.timeout = config.timeout();
        this.client = config.client();
        this.socket = embedded != null ? embedded.socketDirectory() : config.socket();
        this.password = embedded != null ? null : config.password();
        this.target = target;
        this.loadProperties = loadProperties;
        this.pool = pool;
        this.embedded = embedded;
        this.poolSize = poolSize;
        this.image = new PostgresImage(this, pool, target, loadProperties);
        if (config.design() == Design.MATVIEW) {
            Properties refresher = new Properties();
            refresher.putAll(sessionProperties);
            refresher.setProperty("ApplicationName", "bg-matview-refresh");
            this.view = new CountsView(config.friendshipRows(), config.physical().twoTables(), config.refresh(), this::connect, () -> {
                try {
                    return connectDirect(target, refresher);
                } catch (SQLException e) {
                    throw new StoreException(target.describe(e), e);
                }
            });
        } else {
            this.view = null;
        }
    }

    /** Connects (starting the embedded server first if asked); fails with a message naming what went wrong. */
    public static PostgresStore open(Config config) {
        EmbeddedServer server = config.embedded() ? EmbeddedServer.start() : null;
        try {
            String url = server != null ? server.url() : config.url();
            String user = server != null || config.user() == null ? "postgres" : config.user();
            String password = server != null ? null : config.password();
            Target target = Target.of(url, user);
            if (config.client() == Client.WIRE && (target.host().contains(",") || !target.plaintext())) {
                throw new StoreException("postgres.client=wire speaks to one server without TLS: give postgres.url "
                        + "one host and, unless it is this machine, sslmode=disable (got " + url + ")");
            }
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
            props.setProperty("socketFactory", BufferedSocketFactory.class.getName());

            int version;
            int slots;
            try (Connection c = connectDirect(target, props); Statement st = c.createStatement();
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
            int size = config.pool() > 0 ? config.pool() : Math.max(2, Math.min(AUTO_POOL_CAP, slots - 8));

            HikariConfig hc = new HikariConfig();
            hc.setPoolName("bg-postgres");
            hc.setJdbcUrl(url);
            hc.setDataSourceProperties(props);
            hc.setMaximumPoolSize(size);
            hc.setMinimumIdle(Math.min(MIN_IDLE, size));
            hc.setConnectionTimeout(PoolBorrow.sliceMillis(config.timeout()));
            hc.setValidationTimeout(PoolBorrow.validationMillis(config.timeout()));
            // Images copy the database at file level, which needs every pooled connection closed meanwhile.
            hc.setAllowPoolSuspension(true);
            HikariDataSource pool;
            try {
                pool = new HikariDataSource(hc);
            } catch (HikariPool.PoolInitializationException e) {
                throw e.getCause() instanceof SQLException se ? new StoreException(target.describe(se), se)
                        : new StoreException("cannot open a connection pool to PostgreSQL at " + target.address()
                                + ": " + e.getMessage(), e);
            }
            List<Replica> replicas;
            try {
                replicas = openReplicas(config, user, props, size);
            } catch (RuntimeException e) {
                pool.close();
                throw e;
            }
            Properties load = new Properties();
            load.putAll(props);
            // A load is redone from scratch if it fails, so its commits need not wait for the disk.
            load.setProperty("options", "-c synchronous_commit=off");
            return new PostgresStore(new PostgresDialect(version), config, target, props, load, pool, server, size,
                    replicas);
        } catch (RuntimeException e) {
            if (server != null) {
                server.close();
            }
            throw e;
        }
    }

    /**
     * One pool per read URL, sized and timed out like the primary's (each replica gets at most as many sessions as the
     * primary); fails, closing those already opened, with one line naming the read URL.
     */
    private static List<Replica> openReplicas(Config config, String user, Properties primaryProps, int size) {
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
                    throw new StoreException(PostgresStoreProvider.READ_URLS + ": '" + url + "' is not a PostgreSQL "
                            + "JDBC URL; expected jdbc:postgresql://HOST:PORT/DATABASE", e);
                }
                Properties props = new Properties();
                props.putAll(primaryProps);
                props.setProperty("ApplicationName", "bg-read");
                t.chooseTls(props);
                HikariConfig hc = new HikariConfig();
                hc.setPoolName("bg-postgres-read-" + i++);
                hc.setJdbcUrl(url);
                hc.setDataSourceProperties(props);
                hc.setMaximumPoolSize(size);
                hc.setMinimumIdle(Math.min(MIN_IDLE, size));
                hc.setConnectionTimeout(PoolBorrow.sliceMillis(config.timeout()));
                hc.setValidationTimeout(PoolBorrow.validationMillis(config.timeout()));
                try {
                    out.add(new Replica(url, t, new HikariDataSource(hc)));
                } catch (HikariPool.PoolInitializationException e) {
                    Replica r = new Replica(url, t, null);
                    throw e.getCause() instanceof SQLException se ? new StoreException(r.describe(se), se)
                            : new StoreException("cannot open a connection pool to the read replica " + url + " ("
                                    + PostgresStoreProvider.READ_URLS + "): " + e.getMessage(), e);
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

    @Override
    protected Connection connect() {
        try {
            return borrow(pool);
        } catch (SQLTransientConnectionException e) {
            if (e.getCause() instanceof SQLException cause) {
                throw new StoreException(target.describe(cause), e);
            }
            int active = pool.getHikariPoolMXBean() == null ? -1 : pool.getHikariPoolMXBean().getActiveConnections();
            if (active >= 0 && active < poolSize) {
                // The pool had room: it could not open a new connection in time (the pool opens them one at a time).
                throw new StoreException("PostgreSQL did not give a new connection within " + Durations.format(timeout)
                        + " (" + PostgresStoreProvider.TIMEOUT + "; " + active + " of " + poolSize + " pooled "
                        + "connections in use): the server is slow to accept connections; raise "
                        + PostgresStoreProvider.TIMEOUT + " or start with fewer threads", e);
            }
            throw new StoreException("no free PostgreSQL connection within " + Durations.format(timeout) + " ("
                    + PostgresStoreProvider.TIMEOUT + "): all " + poolSize
                    + " pooled connections are held by open sessions; raise postgres.pool", e);
        } catch (SQLException e) {
            throw new StoreException(target.describe(e), e);
        }
    }

    /**
     * A pooled connection to the replica of session {@code session} (i mod n). The first one waits until every replica
     * has replayed the primary's WAL as it was then (at most {@code postgres.timeout} plus the apply delay), so a run
     * starts on replicas that hold the graph just loaded; a replica that does not catch up in time is logged.
     */
    @Override
    protected Connection connectForRead(int session) {
        if (!replicasCaughtUp) {
            // The wait holds this store's monitor: no other member of a shared thread may run meanwhile.
            try (ReplyWait.Stay stay = ReplyWait.stay()) {
                awaitReplicas();
            }
        }
        Replica r = replicaPools.get(replicas.replicaOf(session));
        try {
            return borrow(r.pool());
        } catch (SQLTransientConnectionException e) {
            if (e.getCause() instanceof SQLException cause) {
                throw new StoreException(r.describe(cause), e);
            }
            throw new StoreException("no free connection to the read replica " + r.url() + " ("
                    + PostgresStoreProvider.READ_URLS + ") within " + Durations.format(timeout) + " ("
                    + PostgresStoreProvider.TIMEOUT + "): all " + poolSize + " pooled connections are held by open "
                    + "sessions; raise postgres.pool", e);
        } catch (SQLException e) {
            throw new StoreException(r.describe(e), e);
        }
    }

    @Override
    protected ReadReplicas readReplicas() {
        return replicas;
    }

    private void awaitReplicas() {
        catchUp.await();
        replicasCaughtUp = true;
    }

    /** The primary's current WAL position. */
    private String walPosition() {
        try (Connection c = connect(); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT pg_current_wal_lsn()::text")) {
            rs.next();
            return rs.getString(1);
        } catch (SQLException e) {
            throw failure("reading the primary's WAL position", e);
        }
    }

    /**
     * Waits until replica {@code r} has replayed the WAL up to {@code lsn} (at most {@code postgres.timeout} plus its
     * apply delay), or logs that it did not.
     */
    private void awaitReplay(Replica r, String lsn) throws SQLException {
        try (Connection c = r.pool().getConnection();
             java.sql.PreparedStatement ps = c.prepareStatement("SELECT NOT pg_is_in_recovery() OR "
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
                    LOG.warn("the read replica {} has not replayed the primary's WAL up to {} within {} plus "
                            + "its apply delay; reads there may miss the graph's latest writes at the start",
                            r.url(), lsn, Durations.format(timeout));
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
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("(\\d+)\\s*(ms|s|min|h|d)?").matcher(
                shown == null ? "" : shown.trim());
        if (!m.matches()) {
            return 0;
        }
        long n = Long.parseLong(m.group(1));
        String unit = m.group(2) == null ? "ms" : m.group(2);
        return switch (unit) {
            case "s" -> java.util.concurrent.TimeUnit.SECONDS.toNanos(n);
            case "min" -> java.util.concurrent.TimeUnit.MINUTES.toNanos(n);
            case "h" -> java.util.concurrent.TimeUnit.HOURS.toNanos(n);
            case "d" -> java.util.concurrent.TimeUnit.DAYS.toNanos(n);
            default -> java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(n);
        };
    }

    @Override
    protected Connection connectForLoad() {
        try {
            return connectDirect(target, loadProperties);
        } catch (SQLException e) {
            throw new StoreException(target.describe(e), e);
        }
    }

    @Override
    protected StoreException failure(String what, SQLException e) {
        return new StoreException(what + " failed: " + target.describe(e), e);
    }

    /** The JDBC URL in use (the embedded server's when embedded). */
    public String url() {
        return target.url();
    }

    /** Size of the session connection pool. */
    public int poolSize() {
        return poolSize;
    }

    /** How View Profile gets the counts. */
    public Design design() {
        return view == null ? Design.BASIC : Design.MATVIEW;
    }

    /** The materialized view of the matview design; null with the basic design. */
    CountsView countsView() {
        return view;
    }

    @Override
    public void createSchema(GraphSpec spec) {
        if (view != null) {
            view.invalidate();
        }
        // The view depends on the tables: drop it first under either design, so a basic load can replace a matview one.
        execute("dropping the materialized view", CountsView.DROP);
        super.createSchema(spec);
        if (view != null) {
            execute("creating the materialized view", view.createStatement());
        }
    }

    @Override
    public void dropSchema() {
        if (view != null) {
            view.invalidate();
        }
        execute("dropping the materialized view", CountsView.DROP);
        super.dropSchema();
    }

    /** Builds keys and indexes and records the graph (as the Basic design), then populates and indexes the view. */
    @Override
    public void finishLoad(SocialGraph graph, org.bgbench.store.FinishProgress progress) {
        super.finishLoad(graph, progress);
        if (view != null) {
            view.prepare();
        }
    }

    /**
     * A session with the store's timeouts ({@link PostgresSession}) on a pooled connection. With the matview design,
     * the first session of the store makes sure the view exists and is fresh.
     */
    @Override
    public StoreSession openSession() {
        RelationalSchema s = schema();
        if (view != null) {
            try (ReplyWait.Stay stay = ReplyWait.stay()) { // prepares under a monitor the first time
                view.ensureReady();
            }
        }
        boolean sync = view != null && view.synchronous();
        java.util.function.Supplier<Connection> reads = null;
        if (replicas.routes()) {
            int session = nextSession();
            reads = () -> connectForRead(session);
        }
        int readMillis = (int) Math.min(Integer.MAX_VALUE, timeout.plusSeconds(1).toMillis());
        return new PostgresSession(this::connect, reads, (c, r) -> view == null
                ? new RelationalSession(c, r, replicas.actions(), s, null)
                : new MatviewSession(c, r, replicas.actions(), s, sync), timeout.toMillis(), readMillis,
                client == Client.WIRE ? () -> openWire(s, readMillis) : null);
    }

    /**
     * A connection of BG's own protocol client with the session's timeouts (statement_timeout, and the read timeout
     * a second longer) and VP, LF, VFR, VTR and the one-statement friendship writes prepared on it.
     */
    private WireActions openWire(RelationalSchema s, int readMillis) {
        PgWire w = null;
        try {
            w = PgWire.connect(socket != null ? socket : target.host(), Integer.parseInt(target.port()),
                    target.database(), target.user(), password, readMillis, readMillis);
            w.execute("SET statement_timeout = " + timeout.toMillis());
            return new WireActions(w, s);
        } catch (WireException e) {
            if (w != null) {
                w.close();
            }
            throw new StoreException(target.describe(e) + " (postgres.client=wire"
                    + (socket == null ? ")" : ", over the Unix socket " + PgWire.socketFile(socket,
                            Integer.parseInt(target.port())) + " of postgres.socket)"), e);
        }
    }

    /** A session with the store's timeouts whose every statement runs on the primary, for BG's checks. */
    @Override
    public StoreSession openConsistentSession() {
        RelationalSchema s = schema();
        if (view != null) {
            try (ReplyWait.Stay stay = ReplyWait.stay()) { // prepares under a monitor the first time
                view.ensureReady();
            }
        }
        boolean sync = view != null && view.synchronous();
        return new PostgresSession(this::connect, null, (c, r) -> view == null ? new RelationalSession(c, s, null)
                : new MatviewSession(c, null, replicas.actions(), s, sync), timeout.toMillis(),
                (int) Math.min(Integer.MAX_VALUE, timeout.plusSeconds(1).toMillis()));
    }

    /** The read replicas' URLs ({@code postgres.read-urls}); empty without replicas. */
    public List<String> readUrls() {
        return replicaPools.stream().map(Replica::url).toList();
    }

    /** Every connection reads through {@link BufferedSocketFactory}, which hands off before each wait for a reply. */
    @Override
    public boolean handsOffWhileWaiting() {
        return true;
    }

    /** A statement runs at most {@code postgres.timeout}; a server that does not answer is given up a second later. */
    @Override
    public Duration callTimeout() {
        return timeout.plusSeconds(1);
    }

    private void execute(String what, String sql) {
        try (Connection c = connect(); Statement st = c.createStatement()) {
            st.execute(sql);
        } catch (SQLException e) {
            throw failure(what, e);
        }
    }

    /**
     * The image, except with read replicas: a restore drops and re-creates the database on the primary, the
     * replicas replay that and end every session reading from them ("terminating connection due to conflict with
     * recovery"), so a rating's next experiment failed. Without an image a rating repairs or reloads instead, through
     * the primary, which the replicas follow.
     */
    @Override
    public Optional<StoreImage> image() {
        return readUrls().isEmpty() ? Optional.of(image) : Optional.empty();
    }

    /** Called after a restore replaced the database, whose attribute columns may differ and whose view is derived. */
    void schemaReplaced() {
        forgetSchema();
        if (view != null) {
            view.prepare();
        }
    }

    /** Keeps the background refresher off the database (and its connection closed) while an image is copied. */
    CountsView.Paused pauseRefresher() {
        return view == null ? () -> { } : view.pause();
    }

    EmbeddedServer embeddedServer() {
        return embedded;
    }

    /**
     * The postmaster's pid when the server runs on this host: known for the embedded server; for a server on a
     * loopback address, the parent of this store's backend process if /proc shows one named postgres.
     */
    @Override
    public List<Long> localServerPids() {
        if (embedded != null) {
            return embedded.pid().map(List::of).orElse(List.of());
        }
        List<Long> pids = new ArrayList<>();
        if (isLoopback(target.host())) {
            postmaster(this::connect).ifPresent(pids::add);
        }
        // The replicas' servers too, when they run here: BG reports the CPU of all of them.
        for (Replica r : replicaPools) {
            if (isLoopback(r.target().host())) {
                postmaster(() -> {
                    try {
                        return r.pool().getConnection();
                    } catch (SQLException e) {
                        throw new StoreException(r.describe(e), e);
                    }
                }).filter(p -> !pids.contains(p)).ifPresent(pids::add);
            }
        }
        return List.copyOf(pids);
    }

    /** The parent of the backend serving a connection from {@code connections}, if /proc shows both are postgres. */
    private static Optional<Long> postmaster(java.util.function.Supplier<Connection> connections) {
        try (Connection c = connections.get(); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT pg_backend_pid()")) {
            rs.next();
            long backend = rs.getLong(1);
            if (!isPostgresProcess(backend)) {
                return Optional.empty();
            }
            long parent = parentPid(backend);
            return parent > 1 && isPostgresProcess(parent) ? Optional.of(parent) : Optional.empty();
        } catch (SQLException | IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    private static boolean isLoopback(String host) {
        try {
            return host.indexOf(',') < 0 && InetAddress.getByName(host).isLoopbackAddress();
        } catch (UnknownHostException e) {
            return false;
        }
    }

    private static boolean isPostgresProcess(long pid) throws IOException {
        Path comm = Path.of("/proc", Long.toString(pid), "comm");
        return Files.exists(comm) && Files.readString(comm).trim().startsWith("postgres");
    }

    private static long parentPid(long pid) throws IOException {
        String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
        // Fields after the parenthesised command name: state, ppid, ...
        String[] rest = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(rest[1]);
    }

    @Override
    public void close() {
        try {
            try {
                if (view != null) {
                    view.close();
                }
            } finally {
                pool.close();
                replicaPools.forEach(r -> r.pool().close());
            }
        } finally {
            if (embedded != null) {
                embedded.close();
            }
        }
    }
}
