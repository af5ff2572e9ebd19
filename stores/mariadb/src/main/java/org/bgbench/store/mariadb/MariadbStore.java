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
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.sql.Statement;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import org.bgbench.store.StoreException;
import org.bgbench.store.StoreImage;
import org.bgbench.store.relational.FeedDesign;
import org.bgbench.store.relational.PhysicalDesign;
import org.bgbench.store.relational.RelationalStore;
import org.mariadb.jdbc.Driver;

/**
 * BG's Basic relational design on MariaDB or MySQL (InnoDB) through MariaDB Connector/J: sessions borrow a connection
 * from a HikariCP pool for their whole life, loaders write through connections of their own.
 */
public final class MariadbStore extends RelationalStore {
    private static final int MIN_IDLE = 4;
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
     * @param url            JDBC URL, {@code jdbc:mariadb://host:port/database}
     * @param user           user to log in as
     * @param password       its password, may be null
     * @param pool           session connections; 0 picks one from the server's max_connections
     * @param friendshipRows rows per confirmed friendship, 1 or 2
     * @param bulk           the loaders' bulk path
     * @param timeout        how long a session's statement may run before the server stops it (max_statement_time);
     *                       a server that does not answer is given up one second later (the socket's read
     *                       timeout), and connecting or waiting for a pooled connection is bounded by it too
     * @param physical       friendship tables, counts, profile images (CIKM 2013 sections C–E)
     */
    public record Config(String url, String user, String password, int pool, int friendshipRows, Bulk bulk,
                         java.time.Duration timeout, FeedDesign feed, PhysicalDesign physical) {
        public Config {
            if (physical == null) {
                physical = PhysicalDesign.BASIC;
            }
            if (timeout == null) {
                timeout = org.bgbench.store.StoreSettings.defaultTimeout(org.bgbench.store.StoreSettings.DEFAULT_BETA);
            }
            if (feed == null) {
                feed = FeedDesign.PULL;
            }
        }

        /** The Basic physical design. */
        public Config(String url, String user, String password, int pool, int friendshipRows, Bulk bulk,
                      java.time.Duration timeout, FeedDesign feed) {
            this(url, user, password, pool, friendshipRows, bulk, timeout, feed, null);
        }

        /** The same settings with physical design {@code p}. */
        public Config withPhysical(PhysicalDesign p) {
            return new Config(url, user, password, pool, friendshipRows, bulk, timeout, feed, p);
        }

        /** The pull feed. */
        public Config(String url, String user, String password, int pool, int friendshipRows, Bulk bulk,
                      java.time.Duration timeout) {
            this(url, user, password, pool, friendshipRows, bulk, timeout, null);
        }

        /** With the default timeout. */
        public Config(String url, String user, String password, int pool, int friendshipRows, Bulk bulk) {
            this(url, user, password, pool, friendshipRows, bulk, null);
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

    private MariadbStore(Config config, String host, String database, Properties props, HikariDataSource pool,
                         int poolSize) {
        super(new MariadbDialect(config.bulk()), config.friendshipRows(), config.feed(), config.physical());
        this.url = config.url();
        this.host = host;
        this.database = database;
        this.user = config.user();
        this.props = props;
        this.pool = pool;
        this.poolSize = poolSize;
        this.image = new MariadbImage(this, database);
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
        try (Connection c = direct(url, props); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT @@max_connections")) {
            rs.next();
            slots = rs.getInt(1);
        } catch (SQLException e) {
            throw new StoreException(describe(url, config.user(), e), e);
        }
        int size = config.pool() > 0 ? config.pool() : Math.max(2, Math.min(AUTO_POOL_CAP, slots - 16));
        HikariConfig hc = new HikariConfig();
        hc.setPoolName("bg-mariadb");
        hc.setJdbcUrl(url);
        hc.setDataSourceProperties(props);
        hc.setMaximumPoolSize(size);
        hc.setMinimumIdle(Math.min(MIN_IDLE, size));
        hc.setConnectionTimeout(config.timeout().toMillis());
        // Sessions only (loaders' LOAD DATA may rightly run longer): a statement the server runs too long is stopped
        // there, and a server that stops answering is given up a second later, so no action waits forever.
        hc.addDataSourceProperty("socketTimeout", Long.toString(config.timeout().plusSeconds(1).toMillis()));
        hc.setConnectionInitSql(INIT_SQL + ", max_statement_time = " + config.timeout().toMillis() / 1000.0);
        // Fewer gap locks than REPEATABLE READ, so concurrent friendship writes do not deadlock on ranges.
        hc.setTransactionIsolation("TRANSACTION_READ_COMMITTED");
        HikariDataSource pool;
        try {
            pool = new HikariDataSource(hc);
        } catch (HikariPool.PoolInitializationException e) {
            throw e.getCause() instanceof SQLException se ? new StoreException(describe(url, config.user(), se), se)
                    : new StoreException("cannot open a connection pool to MariaDB at " + url + ": "
                            + e.getMessage(), e);
        }
        return new MariadbStore(config, host, database, props, pool, size);
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
            case 1045 -> "MariaDB at " + url + " refused user '" + user + "' (check mariadb.user and mariadb.password): "
                    + e.getMessage();
            case 1049 -> "the database of " + url + " does not exist; create it (CREATE DATABASE) or point mariadb.url "
                    + "at an existing one: " + e.getMessage();
            case 1040 -> "MariaDB at " + url + " has no free connections (max_connections); lower mariadb.pool or "
                    + "the thread count";
            default -> root instanceof ConnectException || root instanceof UnknownHostException
                    ? "cannot reach MariaDB at " + url + " (is the server running? scripts/mariadb.sh start DIR starts "
                    + "a private one): " + root.getMessage()
                    : "MariaDB at " + url + ": " + e.getMessage();
        };
    }

    @Override
    protected Connection connect() {
        try {
            return pool.getConnection();
        } catch (SQLTransientConnectionException e) {
            if (e.getCause() instanceof SQLException cause) {
                throw new StoreException(describe(url, user, cause), e);
            }
            throw new StoreException("no free MariaDB connection within 30 s: all " + poolSize
                    + " pooled connections are held by open sessions; raise mariadb.pool", e);
        } catch (SQLException e) {
            throw new StoreException(describe(url, user, e), e);
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

    @Override
    public Optional<StoreImage> image() {
        return Optional.of(image);
    }

    /**
     * The server's pid when it runs on this host: a loopback URL, the server's {@code pid_file} readable here and
     * naming a live mariadbd or mysqld process.
     */
    @Override
    public List<Long> localServerPids() {
        if (!isLoopback(host)) {
            return List.of();
        }
        try (Connection c = connect(); Statement st = c.createStatement();
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
        }
    }
}
