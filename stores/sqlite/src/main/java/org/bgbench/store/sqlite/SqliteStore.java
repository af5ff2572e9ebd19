package org.bgbench.store.sqlite;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicBoolean;
import org.bgbench.store.FeedDesign;
import org.bgbench.store.StoreException;
import org.bgbench.store.StoreImage;
import org.bgbench.store.relational.PhysicalDesign;
import org.bgbench.store.relational.RelationalSchema;
import org.bgbench.store.relational.RelationalStore;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteOpenMode;
import org.sqlite.jdbc4.JDBC4Connection;

/**
 * BG's Basic relational design in a SQLite file. Every session and loader owns a connection. The database runs in
 * WAL mode, so readers never wait for the writer; SQLite admits one writer at a time, so BG's writes queue on an
 * in-process lock rather than spin in SQLite's busy handler (the busy timeout still covers other processes).
 *
 * <p>The store counts the connections it has open, so {@link SqliteImage#restore()} can refuse while a session or
 * loader is open and hold new connections back while it runs.
 */
public final class SqliteStore extends RelationalStore {
    private final Path file;
    private final String url;
    private final SQLiteConfig sessionConfig;
    private final SQLiteConfig loadConfig;
    private final String design;
    private final SqliteImage image;
    private final int busyTimeoutMs;

    /** Guards {@link #openConnections} and {@link #exclusive}. */
    private final Object gate = new Object();
    /** Connections handed out by {@link #open} and not yet closed. */
    private int openConnections;
    /** Set while an image is restored: new connections wait. */
    private boolean exclusive;

    /**
     * @param file          the database file; missing parent directories are created
     * @param busyTimeoutMs how long a statement waits for a lock held by another process
     * @param cacheMb       page cache per connection
     * @param friendshipRows rows per confirmed friendship, 1 or 2
     */
    public SqliteStore(Path file, int busyTimeoutMs, int cacheMb, int friendshipRows) {
        this(file, busyTimeoutMs, cacheMb, friendshipRows, FeedDesign.PULL);
    }

    /** @param feed how feeds are served (dissertation 8.4.2) */
    public SqliteStore(Path file, int busyTimeoutMs, int cacheMb, int friendshipRows, FeedDesign feed) {
        this(file, busyTimeoutMs, cacheMb, friendshipRows, feed, PhysicalDesign.BASIC);
    }

    /** @param physical friendship tables, counts, profile images (CIKM 2013 sections C–E) */
    public SqliteStore(
            Path file, int busyTimeoutMs, int cacheMb, int friendshipRows, FeedDesign feed, PhysicalDesign physical) {
        super(new SqliteDialect(), friendshipRows, feed, physical);
        this.file = file.toAbsolutePath();
        this.url = "jdbc:sqlite:" + this.file;
        this.design = new RelationalSchema(1, friendshipRows, feed, false, physical).design();
        this.busyTimeoutMs = busyTimeoutMs;
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
        try (Connection c = connect();
                var st = c.createStatement()) {
            st.execute("SELECT count(*) FROM sqlite_master");
        } catch (SQLException e) {
            throw new StoreException("cannot open SQLite database " + this.file + ": " + e.getMessage(), e);
        }
        this.image = new SqliteImage(this);
    }

    private static SQLiteConfig config(int busyTimeoutMs, int cacheMb) {
        SQLiteConfig c = new SQLiteConfig();
        c.setJournalMode(SQLiteConfig.JournalMode.WAL);
        c.setSynchronous(SQLiteConfig.SynchronousMode.NORMAL);
        c.setBusyTimeout(busyTimeoutMs);
        c.setCacheSize(-cacheMb * 1024);
        c.setTempStore(SQLiteConfig.TempStore.MEMORY);
        // Multi-thread mode: no mutex around every call on a connection (8 % of BG's CPU in List Friends, a lock and
        // an unlock per column read). Safe because a connection is used by one thread at a time: a session's member,
        // a loader, or the store's own maintenance.
        c.setOpenMode(SQLiteOpenMode.NOMUTEX);
        return c;
    }

    public Path file() {
        return file;
    }

    /** {@code images=fs} without {@code images.dir}: {@code <file>.images}, next to the database, as the image is. */
    public static Path defaultImagesDir(Path file) {
        Path f = file.toAbsolutePath();
        return f.resolveSibling(f.getFileName() + ".images");
    }

    /** Where {@link #image()} keeps its copy: {@code <file>.image}, next to the database. */
    public Path imageFile() {
        return file.resolveSibling(file.getFileName() + ".image");
    }

    /** A copy of the loaded file, taken with {@code VACUUM INTO} and restored with SQLite's backup API. */
    @Override
    public Optional<StoreImage> image() {
        return Optional.of(image);
    }

    /**
     * The busy timeout: SQLite runs in BG's process and waits on nothing but another process's lock on the file, which
     * a statement waits for at most {@code sqlite.busy_timeout_ms}.
     */
    @Override
    public Duration callTimeout() {
        return Duration.ofMillis(busyTimeoutMs);
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
        synchronized (gate) {
            while (exclusive) {
                try {
                    gate.wait();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new StoreException("interrupted while SQLite database " + file + " was being restored");
                }
            }
            openConnections++;
        }
        try {
            return new TrackedConnection(url, file.toString(), config.toProperties(), this::released);
        } catch (SQLException e) {
            released();
            throw new StoreException("cannot open SQLite database " + file + ": " + e.getMessage(), e);
        }
    }

    private void released() {
        synchronized (gate) {
            openConnections--;
        }
    }

    /**
     * A connection for the image's own statements, outside the count that {@link #exclusively} checks; the caller
     * closes it.
     */
    Connection untrackedConnection() throws SQLException {
        return sessionConfig.createConnection(url);
    }

    /**
     * Runs {@code work} while no connection of this store is open: refuses when one is (a session, a loader or a
     * query on another thread), and holds back new ones until {@code work} returns.
     */
    void exclusively(String what, Runnable work) {
        synchronized (gate) {
            if (openConnections > 0) {
                throw new StoreException(what + " needs the SQLite database to itself: " + openConnections
                        + " connection(s) of this store are open (BG sessions, loaders or queries); close every"
                        + " session first");
            }
            exclusive = true;
        }
        try {
            work.run();
        } finally {
            synchronized (gate) {
                exclusive = false;
                gate.notifyAll();
            }
        }
    }

    /** Called after the database's contents were replaced: the schema is read again at next use. */
    void contentsReplaced() {
        forgetSchema();
    }

    /** The friendship layout and feed design this store reads, as {@code bg_meta} records them. */
    String design() {
        return design;
    }

    @Override
    public void close() {
        // Connections belong to sessions and loaders, which close them.
    }

    /** xerial's connection, reporting its first close so the store knows how many are open. */
    private static final class TrackedConnection extends JDBC4Connection {
        private final AtomicBoolean closed = new AtomicBoolean();
        private final Runnable onClose;

        TrackedConnection(String url, String fileName, Properties props, Runnable onClose) throws SQLException {
            super(url, fileName, props);
            this.onClose = onClose;
        }

        @Override
        public void close() throws SQLException {
            try {
                super.close();
            } finally {
                if (closed.compareAndSet(false, true)) {
                    onClose.run();
                }
            }
        }
    }
}
