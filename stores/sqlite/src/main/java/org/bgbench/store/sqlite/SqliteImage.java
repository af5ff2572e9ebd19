package org.bgbench.store.sqlite;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Optional;
import org.bgbench.store.StoreException;
import org.bgbench.store.StoreImage;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteConnection;
import org.sqlite.SQLiteErrorCode;

/**
 * Database images by SQLite's own means. The image is a second SQLite file, {@code <file>.image}, written by
 * {@code VACUUM INTO}: one read transaction, so it is a consistent snapshot even while other connections write, and a
 * self-contained file (rollback journal, no {@code -wal}). It carries the loaded graph's {@code bg_meta}, so the
 * image itself says which graph it holds; no sidecar. {@code restore()} copies the image back into the live database
 * with SQLite's online backup API (the pages go through the live file's write-ahead log, which is then checkpointed
 * and truncated), so SQLite's locking covers the replacement and no file is swapped under an open connection.
 */
final class SqliteImage implements StoreImage {
    /** The whole image in one backup step: it then holds the live database's write lock once. */
    private static final int ALL_PAGES = -1;
    /**
     * xerial's own retries of a busy backup step, on top of the connection's busy timeout, which already waits for
     * another process's lock: none.
     */
    private static final int BUSY_SLEEP_MS = 100;

    private static final int BUSY_RETRIES = 0;

    private final SqliteStore store;
    private final Path image;

    SqliteImage(SqliteStore store) {
        this.store = store;
        this.image = store.imageFile();
    }

    /**
     * Snapshots the database into the image, replacing an earlier one only once the new one is complete. Refuses when
     * the database holds no completed load. Open sessions may stay open; their writes after the snapshot's start are
     * not in the image, so save while no actions run.
     */
    @Override
    public synchronized void save() {
        Path tmp = image.resolveSibling(image.getFileName() + ".tmp");
        try {
            Files.deleteIfExists(tmp);
            try (Connection c = store.untrackedConnection();
                    PreparedStatement ps = c.prepareStatement("VACUUM INTO ?")) {
                ps.setString(1, tmp.toString());
                ps.execute();
            } catch (SQLException e) {
                throw new StoreException(
                        "saving the image of " + store.file() + " to " + tmp + " failed: " + e.getMessage(), e);
            }
            if (graphIn(tmp).isEmpty()) {
                throw new StoreException(
                        "nothing to save: " + store.file() + " holds no completed load of BG's graph (load one first)");
            }
            try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.WRITE)) {
                ch.force(true);
            }
            Files.move(tmp, image, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new StoreException("saving the image of " + store.file() + " to " + image + " failed: " + e, e);
        } finally {
            try {
                Files.deleteIfExists(tmp);
            } catch (IOException ignored) {
                // A leftover is deleted by the next save.
            }
        }
    }

    /** Whether the image holds the graph the database currently holds (same fingerprint and friendship layout). */
    @Override
    public synchronized boolean exists() {
        Optional<String> current = store.loadedGraph();
        return current.isPresent()
                && Files.isRegularFile(image)
                && graphIn(image).equals(current);
    }

    /**
     * Replaces the database's contents with the image, which stays as it is for the next restore. Needs the
     * database to itself: refuses with a {@link StoreException} while any session or loader of this store is open
     * (close them first; sessions opened and closed before are fine), and holds back new connections meanwhile.
     * Connections of other processes are handled by SQLite's locks: the restore waits for their write transactions
     * (up to {@code sqlite.busy_timeout_ms}, then it fails and changes nothing), does not wait for their readers, and
     * they see the restored contents afterwards.
     */
    @Override
    public synchronized void restore() {
        if (!Files.isRegularFile(image)) {
            throw new StoreException("SQLite database " + store.file() + " has no saved image to restore (" + image
                    + " is missing); save() one after a load");
        }
        if (graphIn(image).isEmpty()) {
            throw new StoreException("the image " + image + " holds no completed load of BG's graph in this store's"
                    + " friendship layout (damaged, or saved with another friendship.rows); save() a new one");
        }
        store.exclusively("restoring the image", () -> {
            try (Connection c = store.untrackedConnection()) {
                // xerial reports a backup that never got the write lock as success: the progress callback, called
                // after a step that copied pages, tells whether the last page was copied.
                int[] remaining = {-1};
                int rc = ((SQLiteConnection) c)
                        .getDatabase()
                        .restore(
                                "main",
                                image.toString(),
                                (left, total) -> remaining[0] = left,
                                BUSY_SLEEP_MS,
                                BUSY_RETRIES,
                                ALL_PAGES);
                if (rc != 0) {
                    throw new StoreException("restoring " + store.file() + " from " + image + " failed: "
                            + SQLiteErrorCode.getErrorCode(rc) + "; the database is unchanged");
                }
                if (remaining[0] != 0) {
                    throw new StoreException("restoring " + store.file() + " from " + image + " failed: the database"
                            + " stayed locked by another connection (another process writing?) beyond the busy"
                            + " timeout; the database is unchanged");
                }
                // Fold the restored pages into the database file and empty the log, as after a load; without
                // waiting for another process's readers (the checkpoint then copies what it can, and a later one the
                // rest).
                try (Statement st = c.createStatement()) {
                    st.execute("PRAGMA busy_timeout = 0");
                    st.execute("PRAGMA wal_checkpoint(TRUNCATE)");
                }
            } catch (SQLException e) {
                throw new StoreException(
                        "restoring " + store.file() + " from " + image + " failed: " + e.getMessage(), e);
            } finally {
                store.contentsReplaced();
            }
        });
    }

    /** The fingerprint that {@code file}'s {@code bg_meta} records under this store's layout, if any. */
    private Optional<String> graphIn(Path file) {
        SQLiteConfig config = new SQLiteConfig();
        config.setReadOnly(true);
        try (Connection c = config.createConnection("jdbc:sqlite:" + file);
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT key, value FROM bg_meta")) {
            String fingerprint = null;
            String design = null;
            while (rs.next()) {
                switch (rs.getString(1)) {
                    case "fingerprint" -> fingerprint = rs.getString(2);
                    case "design" -> design = rs.getString(2);
                    default -> {}
                }
            }
            return fingerprint != null && store.design().equals(design) ? Optional.of(fingerprint) : Optional.empty();
        } catch (SQLException e) {
            // No BG tables, or not a database: no image of any graph.
            return Optional.empty();
        }
    }
}
