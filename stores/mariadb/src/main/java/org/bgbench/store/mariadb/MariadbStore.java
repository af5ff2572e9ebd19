package org.bgbench.store.mariadb;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.pool.HikariPool;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.function.Supplier;
import org.bgbench.model.Durations;
import org.bgbench.store.FeedDesign;
import org.bgbench.store.StoreException;
import org.bgbench.store.StoreImage;
import org.bgbench.store.StoreSettings;
import org.bgbench.store.relational.PhysicalDesign;
import org.bgbench.store.relational.PoolBorrow;
import org.bgbench.store.relational.ReadReplicas;
import org.bgbench.store.relational.RelationalStore;
import org.bgbench.store.relational.ReplicaCatchUp;
import org.bgbench.store.relational.SchemaDesign;
import org.mariadb.jdbc.Driver;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * BG's Basic relational design on MariaDB or MySQL (InnoDB) through MariaDB Connector/J: sessions borrow a connection
 * from a HikariCP pool for their whole life, loaders write through connections of their own.
 */
public final class MariadbStore extends RelationalStore {
    private static final Logger LOG = LoggerFactory.getLogger(MariadbStore.class);
    /**
     * No idle minimum: each connection is opened when a session asks for it. With one, Hikari's housekeeper opened
     * more in the middle of a run once the members' sessions held the idle ones (see PostgresStore.MIN_IDLE).
     */
    private static final int MIN_IDLE = 0;

    private static final int AUTO_POOL_CAP = 128;
    /**
     * Run on every connection: ANSI_QUOTES so {@code "key"} is an identifier (the shared SQL quotes the reserved
     * word the standard way), InnoDB whatever the server's default engine.
     */
    static final String INIT_SQL = "SET SESSION sql_mode = CONCAT_WS(',', NULLIF(@@sql_mode, ''), 'ANSI_QUOTES'), "
            + "default_storage_engine = InnoDB";

    /** How loaders write rows. */
    public enum Bulk {
        /** {@code LOAD DATA LOCAL INFILE} from an in-memory stream. */
        INFILE,
        /** JDBC batches of prepared INSERTs (server-side bulk execution). */
        BATCH
    }

    /**
     * What a MariaDB store connects to and how: built from {@link #of} and changed one setting at a time by the
     * {@code with…} methods.
     *
     * @param login    the server and who logs in
     * @param pool     session connections; 0 picks one from the server's max_connections
     * @param bulk     the loaders' bulk path
     * @param timeout  how long a session's statement may run before the server stops it (max_statement_time); a
     *                 server that does not answer is given up one second later (the socket's read timeout), and
     *                 connecting or waiting for a pooled connection is bounded by it too
     * @param schema   the tables' design
     * @param replicas read replicas and the read actions sent to them
     */
    public record Config(
            Login login, int pool, Bulk bulk, Duration timeout, SchemaDesign schema, ReadReplicas replicas) {
        /**
         * @param url      JDBC URL, {@code jdbc:mariadb://host:port/database}
         * @param user     user to log in as
         * @param password its password, may be null
         */
        public record Login(String url, String user, String password) {}

        public Config {
            if (replicas == null) {
                replicas = ReadReplicas.NONE;
            }
            if (schema == null) {
                schema = SchemaDesign.BASIC;
            }
            if (timeout == null) {
                timeout = StoreSettings.defaultTimeout(StoreSettings.DEFAULT_BETA);
            }
        }

        /** The server at {@code url}: an automatic pool, LOAD DATA, the default timeout, Basic design, no replicas. */
        public static Config of(String url, String user, String password) {
            return new Config(new Login(url, user, password), 0, Bulk.INFILE, null, null, null);
        }

        /** The same settings with {@code size} session connections. */
        public Config withPool(int size) {
            return new Config(login, size, bulk, timeout, schema, replicas);
        }

        /** The same settings with the loaders' bulk path {@code b}. */
        public Config withBulk(Bulk b) {
            return new Config(login, pool, b, timeout, schema, replicas);
        }

        /** The same settings with statement timeout {@code t}. */
        public Config withTimeout(Duration t) {
            return new Config(login, pool, bulk, t, schema, replicas);
        }

        /** The same settings with the tables' design {@code s}. */
        public Config withSchema(SchemaDesign s) {
            return new Config(login, pool, bulk, timeout, s, replicas);
        }

        /** The same settings with {@code rows} rows per confirmed friendship. */
        public Config withFriendshipRows(int rows) {
            return withSchema(schema.withFriendshipRows(rows));
        }

        /** The same settings with feed design {@code f}. */
        public Config withFeed(FeedDesign f) {
            return withSchema(schema.withFeed(f));
        }

        /** The same settings with physical design {@code p}. */
        public Config withPhysical(PhysicalDesign p) {
            return withSchema(schema.withPhysical(p));
        }

        /** The same settings with the read replicas {@code r}. */
        public Config withReplicas(ReadReplicas r) {
            return new Config(login, pool, bulk, timeout, schema, r);
        }

        public String url() {
            return login.url();
        }

        public String user() {
            return login.user();
        }

        public String password() {
            return login.password();
        }

        public int friendshipRows() {
            return schema.friendshipRows();
        }

        public FeedDesign feed() {
            return schema.feed();
        }

        public PhysicalDesign physical() {
            return schema.physical();
        }
    }

    private final String url;
    private final String host;
    private final String database;
    private final String user;
    private final Properties props;
    private final HikariDataSource pool;
    private final int poolSize;
    private final MariadbImage image;
    private volatile boolean closed;
    private final Duration timeout;
    /** The read replicas ({@code mariadb.read-urls}) and the read actions routed to them. */
    private final ReadReplicas replicas;
    /** One pool per replica URL, in {@code replicas}' order; empty without replicas. */
    private final List<Replica> replicaPools;
    /** Whether the replicas were seen to have applied the primary's binlog as of the first routed session. */
    private volatile boolean replicasCaughtUp;
    /** The first routed session's wait for the replicas. */
    private final ReplicaCatchUp<Replica> catchUp;

    /** A read replica: its URL as given, its host, its pool. */
    private record Replica(String url, String host, HikariDataSource pool) {
        /** A one-line message naming the read URL. */
        String describe(String user, SQLException e) {
            return "read replica " + url + " (" + MariadbStoreProvider.READ_URLS + "): "
                    + MariadbStore.describe(url, user, e);
        }
    }

    private MariadbStore(
            Config config,
            String host,
            String database,
            Properties props,
            HikariDataSource pool,
            int poolSize,
            List<Replica> replicaPools) {
        super(new MariadbDialect(config.bulk()), config.friendshipRows(), config.feed(), config.physical());
        this.timeout = config.timeout();
        this.replicas = config.replicas();
        this.replicaPools = List.copyOf(replicaPools);
        this.url = config.url();
        this.host = host;
        this.database = database;
        this.user = config.user();
        this.props = props;
        this.pool = pool;
        this.poolSize = poolSize;
        this.image = new MariadbImage(this, database);
        this.catchUp = new ReplicaCatchUp<>(
                this.replicaPools,
                this::binlogPosition,
                this::awaitReplica,
                (r, e) -> new StoreException(r.describe(user, e), e));
    }

    /** Connects; fails with a message naming what went wrong. */
    public static MariadbStore open(Config config) {
        String url = config.url();
        if (url == null || !url.startsWith("jdbc:mariadb://")) {
            throw new StoreException("mariadb.url '" + url + "' is not a MariaDB Connector/J URL "
                    + "(jdbc:mariadb://host:port/database; for MySQL too)");
        }
        String rest = url.substring("jdbc:mariadb://".length());
        int slash = rest.indexOf('/');
        String authority = slash < 0 ? rest : rest.substring(0, slash);
        String database = slash < 0 ? "" : rest.substring(slash + 1).replaceAll("[?;].*$", "");
        if (database.isEmpty()) {
            throw new StoreException("mariadb.url '" + url + "' names no database (jdbc:mariadb://host:port/database)");
        }
        String host = authority.replaceAll(":\\d+$", "");
        Properties props = new Properties();
        props.setProperty("user", config.user());
        if (config.password() != null) {
            props.setProperty("password", config.password());
        }
        props.setProperty("connectTimeout", Long.toString(config.timeout().toMillis()));
        props.setProperty("allowLocalInfile", "true");
        props.setProperty("allowMultiQueries", "false");
        // Batches as one bulk command (only the BATCH load path uses batches).
        props.setProperty("useBulkStmts", "true");
        props.setProperty("useServerPrepStmts", "true");
        props.setProperty("cachePrepStmts", "true");
        int slots;
        try (Connection c = direct(url, props);
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT @@max_connections")) {
            rs.next();
            slots = rs.getInt(1);
        } catch (SQLException e) {
            throw new StoreException(describe(url, config.user(), e), e);
        }
        int size = config.pool() > 0 ? config.pool() : Math.max(2, Math.min(AUTO_POOL_CAP, slots - 16));
        HikariDataSource pool;
        try {
            pool = new HikariDataSource(sessionPool("bg-mariadb", url, props, size, config));
        } catch (HikariPool.PoolInitializationException e) {
            throw e.getCause() instanceof SQLException se
                    ? new StoreException(describe(url, config.user(), se), se)
                    : new StoreException(
                            "cannot open a connection pool to MariaDB at " + url + ": " + e.getMessage(), e);
        }
        List<Replica> replicas = new ArrayList<>();
        try {
            // One pool per read URL, set up as the primary's (timeouts, isolation), at most as many sessions each.
            for (String readUrl : config.replicas().routes() ? config.replicas().urls() : List.<String>of()) {
                String rest2 = readUrl.substring("jdbc:mariadb://".length());
                int at = rest2.indexOf('/');
                String readHost = (at < 0 ? rest2 : rest2.substring(0, at)).replaceAll(":\\d+$", "");
                Replica r = new Replica(readUrl, readHost, null);
                try {
                    replicas.add(new Replica(
                            readUrl,
                            readHost,
                            new HikariDataSource(
                                    sessionPool("bg-mariadb-read-" + replicas.size(), readUrl, props, size, config))));
                } catch (HikariPool.PoolInitializationException e) {
                    throw e.getCause() instanceof SQLException se
                            ? new StoreException(r.describe(config.user(), se), se)
                            : new StoreException(
                                    "cannot open a connection pool to the read replica " + readUrl + " ("
                                            + MariadbStoreProvider.READ_URLS + "): " + e.getMessage(),
                                    e);
                }
            }
        } catch (RuntimeException e) {
            replicas.forEach(r -> r.pool().close());
            pool.close();
            throw e;
        }
        return new MariadbStore(config, host, database, props, pool, size, replicas);
    }

    /** The session pool of the server at {@code url}. */
    private static HikariConfig sessionPool(String name, String url, Properties props, int size, Config config) {
        HikariConfig hc = new HikariConfig();
        hc.setPoolName(name);
        hc.setJdbcUrl(url);
        hc.setDataSourceProperties(props);
        hc.setMaximumPoolSize(size);
        hc.setMinimumIdle(Math.min(MIN_IDLE, size));
        // One slice of a session's wait (PoolBorrow asks again up to mariadb.timeout).
        hc.setConnectionTimeout(PoolBorrow.sliceMillis(config.timeout()));
        hc.setValidationTimeout(PoolBorrow.validationMillis(config.timeout()));
        // Sessions only (loaders' LOAD DATA may rightly run longer): a statement the server runs too long is stopped
        // there, and a server that stops answering is given up a second later, so no action waits forever.
        hc.addDataSourceProperty(
                "socketTimeout", Long.toString(config.timeout().plusSeconds(1).toMillis()));
        hc.setConnectionInitSql(
                INIT_SQL + ", max_statement_time = " + config.timeout().toMillis() / 1000.0);
        // Fewer gap locks than REPEATABLE READ, so concurrent friendship writes do not deadlock on ranges.
        hc.setTransactionIsolation("TRANSACTION_READ_COMMITTED");
        return hc;
    }

    /** A new connection outside the pool, set up like pooled ones. */
    static Connection direct(String url, Properties props) throws SQLException {
        Connection c = new Driver().connect(url, props);
        if (c == null) {
            throw new SQLException("not a MariaDB URL: " + url);
        }
        try (Statement st = c.createStatement()) {
            st.execute(INIT_SQL);
        } catch (SQLException e) {
            c.close();
            throw e;
        }
        return c;
    }

    static String describe(String url, String user, SQLException e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return switch (e.getErrorCode()) {
            case 1045 ->
                "MariaDB at " + url + " refused user '" + user + "' (check mariadb.user and mariadb.password): "
                        + e.getMessage();
            case 1049 ->
                "the database of " + url + " does not exist; create it (CREATE DATABASE) or point mariadb.url "
                        + "at an existing one: " + e.getMessage();
            case 1040 ->
                "MariaDB at " + url + " has no free connections (max_connections); lower mariadb.pool or "
                        + "the thread count";
            default ->
                root instanceof ConnectException || root instanceof UnknownHostException
                        ? "cannot reach MariaDB at " + url
                                + " (is the server running? scripts/mariadb.sh start DIR starts " + "a private one): "
                                + root.getMessage()
                        : "MariaDB at " + url + ": " + e.getMessage();
        };
    }

    @Override
    protected Connection connect() {
        try {
            return PoolBorrow.borrow(pool::getConnection, timeout);
        } catch (SQLTransientConnectionException e) {
            if (e.getCause() instanceof SQLException cause) {
                throw new StoreException(describe(url, user, cause), e);
            }
            throw new StoreException(noConnection("MariaDB at " + url, pool), e);
        } catch (SQLException e) {
            throw new StoreException(describe(url, user, e), e);
        }
    }

    /** Why a session got no connection in time: every pooled one held by open sessions, or a server slow to open more. */
    private String noConnection(String server, HikariDataSource from) {
        int active = from.getHikariPoolMXBean() == null
                ? -1
                : from.getHikariPoolMXBean().getActiveConnections();
        String within = Durations.format(timeout) + " (" + MariadbStoreProvider.TIMEOUT + ")";
        if (active >= 0 && active < poolSize) {
            return server + " did not give a new connection within " + within + "; " + active + " of " + poolSize
                    + " pooled connections in use: the server is slow to accept connections; raise "
                    + MariadbStoreProvider.TIMEOUT + " or start with fewer threads";
        }
        return "no free connection to " + server + " within " + within + ": all " + poolSize
                + " pooled connections are held by open sessions; raise mariadb.pool";
    }

    /**
     * A pooled connection to the replica of session {@code session} (i mod n). The first one waits until every replica
     * has applied the primary's binlog as it was then ({@code MASTER_GTID_WAIT}, at most {@code mariadb.timeout} plus
     * the replica's MASTER_DELAY), so a run starts on replicas that hold the graph just loaded.
     */
    @Override
    protected Connection connectForRead(int session) {
        if (!replicasCaughtUp) {
            awaitReplicas();
        }
        Replica r = replicaPools.get(replicas.replicaOf(session));
        try {
            return PoolBorrow.borrow(r.pool()::getConnection, timeout);
        } catch (SQLTransientConnectionException e) {
            if (e.getCause() instanceof SQLException cause) {
                throw new StoreException(r.describe(user, cause), e);
            }
            throw new StoreException(
                    noConnection("the read replica " + r.url() + " (" + MariadbStoreProvider.READ_URLS + ")", r.pool()),
                    e);
        } catch (SQLException e) {
            throw new StoreException(r.describe(user, e), e);
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

    /** The primary's binlog position, {@code @@gtid_binlog_pos}. */
    private String binlogPosition() {
        try (Connection c = connect();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT @@gtid_binlog_pos")) {
            rs.next();
            return rs.getString(1);
        } catch (SQLException e) {
            throw failure("reading the primary's binlog position", e);
        }
    }

    /**
     * Waits until replica {@code r} has applied the binlog up to {@code gtid} ({@code MASTER_GTID_WAIT}, at most
     * {@code mariadb.timeout} plus the replica's MASTER_DELAY), or logs that it did not.
     */
    private void awaitReplica(Replica r, String gtid) throws SQLException {
        try (Connection c = PoolBorrow.borrow(r.pool()::getConnection, timeout)) {
            long delay = 0;
            try (Statement st = c.createStatement();
                    ResultSet rs = st.executeQuery("SHOW SLAVE STATUS")) {
                if (rs.next()) {
                    delay = rs.getLong("SQL_Delay");
                }
            } catch (SQLException e) {
                // No privilege to see it: wait the timeout alone.
            }
            long seconds = timeout.toSeconds() + delay;
            try (Statement st = c.createStatement()) {
                // The session's statement limit would cut the wait short.
                st.execute("SET SESSION max_statement_time = 0");
            }
            int done;
            try (PreparedStatement ps = c.prepareStatement("SELECT MASTER_GTID_WAIT(?, ?)")) {
                ps.setString(1, gtid);
                ps.setLong(2, seconds);
                c.setNetworkTimeout(Runnable::run, (int) Math.min(Integer.MAX_VALUE, (seconds + 5) * 1000));
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    done = rs.getInt(1);
                }
            } finally {
                c.setNetworkTimeout(Runnable::run, (int) timeout.plusSeconds(1).toMillis());
                try (Statement st = c.createStatement()) {
                    st.execute("SET SESSION max_statement_time = " + timeout.toMillis() / 1000.0);
                }
            }
            if (done != 0) {
                LOG.warn(
                        "the read replica {} has not applied the primary's binlog up to {} within {} s; "
                                + "reads there may miss the graph's latest writes at the start",
                        r.url(),
                        gtid,
                        seconds);
            }
        }
    }

    @Override
    protected Connection connectForLoad() {
        try {
            Connection c = direct(url, props);
            try (Statement st = c.createStatement()) {
                // Every row of a load is new and keyed by the generator: skip the checks meant for user data.
                st.execute("SET SESSION unique_checks = 0, foreign_key_checks = 0");
            }
            return c;
        } catch (SQLException e) {
            throw new StoreException(describe(url, user, e), e);
        }
    }

    /** A connection outside the pool for the image's copies. */
    Connection connectDirect() throws SQLException {
        return direct(url, props);
    }

    @Override
    protected StoreException failure(String what, SQLException e) {
        return new StoreException(what + " failed: " + describe(url, user, e), e);
    }

    String url() {
        return url;
    }

    /** Size of the session connection pool. */
    public int poolSize() {
        return poolSize;
    }

    /** Called after a restore replaced the tables. */
    void schemaReplaced() {
        forgetSchema();
    }

    /**
     * The image, except with read replicas: a restore replaces the database on the primary while sessions read the
     * replicas, which replay the drop and re-creation under them (PostgreSQL's replicas end those sessions outright).
     * Without an image a rating repairs or reloads instead, through the primary, which the replicas follow.
     */
    @Override
    public Optional<StoreImage> image() {
        return replicas.urls().isEmpty() ? Optional.of(image) : Optional.empty();
    }

    /**
     * The server's pid when it runs on this host: a loopback URL, the server's {@code pid_file} readable here and
     * naming a live mariadbd or mysqld process.
     */
    @Override
    public List<Long> localServerPids() {
        List<Long> pids = new ArrayList<>();
        if (isLoopback(host)) {
            pids.addAll(serverPid(this::connect));
        }
        // The replicas' servers too, when they run here.
        for (Replica r : replicaPools) {
            if (isLoopback(r.host())) {
                serverPid(() -> {
                            try {
                                return PoolBorrow.borrow(r.pool()::getConnection, timeout);
                            } catch (SQLException e) {
                                throw new StoreException(r.describe(user, e), e);
                            }
                        })
                        .stream()
                        .filter(p -> !pids.contains(p))
                        .forEach(pids::add);
            }
        }
        return List.copyOf(pids);
    }

    private static List<Long> serverPid(Supplier<Connection> connections) {
        try (Connection c = connections.get();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT @@pid_file, @@datadir")) {
            rs.next();
            Path file = Path.of(rs.getString(1));
            if (!file.isAbsolute()) {
                file = Path.of(rs.getString(2)).resolve(file);
            }
            long pid = Long.parseLong(Files.readString(file).trim());
            Path comm = Path.of("/proc", Long.toString(pid), "comm");
            if (!Files.exists(comm)) {
                return List.of();
            }
            String name = Files.readString(comm).trim();
            return name.startsWith("mariadbd") || name.startsWith("mysqld") ? List.of(pid) : List.of();
        } catch (SQLException | IOException | RuntimeException e) {
            return List.of();
        }
    }

    private static boolean isLoopback(String host) {
        try {
            return host.indexOf(',') < 0 && InetAddress.getByName(host).isLoopbackAddress();
        } catch (UnknownHostException e) {
            return false;
        }
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            pool.close();
            replicaPools.forEach(r -> r.pool().close());
        }
    }
}
