package org.bgbench.store.sqlite;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import org.bgbench.store.StoreException;
import org.bgbench.store.relational.RelationalStore;
import org.sqlite.SQLiteConfig;

/**
 * BG's Basic relational design in a SQLite file. Every session and loader owns a connection. The database runs in
 * WAL mode, so readers never wait for the writer; SQLite admits one writer at a time, so BG's writes queue on an
 * in-process lock rather than spin in SQLite's busy handler (the busy timeout still covers other processes).
 */
public final class SqliteStore extends RelationalStore {
    private final Path file;
    private final String url;
    private final SQLiteConfig sessionConfig;
    private final SQLiteConfig loadConfig;

    /**
     * @param file          the database file; missing parent directories are created
     * @param busyTimeoutMs how long a statement waits for a lock held by another process
     * @param cacheMb       page cache per connection
     * @param friendshipRows rows per confirmed friendship, 1 or 2
     */
    public SqliteStore(Path file, int busyTimeoutMs, int cacheMb, int friendshipRows) {
        super(new SqliteDialect(), friendshipRows);
        this.file = file.toAbsolutePath();
        this.url = "jdbc:sqlite:" + this.file;
        this.sessionConfig = config(busyTimeoutMs, cacheMb);
        // A session's multi-statement write takes the write lock at BEGIN, so it cannot fail half way on a conflict.
        sessionConfig.setTransactionMode(SQLiteConfig.TransactionMode.IMMEDIATE);
        // Loaders keep a transaction open between flushes (the driver begins the next one at commit); a deferred
        // BEGIN holds no lock until the flush writes.
        this.loadConfig = config(busyTimeoutMs, cacheMb);
        loadConfig.setTransactionMode(SQLiteConfig.TransactionMode.DEFERRED);
        try {
            Path parent = this.file.getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
        } catch (IOException e) {
            throw new StoreException("cannot create the directory of SQLite database " + this.file + ": " + e, e);
        }
        // Opening once here turns a bad path or a foreign file into an error at open, not at first use.
        try (Connection c = connect(); var st = c.createStatement()) {
            st.execute("SELECT count(*) FROM sqlite_master");
        } catch (SQLException e) {
            throw new StoreException("cannot open SQLite database " + this.file + ": " + e.getMessage(), e);
        }
    }

    private static SQLiteConfig config(int busyTimeoutMs, int cacheMb) {
        SQLiteConfig c = new SQLiteConfig();
        c.setJournalMode(SQLiteConfig.JournalMode.WAL);
        c.setSynchronous(SQLiteConfig.SynchronousMode.NORMAL);
        c.setBusyTimeout(busyTimeoutMs);
        c.setCacheSize(-cacheMb * 1024);
        c.setTempStore(SQLiteConfig.TempStore.MEMORY);
        return c;
    }

    public Path file() {
        return file;
    }

    /** SQLite is a library: it runs on BG's threads, in BG's process. */
    @Override
    public boolean inProcess() {
        return true;
    }

    @Override
    protected Connection connect() {
        return open(sessionConfig);
    }

    @Override
    protected Connection connectForLoad() {
        return open(loadConfig);
    }

    private Connection open(SQLiteConfig config) {
        try {
            return config.createConnection(url);
        } catch (SQLException e) {
            throw new StoreException("cannot open SQLite database " + file + ": " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        // Connections belong to sessions and loaders, which close them.
    }
}
