package org.bgbench.store.jdbc;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.pool.HikariPool;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.Driver;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.concurrent.Executor;
import org.bgbench.model.Durations;
import org.bgbench.store.ErrorText;
import org.bgbench.store.FeedDesign;
import org.bgbench.store.StoreException;
import org.bgbench.store.StoreSession;
import org.bgbench.store.relational.PhysicalDesign;
import org.bgbench.store.relational.RelationalStore;
import org.bgbench.store.relational.SchemaDesign;
import org.bgbench.store.relational.SqlDialect;

/**
 * BG's Basic relational design on any JDBC database: the driver is loaded from jars given by path or Maven
 * coordinates ({@link DriverLoader}), connections come from it directly ({@link DriverDataSource}), pooled by HikariCP
 * for sessions; loaders open their own. The SQL is the relational module's, through a {@link JdbcDialect}.
 *
 * <p>No database image (there is no portable way to snapshot a database): {@link #image()} is empty, so BG reloads
 * instead of restoring. No local server pids: a generic store cannot tell which process serves a URL.
 */
public final class JdbcStore extends RelationalStore {
    private static final Executor DIRECT = Runnable::run;

    /**
     * What a generic JDBC store connects to and how.
     *
     * @param database the database and the driver that reaches it
     * @param pool     session connections (each emulator thread holds one)
     * @param dialect  the SQL dialect
     * @param timeout  longest a session's statement runs (query timeout; the network timeout is one second more)
     * @param schema   the tables' design
     */
    record Config(Database database, int pool, JdbcDialect dialect, Duration timeout, SchemaDesign schema) {
        /**
         * @param url         the JDBC URL
         * @param driverClass the driver class, or null to take the one the jars register for {@code url}
         * @param jars        the driver's jars; empty: BG's own class path
         * @param user        user to log in as, or null
         * @param password    its password, or null
         */
        record Database(String url, String driverClass, List<Path> jars, String user, String password) {}

        String url() {
            return database.url();
        }

        String driverClass() {
            return database.driverClass();
        }

        List<Path> jars() {
            return database.jars();
        }

        String user() {
            return database.user();
        }

        String password() {
            return database.password();
        }

        int friendshipRows() {
            return schema.friendshipRows();
        }

        FeedDesign feed() {
            return schema.feed();
        }

        PhysicalDesign physical() {
            return schema.physical();
        }
    }

    private final Config config;
    private final DriverDataSource direct;
    private final HikariDataSource pool;
    private final String product;
    private final ThreadLocal<Boolean> forSession = new ThreadLocal<>();
    private volatile boolean closed;

    private JdbcStore(Config config, SqlDialect sql, DriverDataSource direct, HikariDataSource pool, String product) {
        super(sql, config.friendshipRows(), config.feed(), config.physical());
        this.config = config;
        this.direct = direct;
        this.pool = pool;
        this.product = product;
    }

    /** Loads the driver, connects once (to check the URL and read the server's version), then opens the pool. */
    static JdbcStore open(Config config) {
        Driver driver = DriverLoader.load(config.driverClass(), config.jars(), config.url());
        Properties props = new Properties();
        if (config.user() != null) {
            props.setProperty("user", config.user());
        }
        if (config.password() != null) {
            props.setProperty("password", config.password());
        }
        JdbcDialect dialect = config.dialect();
        DriverDataSource ds = new DriverDataSource(driver, config.url(), props, dialect.init(), dialect.rewriter());
        int version;
        String product;
        try (Connection c = ds.getConnection()) {
            DatabaseMetaData md = c.getMetaData();
            version = md.getDatabaseMajorVersion() * 10_000 + md.getDatabaseMinorVersion();
            product = md.getDatabaseProductName() + " " + md.getDatabaseProductVersion();
        } catch (SQLException | RuntimeException e) {
            throw new StoreException(
                    JdbcStoreProvider.URL + ": cannot connect to " + config.url()
                            + (config.user() == null ? "" : " as " + config.user()) + " with "
                            + driver.getClass().getName()
                            + ": " + message(e),
                    e);
        }
        HikariConfig hc = new HikariConfig();
        hc.setPoolName("bg-jdbc");
        hc.setDataSource(ds);
        hc.setMaximumPoolSize(config.pool());
        // No idle minimum: Hikari's housekeeper would open connections in the middle of a run (see PostgresStore).
        hc.setMinimumIdle(0);
        hc.setConnectionTimeout(config.timeout().toMillis());
        hc.setValidationTimeout(Math.min(5_000, config.timeout().toMillis() / 2));
        HikariDataSource pool;
        try {
            pool = new HikariDataSource(hc);
        } catch (HikariPool.PoolInitializationException e) {
            throw new StoreException(
                    JdbcStoreProvider.URL + ": cannot open a connection pool to " + config.url() + ": "
                            + message(e.getCause() == null ? e : e.getCause()),
                    e);
        }
        return new JdbcStore(config, dialect.sql(version), ds, pool, product);
    }

    private static String message(Throwable e) {
        // The driver's own sentence when it has one ("Connection to localhost:1 refused. ..."), else its cause's.
        String m = e.getMessage() == null ? "" : ErrorText.clean(e.getMessage().replace('\n', ' '));
        return m.isEmpty() ? ErrorText.of(e) : m;
    }

    @Override
    protected Connection connect() {
        Connection c;
        try {
            c = pool.getConnection();
        } catch (SQLTransientConnectionException e) {
            if (e.getCause() instanceof SQLException cause) {
                throw new StoreException(
                        JdbcStoreProvider.URL + ": cannot connect to " + config.url() + ": " + message(cause), e);
            }
            throw new StoreException(
                    "no free connection to " + config.url() + " within "
                            + Durations.format(config.timeout()) + " (" + JdbcStoreProvider.TIMEOUT + "): all "
                            + config.pool() + " pooled connections are held by open sessions; raise "
                            + JdbcStoreProvider.POOL,
                    e);
        } catch (SQLException e) {
            throw new StoreException(
                    JdbcStoreProvider.URL + ": cannot connect to " + config.url() + ": " + message(e), e);
        }
        if (!Boolean.TRUE.equals(forSession.get())) {
            return c;
        }
        // A session's connection: every statement it prepares gets the query timeout, and a server that does not
        // answer at all is given up a second later (Hikari resets the network timeout when the connection returns).
        int seconds = (int) Math.max(1, (config.timeout().toMillis() + 999) / 1000);
        try {
            c.setNetworkTimeout(DIRECT, (int)
                    Math.min(Integer.MAX_VALUE, config.timeout().plusSeconds(1).toMillis()));
        } catch (SQLException | UnsupportedOperationException | AbstractMethodError e) {
            // Drivers without network timeouts still get the query timeout.
        }
        return DriverDataSource.wrap(c, SqlRewriter.NONE, seconds);
    }

    /** Loaders write through connections of their own, outside the pool and without the sessions' timeouts. */
    @Override
    protected Connection connectForLoad() {
        try {
            return direct.getConnection();
        } catch (SQLException e) {
            throw new StoreException(
                    JdbcStoreProvider.URL + ": cannot connect to " + config.url() + ": " + message(e), e);
        }
    }

    /** A pooled connection set up as a session's (query and network timeouts); the caller closes it. */
    Connection connectForSession() {
        forSession.set(Boolean.TRUE);
        try {
            return connect();
        } finally {
            forSession.remove();
        }
    }

    @Override
    public StoreSession openSession() {
        forSession.set(Boolean.TRUE);
        try {
            return super.openSession();
        } finally {
            forSession.remove();
        }
    }

    /** A session's statement runs at most {@code jdbc.timeout}; an unanswering server is given up a second later. */
    @Override
    public Duration callTimeout() {
        return config.timeout().plusSeconds(1);
    }

    /** Embedded engines (SQLite, H2, HSQLDB, Derby without a server part in the URL) run in BG's process. */
    @Override
    public boolean inProcess() {
        return inProcess(config.url());
    }

    static boolean inProcess(String url) {
        String u = url.toLowerCase(Locale.ROOT);
        if (u.startsWith("jdbc:sqlite:")) {
            return true;
        }
        if (u.startsWith("jdbc:h2:")) {
            return !u.startsWith("jdbc:h2:tcp:") && !u.startsWith("jdbc:h2:ssl:") && !u.contains("auto_server=true");
        }
        if (u.startsWith("jdbc:hsqldb:")) {
            return u.startsWith("jdbc:hsqldb:mem:")
                    || u.startsWith("jdbc:hsqldb:file:")
                    || u.startsWith("jdbc:hsqldb:res:");
        }
        if (u.startsWith("jdbc:derby:")) {
            return !u.startsWith("jdbc:derby://");
        }
        return false;
    }

    /** The database product and version the driver reported at open. */
    public String product() {
        return product;
    }

    /** The dialect in use, as {@code bg} reports it. */
    public String dialectDescription() {
        return config.dialect().describe();
    }

    int poolSize() {
        return config.pool();
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            pool.close();
        }
    }
}
