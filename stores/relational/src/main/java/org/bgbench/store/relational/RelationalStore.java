package org.bgbench.store.relational;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;
import org.bgbench.model.GraphSpec;
import org.bgbench.model.generator.SocialGraph;
import org.bgbench.store.DataStore;
import org.bgbench.store.ErrorText;
import org.bgbench.store.FeedDesign;
import org.bgbench.store.FinishProgress;
import org.bgbench.store.GraphLoader;
import org.bgbench.store.StateMark;
import org.bgbench.store.StoreCounts;
import org.bgbench.store.StoreException;
import org.bgbench.store.StoreSession;

/**
 * A SQL store with BG's Basic relational design (see {@link RelationalSchema}); subclasses supply connections and a
 * {@link SqlDialect}. The graph's fingerprint is written to {@code bg_meta} only by {@link #finishLoad}, so an
 * interrupted load is never mistaken for a complete one. BG's state mark ({@link org.bgbench.store.StateMark}) is the
 * {@code bg_meta} row with key {@code state}: a load writes {@code loaded:<fingerprint>} in the same transaction as
 * the fingerprint, dropping or recreating the schema removes it, and a database image carries it.
 */
public abstract class RelationalStore implements DataStore {
    private static final String FINGERPRINT = "fingerprint";
    private static final String DESIGN = "design";
    private static final String STATE = "state";

    protected final SqlDialect dialect;
    private final int friendshipRows;
    private final FeedDesign feed;
    private final PhysicalDesign physical;
    /** {@code images=fs}: the profile image files; null when images are inline. */
    private final ImageFiles images;
    /** Serialises writers in process for single-writer engines; null otherwise. */
    private final ReentrantLock writeLock;

    private volatile RelationalSchema schema;
    /** Sessions opened so far: session i reads from replica i mod n. */
    private final AtomicInteger sessions = new AtomicInteger();

    /**
     * @param friendshipRows rows per confirmed friendship, 1 (USC BG's Basic) or 2
     */
    protected RelationalStore(SqlDialect dialect, int friendshipRows) {
        this(dialect, friendshipRows, FeedDesign.PULL);
    }

    /**
     * @param friendshipRows rows per confirmed friendship, 1 (USC BG's Basic) or 2
     * @param feed           how feeds are served (dissertation 8.4.2)
     */
    protected RelationalStore(SqlDialect dialect, int friendshipRows, FeedDesign feed) {
        this(dialect, friendshipRows, feed, PhysicalDesign.BASIC);
    }

    /** @param physical friendship tables, counts, profile images (CIKM 2013 sections C–E) */
    protected RelationalStore(SqlDialect dialect, int friendshipRows, FeedDesign feed, PhysicalDesign physical) {
        this.dialect = dialect;
        this.friendshipRows = friendshipRows;
        this.feed = feed;
        this.physical = physical;
        this.images = physical.imagesInFiles() ? new ImageFiles(physical.imagesDir()) : null;
        this.writeLock = dialect.singleWriter() ? new ReentrantLock() : null;
    }

    /**
     * A connection in autocommit mode, new or from a pool; the caller closes it. Fails with a {@link StoreException}
     * whose message says what went wrong.
     */
    protected abstract Connection connect();

    /** A connection for one loading thread; by default the same as {@link #connect()}. */
    protected Connection connectForLoad() {
        return connect();
    }

    /**
     * A connection in autocommit mode to the read replica of session {@code session} (the i-th session this store
     * opened), new or from a pool; the caller closes it. By default none (null): every read on the primary. Fails with
     * a {@link StoreException} whose message names the replica's URL.
     */
    protected Connection connectForRead(int session) {
        return null;
    }

    /** The store's read replicas and the read actions routed to them; by default none. */
    protected ReadReplicas readReplicas() {
        return ReadReplicas.NONE;
    }

    /** The number of the next session, from 0: which replica it reads from. */
    protected final int nextSession() {
        return sessions.getAndIncrement();
    }

    /** Turns a failed statement into the exception users see; dialects may add advice. */
    protected StoreException failure(String what, SQLException e) {
        return new StoreException(what + " failed on " + dialect.name() + ": " + ErrorText.message(e), e);
    }

    @Override
    public Optional<String> loadedGraph() {
        try (Connection c = connect()) {
            if (!tableExists(c, RelationalSchema.META)) {
                return Optional.empty();
            }
            String fingerprint = null;
            String design = null;
            try (Statement s = c.createStatement();
                    ResultSet rs = s.executeQuery("SELECT \"key\", value FROM bg_meta")) {
                while (rs.next()) {
                    switch (rs.getString(1)) {
                        case FINGERPRINT -> fingerprint = rs.getString(2);
                        case DESIGN -> design = rs.getString(2);
                        default -> {}
                    }
                }
            }
            // A graph loaded with another friendship layout or feed design would answer wrongly under this one (a
            // push feed loaded for pull holds no feed rows for its shares): treat as absent.
            if (fingerprint == null || !recordedDesign().equals(design)) {
                return Optional.empty();
            }
            // images=fs: the files are part of the graph; a directory that does not hold them all means reload.
            if (images != null && !images.holds(fingerprint)) {
                return Optional.empty();
            }
            return Optional.of(fingerprint);
        } catch (SQLException e) {
            throw failure("reading the loaded graph's fingerprint", e);
        }
    }

    /** The design this store records in {@code bg_meta} and reads: friendship layout, physical and feed design. */
    public String recordedDesign() {
        return new RelationalSchema(1, friendshipRows, feed, false, physical).design();
    }

    public FeedDesign feedDesign() {
        return feed;
    }

    public PhysicalDesign physicalDesign() {
        return physical;
    }

    private boolean tableExists(Connection c, String table) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(dialect.tableExistsQuery())) {
            ps.setString(1, table);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        }
    }

    @Override
    public void createSchema(GraphSpec spec) {
        RelationalSchema s =
                new RelationalSchema(spec.attributeCount(), friendshipRows, feed, dialect.lateralJoins(), physical);
        if (images != null) {
            // Files are about to be rewritten: until finishLoad the directory vouches for no graph.
            images.forget();
        }
        List<String> ddl = new ArrayList<>(drops());
        ddl.addAll(s.createStatements(dialect));
        execute("creating the BG schema", ddl);
        schema = s;
    }

    @Override
    public void dropSchema() {
        execute("dropping the BG schema", drops());
        schema = null;
    }

    private static List<String> drops() {
        return RelationalSchema.TABLES.stream()
                .map(t -> "DROP TABLE IF EXISTS " + t)
                .toList();
    }

    /** Runs {@code statements} in order on one connection, under the write lock when there is one. */
    private void execute(String what, List<String> statements) {
        execute(what, statements, null);
    }

    /** Runs {@code statements} in order on one connection, telling {@code weights} (when not null) of each one done. */
    private void execute(String what, List<String> statements, FinishWeights weights) {
        lock();
        try (Connection c = connect();
                Statement st = c.createStatement()) {
            for (String sql : statements) {
                try {
                    st.execute(sql);
                } catch (SQLException e) {
                    throw failure(what + " (" + sql + ")", e);
                }
                if (weights != null) {
                    weights.done(sql);
                }
            }
        } catch (SQLException e) {
            throw failure(what, e);
        } finally {
            unlock();
        }
    }

    @Override
    public GraphLoader newLoader(SocialGraph graph) {
        RelationalSchema s = schema();
        Connection c = connectForLoad();
        try {
            return new RelationalLoader(graph, dialect.openSink(c, s), writeLock, s, images);
        } catch (SQLException e) {
            try {
                c.close();
            } catch (SQLException ignored) {
                // Reporting the first failure matters more.
            }
            throw failure("opening a loader", e);
        }
    }

    @Override
    public void finishLoad(SocialGraph graph) {
        finishLoad(graph, FinishProgress.NONE);
    }

    /** Keys, indexes and statistics ({@link SqlDialect#afterLoad}), the share done weighed by the rows each touches. */
    @Override
    public void finishLoad(SocialGraph graph, FinishProgress progress) {
        RelationalSchema s = schema();
        List<List<String>> groups = dialect.afterLoad(s);
        int threads = Math.max(1, Math.min(dialect.afterLoadParallelism(), groups.size()));
        FinishWeights weights = new FinishWeights(graph, s.friendshipRows(), groups, progress);
        if (threads == 1) {
            List<String> all = new ArrayList<>();
            groups.forEach(all::addAll);
            execute("building indexes", all, weights);
        } else {
            ExecutorService pool = Executors.newFixedThreadPool(
                    threads, Thread.ofPlatform().name("bg-index-", 0).factory());
            try {
                List<Future<?>> done = new ArrayList<>();
                for (List<String> group : groups) {
                    done.add(pool.submit(() -> execute("building indexes", group, weights)));
                }
                for (Future<?> f : done) {
                    f.get();
                }
            } catch (ExecutionException e) {
                throw e.getCause() instanceof StoreException se
                        ? se
                        : new StoreException("building indexes failed: " + e.getCause(), e.getCause());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new StoreException("interrupted while building indexes");
            } finally {
                pool.shutdownNow();
            }
        }
        if (images != null) {
            // Every loader has closed, so every file is written: vouch for them before the fingerprint is recorded.
            images.vouch(graph.spec().fingerprint());
        }
        recordGraph(graph.spec().fingerprint(), s.design());
    }

    private void recordGraph(String fingerprint, String design) {
        lock();
        try (Connection c = connect()) {
            c.setAutoCommit(false);
            try (Statement st = c.createStatement();
                    PreparedStatement ins = c.prepareStatement("INSERT INTO bg_meta (\"key\", value) VALUES (?, ?)")) {
                st.executeUpdate("DELETE FROM bg_meta");
                ins.setString(1, FINGERPRINT);
                ins.setString(2, fingerprint);
                ins.addBatch();
                ins.setString(1, DESIGN);
                ins.setString(2, design);
                ins.addBatch();
                ins.setString(1, STATE);
                ins.setString(2, StateMark.loaded(fingerprint).text());
                ins.addBatch();
                ins.executeBatch();
                c.commit();
            } catch (SQLException e) {
                c.rollback();
                throw e;
            } finally {
                c.setAutoCommit(true);
            }
        } catch (SQLException e) {
            throw failure("recording the loaded graph", e);
        } finally {
            unlock();
        }
    }

    @Override
    public Optional<String> stateMark() {
        try (Connection c = connect()) {
            if (!tableExists(c, RelationalSchema.META)) {
                return Optional.empty();
            }
            try (PreparedStatement ps = c.prepareStatement("SELECT value FROM bg_meta WHERE \"key\" = ?")) {
                ps.setString(1, STATE);
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next() ? Optional.ofNullable(rs.getString(1)) : Optional.empty();
                }
            }
        } catch (SQLException e) {
            throw failure("reading BG's state mark", e);
        }
    }

    /** Replaces the {@code state} row of {@code bg_meta} in one transaction, under the write lock when there is one. */
    @Override
    public void writeStateMark(String mark) {
        lock();
        try (Connection c = connect()) {
            if (!tableExists(c, RelationalSchema.META)) {
                throw new StoreException(dialect.name() + " holds no BG schema; cannot record BG's state mark");
            }
            c.setAutoCommit(false);
            try (PreparedStatement del = c.prepareStatement("DELETE FROM bg_meta WHERE \"key\" = ?");
                    PreparedStatement ins = c.prepareStatement("INSERT INTO bg_meta (\"key\", value) VALUES (?, ?)")) {
                del.setString(1, STATE);
                del.executeUpdate();
                ins.setString(1, STATE);
                ins.setString(2, mark);
                ins.executeUpdate();
                c.commit();
            } catch (SQLException e) {
                c.rollback();
                throw e;
            } finally {
                c.setAutoCommit(true);
            }
        } catch (SQLException e) {
            throw failure("recording BG's state mark", e);
        } finally {
            unlock();
        }
    }

    /**
     * One conditional {@code UPDATE} of the {@code state} row: every engine takes the row's write lock and checks the
     * old value under it (a waiting update sees the committed value), so of many that expect one mark one succeeds.
     */
    @Override
    public boolean replaceStateMark(String expected, String mark) {
        lock();
        try (Connection c = connect()) {
            if (!tableExists(c, RelationalSchema.META)) {
                throw new StoreException(dialect.name() + " holds no BG schema; cannot record BG's state mark");
            }
            try (PreparedStatement ps =
                    c.prepareStatement("UPDATE bg_meta SET value = ? WHERE \"key\" = ? AND value = ?")) {
                ps.setString(1, mark);
                ps.setString(2, STATE);
                ps.setString(3, expected);
                return ps.executeUpdate() == 1;
            }
        } catch (SQLException e) {
            throw failure("recording BG's state mark", e);
        } finally {
            unlock();
        }
    }

    @Override
    public StoreCounts counts() {
        RelationalSchema s = schema();
        try (Connection c = connect();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(s.counts)) {
            rs.next();
            long pageResources = rs.getLong(8);
            // resources stays the members' resources, what the generator's totalResources counts.
            return new StoreCounts(
                    new StoreCounts.Social(
                            rs.getLong(1),
                            rs.getLong(2) / s.friendshipRows(),
                            rs.getLong(3),
                            rs.getLong(4) - pageResources,
                            rs.getLong(5)),
                    new StoreCounts.Feed(rs.getLong(6), rs.getLong(7), pageResources, rs.getLong(9)));
        } catch (SQLException e) {
            throw failure("counting rows", e);
        }
    }

    /** Deletes every share, its recipients and, with a push feed, every feed row, in one transaction. */
    @Override
    public void clearShares() {
        RelationalSchema s = schema();
        List<String> deletes = new ArrayList<>();
        if (s.feed().push()) {
            deletes.add("DELETE FROM " + RelationalSchema.NEWSFEED);
        }
        deletes.add("DELETE FROM " + RelationalSchema.SHARE_RECIPIENTS);
        deletes.add("DELETE FROM " + RelationalSchema.SHARES);
        lock();
        try (Connection c = connect()) {
            c.setAutoCommit(false);
            try (Statement st = c.createStatement()) {
                for (String sql : deletes) {
                    st.executeUpdate(sql);
                }
                c.commit();
            } catch (SQLException | RuntimeException e) {
                c.rollback();
                throw e;
            } finally {
                c.setAutoCommit(true);
            }
        } catch (SQLException e) {
            throw failure("clearing the shares", e);
        } finally {
            unlock();
        }
    }

    /** A session on the primary, whose routed read actions go to its read replica when the store has replicas. */
    @Override
    public StoreSession openSession() {
        RelationalSchema s = schema();
        ReadReplicas replicas = readReplicas();
        if (!replicas.routes()) {
            return new RelationalSession(connect(), s, writeLock);
        }
        int session = nextSession();
        Connection c = connect();
        Connection read;
        try {
            read = connectForRead(session);
        } catch (RuntimeException e) {
            try {
                c.close();
            } catch (SQLException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
        return new RelationalSession(c, read, replicas.actions(), s, writeLock);
    }

    /** A session whose every statement runs on the primary. */
    @Override
    public StoreSession openConsistentSession() {
        return new RelationalSession(connect(), schema(), writeLock);
    }

    /** The schema created by this store, or the one found in the database (its attribute columns counted). */
    protected RelationalSchema schema() {
        RelationalSchema s = schema;
        if (s != null) {
            return s;
        }
        synchronized (this) {
            if (schema == null) {
                try (Connection c = connect();
                        Statement st = c.createStatement();
                        ResultSet rs = st.executeQuery("SELECT * FROM members WHERE 1 = 0")) {
                    // userid, the attributes, pic (or picpath), tpic, and the counts with counts=attributes
                    int extra = 1 + new RelationalSchema(1, friendshipRows, feed, false, physical).memberExtraColumns();
                    schema = new RelationalSchema(
                            rs.getMetaData().getColumnCount() - extra,
                            friendshipRows,
                            feed,
                            dialect.lateralJoins(),
                            physical,
                            dialect.textAsUtf8Bytes());
                } catch (SQLException e) {
                    throw new StoreException(
                            dialect.name() + " holds no BG schema (" + e.getMessage() + "); load a graph first", e);
                }
            }
            return schema;
        }
    }

    /** Drops the cached schema so the next use reads it from the database, e.g. after its contents were replaced. */
    protected void forgetSchema() {
        schema = null;
    }

    private void lock() {
        if (writeLock != null) {
            writeLock.lock();
        }
    }

    private void unlock() {
        if (writeLock != null) {
            writeLock.unlock();
        }
    }
}
