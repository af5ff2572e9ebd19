package org.bgbench.store.postgres;

import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.HikariPoolMXBean;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Optional;
import java.util.Properties;
import org.bgbench.store.StoreException;
import org.bgbench.store.StoreImage;
import org.postgresql.Driver;

/**
 * Database images by PostgreSQL's own means: the image is a second database, {@code <db>_bgimage}, created with
 * {@code CREATE DATABASE ... TEMPLATE}, a file-level copy that takes seconds where a reload takes minutes. Both
 * operations need the database to themselves: the pool is suspended and emptied first (and the materialized view's
 * background refresher paused), so every BG session must be closed, and other clients must be disconnected.
 */
final class PostgresImage implements StoreImage {
    private static final long QUIESCE_MS = 10_000;
    private static final int ATTEMPTS = 3;

    private final PostgresStore store;
    private final HikariDataSource pool;
    private final Target target;
    private final Properties props;
    private final String image;
    private final String maintenance;

    PostgresImage(PostgresStore store, HikariDataSource pool, Target target, Properties props) {
        this.store = store;
        this.pool = pool;
        this.target = target;
        this.props = props;
        this.image = target.database() + "_bgimage";
        // Neither the database replaced nor the image may be the one this connection sits in.
        this.maintenance = target.database().equals("postgres") ? "template1" : "postgres";
    }

    @Override
    public void save() {
        replace(image, target.database(), "saving the image");
    }

    @Override
    public boolean exists() {
        Optional<String> current = store.loadedGraph();
        if (current.isEmpty()) {
            return false;
        }
        try (Connection c = connect(maintenance);
                PreparedStatement ps = c.prepareStatement("SELECT 1 FROM pg_database WHERE datname = ?")) {
            ps.setString(1, image);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return false;
                }
            }
        } catch (SQLException e) {
            throw new StoreException("looking for the image failed: " + target.describe(e), e);
        }
        // Same graph and same design (friendship layout, feed design): a push image holds feed rows pull does not.
        try (Connection c = connect(image);
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT (SELECT value FROM bg_meta WHERE key = 'fingerprint'),"
                        + " (SELECT value FROM bg_meta WHERE key = 'design')")) {
            return rs.next()
                    && current.get().equals(rs.getString(1))
                    && store.recordedDesign().equals(rs.getString(2));
        } catch (SQLException e) {
            // An image without BG's tables is no image of this graph.
            return false;
        }
    }

    /** Restores the image; with the matview design the view is then refreshed, as the image's may be stale. */
    @Override
    public void restore() {
        replace(target.database(), image, "restoring the image");
        store.schemaReplaced();
    }

    /**
     * Drops {@code database} and recreates it as a copy of {@code template}, with BG's pool emptied and the
     * materialized view's background refresher paused meanwhile.
     */
    private void replace(String database, String template, String what) {
        try (CountsView.Paused paused = store.pauseRefresher()) {
            dropAndCopy(database, template, what);
        }
    }

    private void dropAndCopy(String database, String template, String what) {
        HikariPoolMXBean mx = pool.getHikariPoolMXBean();
        mx.suspendPool();
        try {
            for (int attempt = 1; ; attempt++) {
                quiesce(mx, what);
                try (Connection c = connect(maintenance);
                        Statement st = c.createStatement()) {
                    st.execute("DROP DATABASE IF EXISTS " + quote(database));
                    st.execute("CREATE DATABASE " + quote(database) + " TEMPLATE " + quote(template));
                    return;
                } catch (SQLException e) {
                    boolean busy = "55006".equals(e.getSQLState());
                    // A pooled connection opened just before the suspension may still be arriving: evict it, retry.
                    if (busy && attempt < ATTEMPTS) {
                        continue;
                    }
                    throw new StoreException(
                            what + " failed: " + target.describe(e)
                                    + (busy ? " (disconnect other clients of the database first)" : ""),
                            e);
                }
            }
        } finally {
            mx.resumePool();
        }
    }

    private void quiesce(HikariPoolMXBean mx, String what) {
        if (mx.getActiveConnections() > 0) {
            throw new StoreException(what + " needs the database to itself: close the " + mx.getActiveConnections()
                    + " open BG session(s) first");
        }
        long deadline = System.currentTimeMillis() + QUIESCE_MS;
        int quiet = 0;
        // Empty for a few consecutive checks, so a connection still being opened when the pool was suspended is seen.
        while (quiet < 5) {
            mx.softEvictConnections();
            quiet = mx.getTotalConnections() == 0 ? quiet + 1 : 0;
            if (System.currentTimeMillis() > deadline) {
                throw new StoreException(
                        what + ": pooled connections did not close within " + QUIESCE_MS / 1000 + " s");
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new StoreException(what + " interrupted");
            }
        }
    }

    private Connection connect(String database) throws SQLException {
        Connection c = new Driver().connect(target.urlFor(database), props);
        if (c == null) {
            throw new StoreException("cannot connect to database " + database + " at " + target.address());
        }
        return c;
    }

    private static String quote(String identifier) {
        return '"' + identifier.replace("\"", "\"\"") + '"';
    }
}
