package org.bgbench.store.mariadb;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import org.bgbench.store.StoreException;
import org.bgbench.store.StoreImage;
import org.bgbench.store.relational.RelationalSchema;

/**
 * The image is a copy of BG's tables in a second database of the same server, {@code <database>_bgimage}: saved and
 * restored table by table with {@code CREATE TABLE ... LIKE} (keys and indexes included) and
 * {@code INSERT ... SELECT}, each table on its own connection in parallel. {@code bg_meta} goes last on restore, so an
 * interrupted restore leaves no graph recorded and BG reloads. BG sessions should be closed meanwhile (a restore
 * drops the tables they read).
 */
final class MariadbImage implements StoreImage {
    private final MariadbStore store;
    private final String database;
    private final String image;

    MariadbImage(MariadbStore store, String database) {
        this.store = store;
        this.database = database;
        this.image = database + "_bgimage";
    }

    @Override
    public void save() {
        try (Connection c = store.connectDirect();
                Statement st = c.createStatement()) {
            st.execute("CREATE DATABASE IF NOT EXISTS " + q(image));
            for (String t : RelationalSchema.TABLES) {
                st.execute("DROP TABLE IF EXISTS " + q(image) + "." + q(t));
            }
        } catch (SQLException e) {
            throw store.failure("saving the image", e);
        }
        copyAll(database, image, "saving the image");
    }

    @Override
    public boolean exists() {
        Optional<String> current = store.loadedGraph();
        if (current.isEmpty()) {
            return false;
        }
        // Same graph and same design (friendship layout, feed design): a push image holds feed rows pull does not.
        try (Connection c = store.connectDirect();
                PreparedStatement ps = c.prepareStatement("SELECT (SELECT value FROM " + q(image) + ".bg_meta WHERE"
                        + " \"key\" = 'fingerprint'), (SELECT value FROM " + q(image)
                        + ".bg_meta WHERE \"key\" = 'design')")) {
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next()
                        && current.get().equals(rs.getString(1))
                        && store.recordedDesign().equals(rs.getString(2));
            }
        } catch (SQLException e) {
            // No image database or no BG tables in it: no image of this graph.
            return false;
        }
    }

    @Override
    public void restore() {
        try (Connection c = store.connectDirect();
                Statement st = c.createStatement()) {
            for (String t : RelationalSchema.TABLES) {
                st.execute("DROP TABLE IF EXISTS " + q(database) + "." + q(t));
            }
        } catch (SQLException e) {
            throw store.failure("restoring the image", e);
        }
        copyAll(image, database, "restoring the image");
        store.schemaReplaced();
    }

    /**
     * Copies every BG table {@code from} holds but bg_meta in parallel, then bg_meta; a design without a push feed
     * has no newsfeed table.
     */
    private void copyAll(String from, String to, String what) {
        List<String> data = new ArrayList<>();
        try (Connection c = store.connectDirect();
                PreparedStatement ps = c.prepareStatement(
                        "SELECT table_name FROM information_schema.tables" + " WHERE table_schema = ?")) {
            ps.setString(1, from);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String t = rs.getString(1);
                    if (RelationalSchema.TABLES.contains(t) && !t.equals(RelationalSchema.META)) {
                        data.add(t);
                    }
                }
            }
        } catch (SQLException e) {
            throw store.failure(what + " (listing the tables of " + from + ")", e);
        }
        List<Thread> threads = new ArrayList<>();
        List<RuntimeException> failures = Collections.synchronizedList(new ArrayList<>());
        for (String t : data) {
            threads.add(Thread.ofPlatform().name("bg-image-" + t).start(() -> {
                try {
                    copy(from, to, t, what);
                } catch (RuntimeException e) {
                    failures.add(e);
                }
            }));
        }
        for (Thread t : threads) {
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new StoreException(what + " interrupted");
            }
        }
        if (!failures.isEmpty()) {
            throw failures.get(0);
        }
        copy(from, to, RelationalSchema.META, what);
    }

    private void copy(String from, String to, String table, String what) {
        try (Connection c = store.connectDirect();
                Statement st = c.createStatement()) {
            st.execute("SET SESSION unique_checks = 0, foreign_key_checks = 0");
            st.execute("CREATE TABLE " + q(to) + "." + q(table) + " LIKE " + q(from) + "." + q(table));
            st.execute("INSERT INTO " + q(to) + "." + q(table) + " SELECT * FROM " + q(from) + "." + q(table));
        } catch (SQLException e) {
            throw store.failure(what + " (table " + table + ")", e);
        }
    }

    /** An identifier quoted for ANSI_QUOTES. */
    private static String q(String identifier) {
        return '"' + identifier.replace("\"", "\"\"") + '"';
    }
}
