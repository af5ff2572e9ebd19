package org.bgbench.store.cassandra;

import com.datastax.oss.driver.api.core.AllNodesFailedException;
import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.CqlIdentifier;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.DriverException;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.DriverConfigLoader;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.metadata.Node;
import com.datastax.oss.driver.api.core.metadata.schema.KeyspaceMetadata;
import com.datastax.oss.driver.api.core.metadata.schema.TableMetadata;
import com.datastax.oss.driver.api.core.servererrors.InvalidQueryException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.stream.Collectors;
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
 * Apache Cassandra through the official Java driver: one {@link CqlSession} (its connection pools are shared by every
 * BG thread), statements prepared once per consistency level, the schema of {@link CassandraSchema}.
 */
final class CassandraStore implements DataStore {
    /** Schema changes wait for every node to agree; on a busy 2-core machine that takes seconds. */
    static final Duration DDL_TIMEOUT = Duration.ofSeconds(120);
    /** The longest pause between the driver's attempts to reconnect to a node that went away. */
    static final Duration RECONNECT_MAX_DELAY = Duration.ofSeconds(2);

    private final CassandraConfig config;
    private final CqlSession session;
    private final String ks;
    private volatile Statements statements;
    private volatile Statements consistentStatements;
    /** Member ids are [offset, offset + members); pages' account ids follow. Read from bg_meta, -1 until known. */
    private volatile int memberOffset = -1;

    private volatile int memberCount = -1;

    private CassandraStore(CassandraConfig config, CqlSession session) {
        this.config = config;
        this.session = session;
        this.ks = config.keyspace();
    }

    static CassandraStore open(CassandraConfig config) {
        CqlSession session = connect(config);
        try {
            checkTopology(config, session);
            return new CassandraStore(config, session);
        } catch (RuntimeException e) {
            session.close();
            throw e;
        }
    }

    private static CqlSession connect(CassandraConfig config) {
        DriverConfigLoader loader = DriverConfigLoader.programmaticBuilder()
                .withDuration(DefaultDriverOption.REQUEST_TIMEOUT, config.timeout())
                .withString(
                        DefaultDriverOption.REQUEST_CONSISTENCY,
                        config.readConsistency().name())
                // Connecting is bounded by the request timeout too: an unreachable node fails the open in time.
                .withDuration(DefaultDriverOption.CONNECTION_CONNECT_TIMEOUT, config.timeout())
                .withDuration(DefaultDriverOption.CONNECTION_INIT_QUERY_TIMEOUT, config.timeout())
                .withDuration(DefaultDriverOption.CONTROL_CONNECTION_TIMEOUT, config.timeout())
                .withDuration(DefaultDriverOption.METADATA_SCHEMA_REQUEST_TIMEOUT, config.timeout())
                .withDuration(DefaultDriverOption.CONTROL_CONNECTION_AGREEMENT_TIMEOUT, DDL_TIMEOUT)
                // The load's batches of one partition exceed the server's batch-size warning (5 KiB by default);
                // one warning per request would flood BG's output.
                .withBoolean(DefaultDriverOption.REQUEST_LOG_WARNINGS, false)
                .withInt(DefaultDriverOption.CONNECTION_MAX_REQUESTS, 2048)
                // A node that comes back is used again within seconds: the driver's default backoff grows to 60 s
                // while it is away, which would hide a returned node (and its stale replicas) for the rest of a run.
                .withDuration(DefaultDriverOption.RECONNECTION_BASE_DELAY, Duration.ofMillis(500))
                .withDuration(DefaultDriverOption.RECONNECTION_MAX_DELAY, RECONNECT_MAX_DELAY)
                .build();
        List<InetSocketAddress> points = config.contactPoints().stream()
                .map(p -> new InetSocketAddress(p.getHostString(), p.getPort()))
                .toList();
        String where = config.contactPoints().stream()
                .map(p -> p.getHostString() + ":" + p.getPort())
                .collect(Collectors.joining(","));
        try {
            return CqlSession.builder()
                    .addContactPoints(points)
                    .withLocalDatacenter(config.datacenter())
                    .withConfigLoader(loader)
                    .build();
        } catch (AllNodesFailedException e) {
            throw new StoreException(
                    "cannot connect to Cassandra at " + where + " (" + CassandraStoreProvider.CONTACT_POINTS + "): "
                            + firstCause(e) + "; start a node (scripts/cassandra.sh start DIR prints "
                            + "its contact points) or correct the setting",
                    e);
        } catch (DriverException | IllegalArgumentException | IllegalStateException e) {
            throw new StoreException("cannot connect to Cassandra at " + where + ": " + ErrorText.of(e), e);
        }
    }

    private static String firstCause(AllNodesFailedException e) {
        for (Map.Entry<Node, List<Throwable>> entry : e.getAllErrors().entrySet()) {
            for (Throwable t : entry.getValue()) {
                return ErrorText.of(t);
            }
        }
        return ErrorText.of(e);
    }

    /** The local datacenter must exist and hold at least RF nodes: else writes fail at run time, one by one. */
    private static void checkTopology(CassandraConfig config, CqlSession session) {
        TreeSet<String> dcs = new TreeSet<>();
        int local = 0;
        for (Node n : session.getMetadata().getNodes().values()) {
            if (n.getDatacenter() != null) {
                dcs.add(n.getDatacenter());
            }
            if (config.datacenter().equals(n.getDatacenter())) {
                local++;
            }
        }
        if (local == 0) {
            throw new StoreException(CassandraStoreProvider.DATACENTER + "=" + config.datacenter() + ": the cluster "
                    + "has no node in that datacenter; its datacenters are " + dcs);
        }
        if (config.replicationFactor() > local) {
            throw new StoreException(CassandraStoreProvider.REPLICATION_FACTOR + "=" + config.replicationFactor()
                    + " is larger than the " + local + " node(s) of datacenter " + config.datacenter()
                    + ": every write would fail; use at most " + local);
        }
    }

    CassandraConfig config() {
        return config;
    }

    CqlSession cql() {
        return session;
    }

    // ---- schema and BG's own records --------------------------------------------------------------------------------

    private Optional<KeyspaceMetadata> keyspace() {
        return session.getMetadata().getKeyspace(CqlIdentifier.fromInternal(ks));
    }

    private boolean hasSchema() {
        return keyspace().flatMap(k -> k.getTable(CassandraSchema.META)).isPresent();
    }

    /** The keyspace holds exactly the tables of this configuration, replicated and durable as configured. */
    private boolean reusable(KeyspaceMetadata k) {
        Map<String, String> r = k.getReplication();
        if (!String.valueOf(config.replicationFactor()).equals(r.get(config.datacenter()))
                || !r.getOrDefault("class", "").endsWith("NetworkTopologyStrategy")
                || r.size() != 2
                || k.isDurableWrites() != config.durableWrites()) {
            return false;
        }
        List<String> want = CassandraSchema.tables(config);
        if (k.getTables().size() != want.size()) {
            return false;
        }
        for (String t : want) {
            if (k.getTable(t).isEmpty()) {
                return false;
            }
        }
        return meta().map(m -> config.describe().equals(m.design)).orElse(false);
    }

    @Override
    public void createSchema(GraphSpec spec) {
        statements = null;
        consistentStatements = null;
        Optional<KeyspaceMetadata> k = keyspace();
        if (k.isPresent() && reusable(k.get())) {
            // Same tables and options: emptying them is much faster than dropping and creating them (each schema
            // change waits for every node to agree).
            for (String t : CassandraSchema.tables(config)) {
                ddl("TRUNCATE " + ks + "." + t);
            }
            for (String t : CassandraSchema.tables(config)) {
                if (!t.equals(CassandraSchema.META)
                        && !optionsMatch(k.get().getTable(t).orElseThrow())) {
                    ddl("ALTER TABLE " + ks + "." + t + " WITH " + CassandraSchema.tableOptions(config));
                }
            }
        } else {
            ddl("DROP KEYSPACE IF EXISTS " + ks);
            ddl(CassandraSchema.createKeyspace(config));
            for (String s : CassandraSchema.create(config)) {
                ddl(s);
            }
        }
        session.execute(SimpleStatement.newInstance(
                        "INSERT INTO " + ks + "." + CassandraSchema.META
                                + " (id, design, members, member_offset) VALUES (0, ?, ?, ?)",
                        config.describe(),
                        spec.members(),
                        spec.memberIdOffset())
                .setConsistencyLevel(metaConsistency())
                .setTimeout(DDL_TIMEOUT));
        memberOffset = spec.memberIdOffset();
        memberCount = spec.members();
    }

    private boolean optionsMatch(TableMetadata t) {
        Object spec = t.getOptions().get(CqlIdentifier.fromInternal("speculative_retry"));
        Object repair = t.getOptions().get(CqlIdentifier.fromInternal("read_repair"));
        return spec != null
                && retryPolicy(spec.toString()).equals(retryPolicy(config.speculativeRetry()))
                && repair != null
                && repair.toString().equalsIgnoreCase(config.readRepair());
    }

    /** A speculative_retry value as Cassandra shows it back: NONE reads NEVER, 99PERCENTILE reads 99p. */
    static String retryPolicy(String v) {
        String u = v.trim().toUpperCase(Locale.ROOT).replace("PERCENTILE", "P");
        return u.equals("NONE") ? "NEVER" : u;
    }

    private void ddl(String cql) {
        try {
            session.execute(SimpleStatement.newInstance(cql).setTimeout(DDL_TIMEOUT));
        } catch (DriverException e) {
            throw new StoreException("Cassandra refused '" + cql + "': " + ErrorText.of(e), e);
        }
    }

    @Override
    public void dropSchema() {
        statements = null;
        consistentStatements = null;
        ddl("DROP KEYSPACE IF EXISTS " + ks);
    }

    /** bg_meta's one row. */
    private record Meta(String graph, String mark, String design, int members, int offset) {}

    private Optional<Meta> meta() {
        if (!hasSchema()) {
            return Optional.empty();
        }
        try {
            Row r = session.execute(SimpleStatement.newInstance("SELECT graph, mark, design, members, member_offset "
                                    + "FROM " + ks + "." + CassandraSchema.META + " WHERE id = 0")
                            .setConsistencyLevel(metaConsistency()))
                    .one();
            return r == null
                    ? Optional.empty()
                    : Optional.of(new Meta(r.getString(0), r.getString(1), r.getString(2), r.getInt(3), r.getInt(4)));
        } catch (InvalidQueryException e) {
            // Dropped meanwhile by another BG process.
            return Optional.empty();
        }
    }

    /** BG's own records are read and written at QUORUM: whatever one BG process wrote, the next one reads. */
    private static ConsistencyLevel metaConsistency() {
        return DefaultConsistencyLevel.QUORUM;
    }

    @Override
    public Optional<String> loadedGraph() {
        return meta().filter(m -> config.describe().equals(m.design)).map(Meta::graph);
    }

    @Override
    public Optional<String> stateMark() {
        return meta().map(Meta::mark);
    }

    /**
     * A lightweight transaction like {@link #replaceStateMark}: writes of one cell through Paxos and around it must not
     * mix (their timestamps come from different clocks), so every change of the mark after a load goes through it.
     */
    @Override
    public void writeStateMark(String mark) {
        if (!hasSchema() || !markTransaction("IF EXISTS", mark)) {
            throw new StoreException("keyspace " + ks + " holds no BG schema to write the state mark into");
        }
    }

    /** {@code UPDATE … IF mark = ?}: Paxos among the replicas decides which of many callers replaces the mark. */
    @Override
    public boolean replaceStateMark(String expected, String mark) {
        if (!hasSchema()) {
            throw new StoreException("keyspace " + ks + " holds no BG schema to write the state mark into");
        }
        return markTransaction("IF mark = ?", mark, expected);
    }

    private boolean markTransaction(String condition, Object... values) {
        return session.execute(SimpleStatement.newInstance(
                                "UPDATE " + ks + "." + CassandraSchema.META + " SET mark = ? WHERE id = 0 " + condition,
                                values)
                        .setConsistencyLevel(metaConsistency())
                        .setSerialConsistencyLevel(DefaultConsistencyLevel.SERIAL))
                .wasApplied();
    }

    @Override
    public GraphLoader newLoader(SocialGraph graph) {
        return new CassandraLoader(this, graph);
    }

    @Override
    public void finishLoad(SocialGraph graph) {
        // One row, one statement: the graph and its mark change together.
        session.execute(SimpleStatement.newInstance(
                        "UPDATE " + ks + "." + CassandraSchema.META + " SET graph = ?, mark = ? WHERE id = 0",
                        graph.spec().fingerprint(),
                        StateMark.loaded(graph.spec().fingerprint()).text())
                .setConsistencyLevel(metaConsistency()));
    }

    /** Empties one of BG's tables (on every node; no snapshot on the servers scripts/cassandra.sh starts). */
    void truncate(String table) {
        ddl("TRUNCATE " + ks + "." + table);
    }

    /** A snapshot image when BG knows the local nodes' directory ({@code cassandra.server-dir}). */
    @Override
    public Optional<StoreImage> image() {
        return config.serverDir() == null
                ? Optional.empty()
                : Optional.of(new CassandraImage(this, config.serverDir()));
    }

    @Override
    public void clearShares() {
        ddl("TRUNCATE " + ks + "." + CassandraSchema.SHARES);
        if (config.feed().push()) {
            ddl("TRUNCATE " + ks + "." + CassandraSchema.FEEDS);
        }
    }

    // ---- counts ---------------------------------------------------------------------------------------------------

    /** Exact totals, counted in parallel over token ranges by {@link CassandraCounts}. */
    @Override
    public StoreCounts counts() {
        if (!hasSchema()) {
            return StoreCounts.EMPTY;
        }
        return new CassandraCounts(session, ks, config.design(), consistentRead(), this::firstPageId).counts();
    }

    /** The element count of a serialized set (protocol v3+: a 4-byte count first); 0 for an empty or null set. */
    static int setSize(ByteBuffer b) {
        return b == null || b.remaining() < 4 ? 0 : b.getInt(b.position());
    }

    // ---- sessions -------------------------------------------------------------------------------------------------

    /** The first page's account id: pages follow the members. */
    int firstPageId() {
        if (memberOffset < 0) {
            Meta m = meta().orElseThrow(
                            () -> new StoreException("keyspace " + ks + " holds no BG schema; run bg " + "load first"));
            memberOffset = m.offset;
            memberCount = m.members;
        }
        return memberOffset + memberCount;
    }

    /**
     * The read consistency of BG's own checks: the configured one when it already overlaps every write (reads plus
     * writes reach more than RF replicas), else ALL.
     */
    ConsistencyLevel consistentRead() {
        return config.consistentReadLevel();
    }

    private Statements statements(boolean consistent) {
        Statements s = consistent ? consistentStatements : statements;
        if (s == null) {
            if (!hasSchema()) {
                throw new StoreException("keyspace " + ks + " holds no BG schema; run bg load first");
            }
            synchronized (this) {
                s = consistent ? consistentStatements : statements;
                if (s == null) {
                    s = new Statements(session, config, consistent ? consistentRead() : config.readConsistency());
                    if (consistent) {
                        consistentStatements = s;
                    } else {
                        statements = s;
                    }
                }
            }
        }
        return s;
    }

    @Override
    public StoreSession openSession() {
        return new CassandraSession(statements(false), config, firstPageId(), session);
    }

    @Override
    public StoreSession openConsistentSession() {
        return new CassandraSession(statements(true), config, firstPageId(), session);
    }

    /** Statements the loader uses: the same prepared ones as the sessions'. */
    Statements loaderStatements() {
        return statements(false);
    }

    @Override
    public List<Long> localServerPids() {
        if (config.serverDir() == null) {
            return List.of();
        }
        List<Long> pids = new ArrayList<>();
        try (var nodes = Files.list(config.serverDir().resolve("nodes"))) {
            for (Path n : nodes.sorted().toList()) {
                Path pid = n.resolve("pid");
                if (Files.isRegularFile(pid)) {
                    long p = Long.parseLong(Files.readString(pid).trim());
                    if (ProcessHandle.of(p).map(ProcessHandle::isAlive).orElse(false)) {
                        pids.add(p);
                    }
                }
            }
        } catch (IOException | NumberFormatException e) {
            return List.of();
        }
        return pids;
    }

    @Override
    public Duration callTimeout() {
        return config.timeout();
    }

    @Override
    public void close() {
        session.close();
    }

    /** The value of a finished stage; the driver's own exception (not a CompletionException) when it failed. */
    static <T> T join(CompletionStage<T> stage) {
        try {
            return stage.toCompletableFuture().join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw e;
        }
    }
}
