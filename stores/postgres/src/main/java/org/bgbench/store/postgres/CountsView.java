package org.bgbench.store.postgres;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;
import org.bgbench.model.Durations;
import org.bgbench.store.StoreException;
import org.bgbench.store.relational.RelationalSchema;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The materialized-view design of [CIKM section E.1] ({@code postgres.design=matview}): View Profile reads a member's friend,
 * pending and resource counts from {@code bg_profile_counts}, a PostgreSQL MATERIALIZED VIEW over {@code friendship}
 * and {@code resources} with one row per member, instead of counting them.
 *
 * <p>Every refresh, wherever it runs, is {@code REFRESH MATERIALIZED VIEW CONCURRENTLY} (readers are never blocked;
 * the unique index on {@code userid} makes it possible) inside a transaction that first takes a transaction-level
 * advisory lock ({@link #LOCK}). The lock orders the refreshes of all BG processes on the database, and because the
 * refresh is the next statement of a READ COMMITTED transaction its snapshot is taken after the lock is granted, so
 * it sees every refresh (and every write) that committed before: a refresh that waited can never write back counts
 * older than the ones it waited for.
 *
 * <p>With {@code postgres.refresh=sync} every count-changing write refreshes the view inside its own transaction
 * ({@link MatviewSession}); with an interval this class runs the refresher thread. It also prepares the view (creates,
 * populates, indexes or refreshes it) after a load, after an image restore and before the first session of a store.
 */
final class CountsView implements AutoCloseable {
    static final String NAME = "bg_profile_counts";
    /** Transaction-level advisory lock ("BGMV") held by every refresh; advisory locks are per database. */
    static final String LOCK = "SELECT pg_advisory_xact_lock(" + 0x42474D56L + ")";

    static final String REFRESH = "REFRESH MATERIALIZED VIEW CONCURRENTLY " + NAME;
    static final String DROP = "DROP MATERIALIZED VIEW IF EXISTS " + NAME;
    private static final String INDEX =
            "CREATE UNIQUE INDEX IF NOT EXISTS " + NAME + "_userid ON " + NAME + " (userid)";
    private static final String STATUS =
            "SELECT c.relispopulated, EXISTS (SELECT 1 FROM pg_index i WHERE i.indrelid = c.oid"
                    + " AND i.indisunique AND i.indisvalid) FROM pg_class c WHERE c.oid = to_regclass('" + NAME + "')"
                    + " AND c.relkind = 'm'";
    private static final Logger LOG = LoggerFactory.getLogger(CountsView.class);

    private final int friendshipRows;
    /** {@code friendship.tables=2}: the view counts {@code friends} and {@code pending}, not {@code friendship}. */
    private final boolean twoTables;

    private final Duration interval;
    private final Supplier<Connection> pooled;
    private final Supplier<Connection> direct;
    /** Held by each background refresh and by a pause; guards {@link #connection} and {@link #failing}. */
    private final ReentrantLock lock = new ReentrantLock();

    private final Object preparing = new Object();
    private final ScheduledExecutorService timer;
    private final AtomicLong refreshes = new AtomicLong();
    private final AtomicLong failures = new AtomicLong();
    private final AtomicLong warnings = new AtomicLong();
    /** Whether this store made sure the view exists, is populated and is fresh since the schema was (re)created. */
    private volatile boolean ready;

    private volatile boolean closed;
    private volatile Statement running;
    private Connection connection;
    private boolean failing;

    /**
     * @param friendshipRows rows per confirmed friendship, 1 or 2
     * @param twoTables      confirmed and pending friendships in two tables ({@code friendship.tables=2})
     * @param interval       background refresh interval; null: writes refresh synchronously, no thread
     * @param pooled         the store's session connections, for preparing the view
     * @param direct         a connection of the refresher's own (outside the pool, which sessions may fill)
     */
    CountsView(
            int friendshipRows,
            boolean twoTables,
            Duration interval,
            Supplier<Connection> pooled,
            Supplier<Connection> direct) {
        this.friendshipRows = friendshipRows;
        this.twoTables = twoTables;
        this.interval = interval;
        this.pooled = pooled;
        this.direct = direct;
        if (interval == null) {
            timer = null;
        } else {
            timer = Executors.newSingleThreadScheduledExecutor(
                    Thread.ofPlatform().daemon().name("bg-matview-refresh").factory());
            long nanos = interval.toNanos();
            // At a fixed rate, a write waits at most one interval plus one refresh before a refresh that sees it ends.
            timer.scheduleAtFixedRate(this::refreshInBackground, nanos, nanos, TimeUnit.NANOSECONDS);
        }
    }

    /** Whether writes refresh the view before they return. */
    boolean synchronous() {
        return interval == null;
    }

    /** The view over the loaded tables, created empty ({@code WITH NO DATA}) and populated by {@link #prepare}. */
    String createStatement() {
        String confirmed = twoTables ? "FROM friends" : "FROM friendship WHERE status = " + RelationalSchema.CONFIRMED;
        String a = twoTables ? "frdid1" : "inviterid";
        String b = twoTables ? "frdid2" : "inviteeid";
        // One row per friendship: a member's friends are on either side of it; two rows: on the inviter side.
        String friends = friendshipRows == 1
                ? "SELECT id, count(*) AS n FROM (SELECT " + a + " AS id " + confirmed + " UNION ALL SELECT " + b + " "
                        + confirmed + ") c GROUP BY id"
                : "SELECT " + a + " AS id, count(*) AS n " + confirmed + " GROUP BY " + a;
        String pending = twoTables ? "FROM pending" : "FROM friendship WHERE status = " + RelationalSchema.PENDING;
        return "CREATE MATERIALIZED VIEW " + NAME + " AS SELECT m.userid,"
                + " coalesce(f.n, 0)::int AS friendcount,"
                + " coalesce(p.n, 0)::int AS pendingcount,"
                + " coalesce(r.n, 0)::int AS resourcecount"
                + " FROM members m"
                + " LEFT JOIN (" + friends + ") f ON f.id = m.userid"
                + " LEFT JOIN (SELECT inviteeid AS id, count(*) AS n " + pending + " GROUP BY inviteeid) p"
                + " ON p.id = m.userid"
                + " LEFT JOIN (SELECT walluserid AS id, count(*) AS n FROM resources GROUP BY walluserid) r"
                + " ON r.id = m.userid"
                + " WITH NO DATA";
    }

    /** View Profile on the view: the attributes and image from {@code members}, the counts from the view. */
    static String viewProfile(RelationalSchema schema, boolean own) {
        return "SELECT " + schema.attributeList("m.") + ", m." + schema.profileImageColumn()
                + ", v.friendcount, v.resourcecount"
                + (own ? ", v.pendingcount" : "") + " FROM members m JOIN " + NAME + " v ON v.userid = m.userid"
                + " WHERE m.userid = ?";
    }

    /** The schema is being dropped or recreated: no background refresh until the view is prepared again. */
    void invalidate() {
        lock.lock();
        try {
            ready = false;
        } finally {
            lock.unlock();
        }
    }

    /** Prepares the view once for this store's sessions (see {@link #prepare}); later calls return at once. */
    void ensureReady() {
        if (ready) {
            return;
        }
        synchronized (preparing) {
            if (!ready) {
                prepare();
            }
        }
    }

    /**
     * Makes the view match the tables: creates it if it is missing (a graph loaded with the basic design), populates
     * it if it is empty (after a load), adds its unique index, or refreshes it (it may be stale: an image saved while
     * an interval refresh was pending, or writes made under the basic design).
     */
    void prepare() {
        try (Connection c = pooled.get()) {
            c.setAutoCommit(false);
            try (Statement st = c.createStatement()) {
                st.execute(LOCK);
                boolean exists = false;
                boolean populated = false;
                boolean indexed = false;
                try (ResultSet rs = st.executeQuery(STATUS)) {
                    if (rs.next()) {
                        exists = true;
                        populated = rs.getBoolean(1);
                        indexed = rs.getBoolean(2);
                    }
                }
                if (!exists) {
                    st.execute(createStatement());
                }
                if (populated && indexed) {
                    st.execute(REFRESH);
                } else {
                    st.execute("REFRESH MATERIALIZED VIEW " + NAME);
                    st.execute(INDEX);
                    st.execute("ANALYZE " + NAME);
                }
                c.commit();
            } catch (SQLException | RuntimeException e) {
                c.rollback();
                throw e;
            } finally {
                c.setAutoCommit(true);
            }
        } catch (SQLException e) {
            throw new StoreException("preparing the materialized view " + NAME + " failed: " + e.getMessage(), e);
        }
        ready = true;
    }

    /**
     * Stops background refreshes and closes the refresher's connection until the returned handle is closed, so an
     * image can copy the database (which needs it without other connections). Waits for a running refresh.
     */
    Paused pause() {
        lock.lock();
        closeConnection();
        return lock::unlock;
    }

    /** A pause of the refresher; closing it resumes refreshes. */
    interface Paused extends AutoCloseable {
        @Override
        void close();
    }

    private void refreshInBackground() {
        lock.lock();
        try {
            if (!ready || closed) {
                return;
            }
            if (connection == null) {
                connection = direct.get();
            }
            refresh(connection);
            refreshes.incrementAndGet();
            if (failing) {
                failing = false;
                LOG.info(
                        "postgres.refresh: refreshing {} works again after {} failed attempt(s)", NAME, failures.get());
            }
        } catch (Exception e) {
            closeConnection();
            if (closed) {
                return;
            }
            failures.incrementAndGet();
            // Logged once per outage; the next tick retries on a new connection.
            if (!failing) {
                failing = true;
                warnings.incrementAndGet();
                LOG.warn(
                        "postgres.refresh: refreshing {} failed, retrying every {} (VP counts stay stale until it "
                                + "works): {}",
                        NAME,
                        Durations.format(interval),
                        e.getMessage());
            }
        } finally {
            lock.unlock();
        }
    }

    private void refresh(Connection c) throws SQLException {
        c.setAutoCommit(false);
        try (Statement st = c.createStatement()) {
            running = st;
            st.execute(LOCK);
            st.execute(REFRESH);
            c.commit();
        } catch (SQLException | RuntimeException e) {
            try {
                c.rollback();
            } catch (SQLException ignored) {
                // The connection is dropped anyway; the original failure is what counts.
            }
            throw e;
        } finally {
            running = null;
        }
    }

    private void closeConnection() {
        Connection c = connection;
        connection = null;
        if (c != null) {
            try {
                c.close();
            } catch (SQLException ignored) {
                // A broken connection fails to close; nothing depends on it.
            }
        }
    }

    /** Background refreshes that completed. */
    long refreshes() {
        return refreshes.get();
    }

    /** Background refreshes that failed. */
    long failures() {
        return failures.get();
    }

    /** Warnings logged about failing refreshes: one per run of consecutive failures. */
    long warnings() {
        return warnings.get();
    }

    /** Stops the refresher thread, cancelling a refresh in progress. */
    @Override
    public void close() {
        closed = true;
        if (timer == null) {
            return;
        }
        timer.shutdownNow();
        Statement st = running;
        if (st != null) {
            try {
                st.cancel();
            } catch (SQLException ignored) {
                // It ends when its connection closes.
            }
        }
        try {
            if (!timer.awaitTermination(10, TimeUnit.SECONDS)) {
                LOG.warn("postgres.refresh: the refresher thread did not stop within 10 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (lock.tryLock()) {
            try {
                closeConnection();
            } finally {
                lock.unlock();
            }
        }
    }
}
