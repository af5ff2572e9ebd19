package org.bgbench.store.hbase;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.TableNotEnabledException;
import org.apache.hadoop.hbase.TableNotFoundException;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.CheckAndMutate;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.bgbench.model.GraphSpec;
import org.bgbench.model.generator.SocialGraph;
import org.bgbench.store.DataStore;
import org.bgbench.store.ErrorText;
import org.bgbench.store.GraphLoader;
import org.bgbench.store.StateMark;
import org.bgbench.store.StoreCounts;
import org.bgbench.store.StoreException;
import org.bgbench.store.StoreImage;
import org.bgbench.store.StoreSession;

/**
 * Apache HBase through its Java client: one {@link Connection} shared by every BG thread (it is thread-safe and keeps
 * the region locations), a {@link Table} per table per session, the tables of {@link HBaseSchema}.
 */
final class HBaseStore implements DataStore {
    /** Table creation, deletion, flushes and snapshots on a busy 2-core machine take seconds each. */
    static final Duration ADMIN_TIMEOUT = Duration.ofMinutes(10);

    private final HBaseConfig config;
    private final Connection connection;
    /** Member ids are [offset, offset + members); pages' account ids follow. Read from the meta table, -1 until known. */
    private volatile int memberOffset = -1;

    private volatile int memberCount = -1;

    private HBaseStore(HBaseConfig config, Connection connection) {
        this.config = config;
        this.connection = connection;
    }

    static HBaseStore open(HBaseConfig config) {
        String where = String.join(",", config.quorum()) + " port " + config.zkPort();
        checkReachable(config, where);
        Connection c;
        try {
            c = ConnectionFactory.createConnection(configuration(config));
        } catch (IOException | RuntimeException e) {
            throw new StoreException("cannot connect to HBase through ZooKeeper at " + where + ": " + cause(e), e);
        }
        try {
            checkCluster(config, c, where);
            return new HBaseStore(config, c);
        } catch (RuntimeException e) {
            closeQuietly(c);
            throw e;
        }
    }

    /** The client's configuration: every wait bounded by {@code hbase.timeout}. */
    static Configuration configuration(HBaseConfig config) {
        Configuration conf = HBaseConfiguration.create();
        conf.set("hbase.zookeeper.quorum", String.join(",", config.quorum()));
        conf.setInt("hbase.zookeeper.property.clientPort", config.zkPort());
        long ms = config.timeout().toMillis();
        conf.setLong("hbase.client.operation.timeout", ms);
        conf.setLong("hbase.client.meta.operation.timeout", ms);
        conf.setLong("hbase.rpc.timeout", ms);
        conf.setLong("hbase.rpc.read.timeout", ms);
        conf.setLong("hbase.rpc.write.timeout", ms);
        // Retries within the operation timeout (HBase's default of 15 with growing pauses would outlast it).
        conf.setInt("hbase.client.retries.number", 5);
        conf.setLong("hbase.client.pause", 50);
        conf.setInt("zookeeper.recovery.retry", 1);
        conf.setInt("zookeeper.session.timeout", (int) Math.max(10_000, Math.min(ms, 90_000)));
        // Sessions issue one request at a time per thread; the default of 1 connection per server is shared.
        conf.setInt("hbase.client.ipc.pool.size", 2);
        return conf;
    }

    /** ZooKeeper's port, tried first: an unreachable quorum otherwise shows as minutes of client retries. */
    private static void checkReachable(HBaseConfig config, String where) {
        List<String> causes = new ArrayList<>();
        int connectMs = (int) Math.min(5000, config.timeout().toMillis());
        for (String host : config.quorum()) {
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress(host, config.zkPort()), connectMs);
                return;
            } catch (IOException e) {
                causes.add(host + ":" + config.zkPort() + " " + ErrorText.of(e));
            }
        }
        throw new StoreException("cannot reach ZooKeeper at " + where + " (" + HBaseStoreProvider.QUORUM + ", "
                + HBaseStoreProvider.ZK_PORT + "): " + String.join("; ", causes) + "; start HBase (scripts/hbase.sh "
                + "start DIR prints its quorum) or correct the settings");
    }

    /** A master that answers within the timeout, so the first action does not meet a cluster still starting. */
    private static void checkCluster(HBaseConfig config, Connection c, String where) {
        ExecutorService e = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "bg-hbase-open");
            t.setDaemon(true);
            return t;
        });
        try {
            Future<Integer> servers = e.submit(() -> {
                try (Admin admin = c.getAdmin()) {
                    return admin.getRegionServers().size();
                }
            });
            int n = servers.get(config.timeout().toMillis(), TimeUnit.MILLISECONDS);
            if (n == 0) {
                throw new StoreException("HBase at " + where + " has no live region server; wait until it has "
                        + "started (scripts/hbase.sh status DIR)");
            }
        } catch (TimeoutException t) {
            throw new StoreException(
                    "HBase at " + where + " did not answer within "
                            + config.timeout().toSeconds()
                            + " s (" + HBaseStoreProvider.TIMEOUT + "): ZooKeeper answers but no master does; is HBase "
                            + "started, and is that ZooKeeper HBase's?",
                    t);
        } catch (ExecutionException x) {
            throw new StoreException("HBase at " + where + " refused: " + cause(x.getCause()), x.getCause());
        } catch (InterruptedException x) {
            Thread.currentThread().interrupt();
            throw new StoreException("interrupted while connecting to HBase", x);
        } finally {
            e.shutdownNow();
        }
    }

    static String cause(Throwable e) {
        return ErrorText.of(e);
    }

    private static void closeQuietly(Connection c) {
        try {
            c.close();
        } catch (IOException | RuntimeException e) {
            // Failing anyway.
        }
    }

    HBaseConfig config() {
        return config;
    }

    Connection connection() {
        return connection;
    }

    TableName table(String table) {
        return HBaseSchema.name(config, table);
    }

    Table open(String table) {
        try {
            return connection.getTable(table(table));
        } catch (IOException e) {
            throw new StoreException("cannot open HBase table " + table(table) + ": " + cause(e), e);
        }
    }

    /** Runs an administrative step; failures become one line naming it. */
    <T> T admin(String what, AdminStep<T> step) {
        try (Admin admin = connection.getAdmin()) {
            return step.run(admin);
        } catch (IOException e) {
            throw new StoreException("HBase failed " + what + ": " + cause(e), e);
        }
    }

    interface AdminStep<T> {
        T run(Admin admin) throws IOException;
    }

    // ---- schema and BG's own records --------------------------------------------------------------------------------

    /** BG's tables of this configuration that are missing, by name. */
    List<String> missingTables() {
        return admin("listing tables", a -> {
            List<String> missing = new ArrayList<>();
            for (String t : HBaseSchema.tables(config)) {
                if (!a.tableExists(table(t))) {
                    missing.add(table(t).getNameAsString());
                }
            }
            return missing;
        });
    }

    /**
     * Graphs up to this many rows reuse the tables of an earlier graph as small, emptied row by row: dropping and
     * creating ten tables takes seconds each on a busy server, deleting a few thousand rows a fraction of one.
     */
    static final long SMALL_ROWS = 200_000;

    /** Rows a graph puts into the tables (members, their lists, resources, comments, pages). */
    static long rows(GraphSpec spec) {
        SocialGraph g = new SocialGraph(spec);
        return 4L * spec.members()
                + g.totalResources() * (1 + spec.commentsPerResource())
                + 2L * g.pages()
                + g.totalPageResources();
    }

    @Override
    public void createSchema(GraphSpec spec) {
        SocialGraph g = new SocialGraph(spec);
        long rows = rows(spec);
        Optional<Meta> old = meta();
        if (rows <= SMALL_ROWS
                && old.isPresent()
                && old.get().rows <= SMALL_ROWS
                && config.describe().equals(old.get().design)
                && missingTables().isEmpty()) {
            // The meta row first: an emptying cut short leaves no graph behind.
            try (Table meta = open(HBaseSchema.META)) {
                meta.delete(new Delete(HBaseSchema.META_ROW));
            } catch (IOException e) {
                throw new StoreException("cannot clear BG's meta row: " + cause(e), e);
            }
            new TableEmptier(this).empty(HBaseSchema.tables(config));
        } else {
            dropSchema();
            long resources = g.totalResources() + g.totalPageResources();
            admin("creating BG's tables", a -> {
                for (String t : HBaseSchema.tables(config)) {
                    byte[][] splits =
                            rows <= SMALL_ROWS ? null : HBaseSchema.splits(config, t, spec, resources, g.accounts());
                    if (splits == null) {
                        a.createTable(HBaseSchema.descriptor(config, t));
                    } else {
                        a.createTable(HBaseSchema.descriptor(config, t), splits);
                    }
                }
                return null;
            });
        }
        try (Table meta = open(HBaseSchema.META)) {
            meta.put(new Put(HBaseSchema.META_ROW)
                    .addColumn(HBaseSchema.M, HBaseSchema.DESIGN, Bytes.toBytes(config.describe()))
                    .addColumn(HBaseSchema.M, HBaseSchema.MEMBER_COUNT, Bytes.toBytes(spec.members()))
                    .addColumn(HBaseSchema.M, HBaseSchema.OFFSET, Bytes.toBytes(spec.memberIdOffset()))
                    .addColumn(HBaseSchema.M, HBaseSchema.ROWS, Bytes.toBytes(rows)));
        } catch (IOException e) {
            throw new StoreException("cannot write BG's meta row: " + cause(e), e);
        }
        memberOffset = spec.memberIdOffset();
        memberCount = spec.members();
    }

    @Override
    public void dropSchema() {
        admin("dropping BG's tables", a -> {
            // Every table any design creates (a store loaded with push feeds has a feeds table).
            for (String t : List.of(
                    HBaseSchema.META,
                    HBaseSchema.MEMBERS,
                    HBaseSchema.CONFIRMED,
                    HBaseSchema.PENDING,
                    HBaseSchema.WALL,
                    HBaseSchema.RESOURCES,
                    HBaseSchema.MANIPULATIONS,
                    HBaseSchema.PAGES,
                    HBaseSchema.SHARES,
                    HBaseSchema.FEEDS)) {
                TableName n = table(t);
                if (a.tableExists(n)) {
                    if (a.isTableEnabled(n)) {
                        a.disableTable(n);
                    }
                    a.deleteTable(n);
                }
            }
            return null;
        });
        memberOffset = -1;
        memberCount = -1;
    }

    /** The meta row's columns. */
    private record Meta(String graph, String mark, String design, int members, int offset, long rows) {}

    private Optional<Meta> meta() {
        boolean exists = admin("looking for BG's meta table", a -> a.tableExists(table(HBaseSchema.META)));
        if (!exists) {
            return Optional.empty();
        }
        try (Table t = open(HBaseSchema.META)) {
            Result r = t.get(new Get(HBaseSchema.META_ROW).addFamily(HBaseSchema.M));
            if (r.isEmpty()) {
                return Optional.empty();
            }
            byte[] members = r.getValue(HBaseSchema.M, HBaseSchema.MEMBER_COUNT);
            byte[] offset = r.getValue(HBaseSchema.M, HBaseSchema.OFFSET);
            byte[] rows = r.getValue(HBaseSchema.M, HBaseSchema.ROWS);
            return Optional.of(new Meta(
                    string(r.getValue(HBaseSchema.M, HBaseSchema.GRAPH)),
                    string(r.getValue(HBaseSchema.M, HBaseSchema.MARK)),
                    string(r.getValue(HBaseSchema.M, HBaseSchema.DESIGN)),
                    members == null ? -1 : Bytes.toInt(members),
                    offset == null ? -1 : Bytes.toInt(offset),
                    rows == null ? Long.MAX_VALUE : Bytes.toLong(rows)));
        } catch (TableNotFoundException | TableNotEnabledException e) {
            // Dropped (or being dropped) meanwhile by another BG process.
            return Optional.empty();
        } catch (IOException e) {
            throw new StoreException("cannot read BG's meta row: " + cause(e), e);
        }
    }

    private static String string(byte[] b) {
        return b == null ? null : Bytes.toString(b);
    }

    @Override
    public Optional<String> loadedGraph() {
        Optional<Meta> m = meta().filter(x -> config.describe().equals(x.design) && x.graph != null);
        // A table dropped by hand leaves no usable graph: BG reloads.
        return m.isPresent() && missingTables().isEmpty() ? Optional.of(m.get().graph) : Optional.empty();
    }

    @Override
    public Optional<String> stateMark() {
        return meta().map(Meta::mark);
    }

    @Override
    public void writeStateMark(String mark) {
        if (meta().isEmpty()) {
            throw new StoreException(
                    "HBase holds no BG schema under prefix " + config.prefix() + " to write the state mark into");
        }
        try (Table t = open(HBaseSchema.META)) {
            t.put(new Put(HBaseSchema.META_ROW).addColumn(HBaseSchema.M, HBaseSchema.MARK, Bytes.toBytes(mark)));
        } catch (IOException e) {
            throw new StoreException("cannot write BG's state mark: " + cause(e), e);
        }
    }

    /** HBase's check-and-mutate on the meta row: the region server checks the cell and puts under the row's lock. */
    @Override
    public boolean replaceStateMark(String expected, String mark) {
        if (meta().isEmpty()) {
            throw new StoreException(
                    "HBase holds no BG schema under prefix " + config.prefix() + " to write the state mark into");
        }
        try (Table t = open(HBaseSchema.META)) {
            return t.checkAndMutate(CheckAndMutate.newBuilder(HBaseSchema.META_ROW)
                            .ifEquals(HBaseSchema.M, HBaseSchema.MARK, Bytes.toBytes(expected))
                            .build(new Put(HBaseSchema.META_ROW)
                                    .addColumn(HBaseSchema.M, HBaseSchema.MARK, Bytes.toBytes(mark))))
                    .isSuccess();
        } catch (IOException e) {
            throw new StoreException("cannot write BG's state mark: " + cause(e), e);
        }
    }

    @Override
    public GraphLoader newLoader(SocialGraph graph) {
        return new HBaseLoader(this, graph);
    }

    @Override
    public void finishLoad(SocialGraph graph) {
        if (!config.loadWal(rows(graph.spec()))) {
            // The load skipped the write-ahead log: its data is durable once the memstores are on disk.
            flushAll();
        }
        // One row, one put: the graph and its mark change together.
        try (Table t = open(HBaseSchema.META)) {
            t.put(new Put(HBaseSchema.META_ROW)
                    .addColumn(
                            HBaseSchema.M,
                            HBaseSchema.GRAPH,
                            Bytes.toBytes(graph.spec().fingerprint()))
                    .addColumn(
                            HBaseSchema.M,
                            HBaseSchema.MARK,
                            Bytes.toBytes(
                                    StateMark.loaded(graph.spec().fingerprint()).text())));
        } catch (IOException e) {
            throw new StoreException("cannot record the loaded graph: " + cause(e), e);
        }
    }

    /** Flushes every table at once (the server runs the flushes side by side). */
    void flushAll() {
        forEachTable("flushing", HBaseSchema.tables(config), (a, t) -> a.flush(t));
    }

    interface TableStep {
        void run(Admin admin, TableName table) throws IOException;
    }

    /** Runs {@code step} on every table of {@code tables} at once, each with its own Admin; fails with the first. */
    void forEachTable(String what, List<String> tables, TableStep step) {
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<Void>> done = new ArrayList<>();
            for (String t : tables) {
                done.add(pool.submit(() -> {
                    admin(what + " " + table(t), a -> {
                        step.run(a, table(t));
                        return null;
                    });
                    return null;
                }));
            }
            for (Future<Void> f : done) {
                f.get();
            }
        } catch (ExecutionException e) {
            if (e.getCause() instanceof StoreException s) {
                throw s;
            }
            throw new StoreException("HBase failed " + what + ": " + cause(e.getCause()), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StoreException("interrupted while " + what + " BG's tables", e);
        }
    }

    @Override
    public void clearShares() {
        List<String> tables = new ArrayList<>(List.of(HBaseSchema.SHARES));
        if (config.feed().push()) {
            tables.add(HBaseSchema.FEEDS);
        }
        admin("emptying the shares", a -> {
            for (String t : tables) {
                TableName n = table(t);
                if (a.isTableEnabled(n)) {
                    a.disableTable(n);
                }
                // Keeps the regions' split points; enables the table again.
                a.truncateTable(n, true);
            }
            return null;
        });
    }

    @Override
    public StoreCounts counts() {
        if (meta().isEmpty()) {
            return StoreCounts.EMPTY;
        }
        return new HBaseCounts(this, firstPageId()).count();
    }

    @Override
    public Optional<StoreImage> image() {
        return Optional.of(new HBaseImage(this));
    }

    // ---- sessions -------------------------------------------------------------------------------------------------

    /** The first page's account id: pages follow the members. */
    int firstPageId() {
        if (memberOffset < 0) {
            Meta m = meta().orElseThrow(() -> new StoreException(
                    "HBase holds no BG schema under prefix " + config.prefix() + "; run bg load first"));
            memberOffset = m.offset;
            memberCount = m.members;
        }
        return memberOffset + memberCount;
    }

    @Override
    public StoreSession openSession() {
        int firstPage = firstPageId();
        List<String> missing = missingTables();
        if (!missing.isEmpty()) {
            throw new StoreException("HBase lacks BG's table(s) " + String.join(", ", missing) + " (prefix "
                    + config.prefix() + ", " + config.describe() + "); run bg load to create them");
        }
        return new HBaseSession(this, firstPage);
    }

    @Override
    public List<Long> localServerPids() {
        if (config.serverDir() == null) {
            return List.of();
        }
        Path pid = config.serverDir().resolve("pid");
        try {
            long p = Long.parseLong(Files.readString(pid).trim());
            return ProcessHandle.of(p).map(ProcessHandle::isAlive).orElse(false) ? List.of(p) : List.of();
        } catch (IOException | NumberFormatException e) {
            return List.of();
        }
    }

    @Override
    public Duration callTimeout() {
        return config.timeout();
    }

    @Override
    public void close() {
        try {
            connection.close();
        } catch (IOException e) {
            // Nothing left to release.
        }
    }

    static StoreException failed(String action, IOException e) {
        if (e instanceof InterruptedIOException) {
            Thread.currentThread().interrupt();
        }
        return new StoreException(action + " failed: " + cause(e), e);
    }
}
