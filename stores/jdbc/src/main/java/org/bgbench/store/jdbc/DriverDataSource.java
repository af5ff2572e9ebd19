package org.bgbench.store.jdbc;

import java.io.PrintWriter;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Statement;
import java.util.List;
import java.util.Properties;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * A {@link DataSource} over a {@link Driver} instance (HikariCP pools it; loaders use it directly): each connection
 * comes from {@code driver.connect(url, properties)}, runs the dialect's init statements, and sends BG's SQL through
 * the dialect's {@link SqlRewriter}.
 */
final class DriverDataSource implements DataSource {
    private final Driver driver;
    private final String url;
    private final Properties props;
    private final List<String> init;
    private final SqlRewriter rewriter;
    private volatile int loginTimeout;

    DriverDataSource(Driver driver, String url, Properties props, List<String> init, SqlRewriter rewriter) {
        this.driver = driver;
        this.url = url;
        this.props = props;
        this.init = init;
        this.rewriter = rewriter;
    }

    @Override
    public Connection getConnection() throws SQLException {
        return open(props);
    }

    @Override
    public Connection getConnection(String user, String password) throws SQLException {
        Properties p = new Properties();
        p.putAll(props);
        if (user != null) {
            p.setProperty("user", user);
        }
        if (password != null) {
            p.setProperty("password", password);
        }
        return open(p);
    }

    private Connection open(Properties p) throws SQLException {
        Connection c = driver.connect(url, p);
        if (c == null) {
            throw new SQLException("driver " + driver.getClass().getName() + " does not accept " + url);
        }
        try (Statement st = c.createStatement()) {
            for (String sql : init) {
                try {
                    st.execute(sql);
                } catch (SQLException e) {
                    throw new SQLException(
                            "the dialect's init statement '" + sql + "' failed: " + e.getMessage(),
                            e.getSQLState(),
                            e.getErrorCode(),
                            e);
                }
            }
        } catch (SQLException | RuntimeException e) {
            try {
                c.close();
            } catch (SQLException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
        return rewriter.identity() ? c : wrap(c, rewriter, 0);
    }

    /**
     * {@code c} sending its SQL through {@code rewriter}, and with a query timeout of {@code timeoutSeconds} (0: none)
     * on every statement it creates.
     */
    static Connection wrap(Connection c, SqlRewriter rewriter, int timeoutSeconds) {
        return (Connection) Proxy.newProxyInstance(
                DriverDataSource.class.getClassLoader(), new Class<?>[] {Connection.class}, (proxy, method, args) -> {
                    String name = method.getName();
                    if (name.equals("equals") && args != null && args.length == 1) {
                        return proxy == args[0];
                    }
                    if (name.equals("hashCode") && args == null) {
                        return System.identityHashCode(proxy);
                    }
                    if (name.equals("close") && args == null && timeoutSeconds > 0 && !c.isClosed()) {
                        // Some drivers keep the query timeout per connection (H2 runs SET QUERY_TIMEOUT): clear it
                        // before the connection goes back to the pool, where index builds must not inherit it.
                        try (Statement st = c.createStatement()) {
                            st.setQueryTimeout(0);
                        } catch (SQLException e) {
                            // The connection is going anyway.
                        }
                    }
                    if (args != null
                            && args.length > 0
                            && args[0] instanceof String sql
                            && (name.equals("prepareStatement")
                                    || name.equals("prepareCall")
                                    || name.equals("nativeSQL"))) {
                        args = args.clone();
                        args[0] = rewriter.rewrite(sql);
                    }
                    Object result;
                    try {
                        result = method.invoke(c, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                    if (result instanceof Statement st && timeoutSeconds > 0) {
                        st.setQueryTimeout(timeoutSeconds);
                    }
                    if (name.equals("createStatement") && !rewriter.identity()) {
                        return statement((Statement) result, rewriter);
                    }
                    return result;
                });
    }

    private static Statement statement(Statement st, SqlRewriter rewriter) {
        return (Statement) Proxy.newProxyInstance(
                DriverDataSource.class.getClassLoader(), new Class<?>[] {Statement.class}, (proxy, method, args) -> {
                    String original = null;
                    if (args != null
                            && args.length > 0
                            && args[0] instanceof String sql
                            && (method.getName().startsWith("execute")
                                    || method.getName().equals("addBatch"))) {
                        original = sql;
                        args = args.clone();
                        args[0] = rewriter.rewrite(sql);
                    }
                    try {
                        return method.invoke(st, args);
                    } catch (InvocationTargetException e) {
                        if (e.getCause() instanceof SQLException && rewriter.ignoresFailure(original)) {
                            // DROP TABLE of a table that does not exist, on an engine without IF EXISTS.
                            Class<?> r = method.getReturnType();
                            return r == boolean.class
                                    ? Boolean.FALSE
                                    : r == int.class ? 0 : r == long.class ? 0L : null;
                        }
                        throw e.getCause();
                    }
                });
    }

    @Override
    public PrintWriter getLogWriter() {
        return null;
    }

    @Override
    public void setLogWriter(PrintWriter out) {
        // The driver logs its own way.
    }

    @Override
    public void setLoginTimeout(int seconds) {
        loginTimeout = seconds;
    }

    @Override
    public int getLoginTimeout() {
        return loginTimeout;
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
        throw new SQLFeatureNotSupportedException();
    }

    @Override
    public <T> T unwrap(Class<T> iface) throws SQLException {
        if (iface.isInstance(this)) {
            return iface.cast(this);
        }
        throw new SQLException("not a wrapper of " + iface.getName());
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) {
        return iface.isInstance(this);
    }
}
