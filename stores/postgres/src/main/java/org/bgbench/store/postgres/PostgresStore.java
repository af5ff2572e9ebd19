package org.bgbench.store.postgres;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import org.bgbench.model.GraphSpec;
import org.bgbench.model.generator.SocialGraph;
import org.bgbench.store.FinishProgress;
import org.bgbench.store.StoreException;
import org.bgbench.store.StoreImage;
import org.bgbench.store.StoreSession;
import org.bgbench.store.relational.ReadReplicas;
import org.bgbench.store.relational.RelationalSchema;
import org.bgbench.store.relational.RelationalSession;
import org.bgbench.store.relational.RelationalStore;

/**
 * BG's Basic relational design on PostgreSQL: sessions borrow a connection from a HikariCP pool for their whole life
 * ({@link PostgresPools}), loaders stream COPY on connections of their own, and an embedded mode starts a throwaway
 * server ({@link EmbeddedServer}). With {@link Design#MATVIEW} View Profile reads its counts from a materialized view
 * instead ({@link CountsView}). Settings: {@link PostgresConfig}.
 */
public final class PostgresStore extends RelationalStore {
    private final PostgresPools pools;
    private final Target target;
    private final EmbeddedServer embedded;
    private final Duration timeout;
    private final PostgresImage image;
    /** The materialized view of the counts; null with the basic design. */
    private final CountsView view;
    /** The read replicas ({@code postgres.read-urls}) and the read actions routed to them. */
    private final ReadReplicas replicas;

    /** How View Profile gets a member's counts. */
    public enum Design {
        /** Aggregate queries over the tables at every VP (USC BG's Basic design). */
        BASIC,
        /** A materialized view of the counts, refreshed by the writes or by a background thread [CIKM section E.1]. */
        MATVIEW
    }

    private PostgresStore(
            PostgresDialect dialect, PostgresConfig config, PostgresPools pools, EmbeddedServer embedded) {
        super(
                dialect,
                config.designs().friendshipRows(),
                config.designs().feed(),
                config.designs().physical());
        this.pools = pools;
        this.target = pools.target();
        this.replicas = config.replicas();
        this.timeout = config.timeout();
        this.embedded = embedded;
        this.image = new PostgresImage(this, pools.pool(), target, pools.loadProperties());
        PostgresConfig.Designs d = config.designs();
        this.view = d.view() == Design.MATVIEW
                ? new CountsView(
                        d.friendshipRows(),
                        d.physical().twoTables(),
                        d.refresh(),
                        this::connect,
                        () -> pools.connectAs("bg-matview-refresh"))
                : null;
    }

    /** Connects (starting the embedded server first if asked); fails with a message naming what went wrong. */
    public static PostgresStore open(PostgresConfig config) {
        PostgresConfig.Server s = config.server();
        EmbeddedServer server = s.embedded() ? EmbeddedServer.start() : null;
        try {
            String url = server != null ? server.url() : s.url();
            String user = server != null || s.user() == null ? "postgres" : s.user();
            String password = server != null ? null : s.password();
            PostgresPools.Opened opened = PostgresPools.open(config, url, user, password);
            return new PostgresStore(new PostgresDialect(opened.serverVersion()), config, opened.pools(), server);
        } catch (RuntimeException e) {
            if (server != null) {
                server.close();
            }
            throw e;
        }
    }

    @Override
    protected Connection connect() {
        return pools.connect();
    }

    /**
     * A pooled connection to the replica of session {@code session} (i mod n). The first one waits until every replica
     * has replayed the primary's WAL as it was then (at most {@code postgres.timeout} plus the apply delay), so a run
     * starts on replicas that hold the graph just loaded; a replica that does not catch up in time is logged.
     */
    @Override
    protected Connection connectForRead(int session) {
        if (!pools.replicasCaughtUp()) {
            awaitReplicas();
        }
        return pools.connectToReplica(replicas.replicaOf(session));
    }

    private void awaitReplicas() {
        pools.awaitReplicas();
    }

    @Override
    protected ReadReplicas readReplicas() {
        return replicas;
    }

    @Override
    protected Connection connectForLoad() {
        return pools.connectForLoad();
    }

    @Override
    protected StoreException failure(String what, SQLException e) {
        return new StoreException(what + " failed: " + target.describe(e), e);
    }

    /** The JDBC URL in use (the embedded server's when embedded). */
    public String url() {
        return target.url();
    }

    /** Size of the session connection pool. */
    public int poolSize() {
        return pools.poolSize();
    }

    /** How View Profile gets the counts. */
    public Design design() {
        return view == null ? Design.BASIC : Design.MATVIEW;
    }

    /** The materialized view of the matview design; null with the basic design. */
    CountsView countsView() {
        return view;
    }

    @Override
    public void createSchema(GraphSpec spec) {
        if (view != null) {
            view.invalidate();
        }
        // The view depends on the tables: drop it first under either design, so a basic load can replace a matview one.
        execute("dropping the materialized view", CountsView.DROP);
        super.createSchema(spec);
        if (view != null) {
            execute("creating the materialized view", view.createStatement());
        }
    }

    @Override
    public void dropSchema() {
        if (view != null) {
            view.invalidate();
        }
        execute("dropping the materialized view", CountsView.DROP);
        super.dropSchema();
    }

    /** Builds keys and indexes and records the graph (as the Basic design), then populates and indexes the view. */
    @Override
    public void finishLoad(SocialGraph graph, FinishProgress progress) {
        super.finishLoad(graph, progress);
        if (view != null) {
            view.prepare();
        }
    }

    /**
     * A session with the store's timeouts ({@link PostgresSession}) on a pooled connection. With the matview design,
     * the first session of the store makes sure the view exists and is fresh.
     */
    @Override
    public StoreSession openSession() {
        RelationalSchema s = schema();
        if (view != null) {
            view.ensureReady();
        }
        boolean sync = view != null && view.synchronous();
        Supplier<Connection> reads = null;
        if (replicas.routes()) {
            int session = nextSession();
            reads = () -> connectForRead(session);
        }
        int readMillis =
                (int) Math.min(Integer.MAX_VALUE, timeout.plusSeconds(1).toMillis());
        return new PostgresSession(
                this::connect,
                reads,
                (c, r) -> view == null
                        ? new RelationalSession(c, r, replicas.actions(), s, null)
                        : new MatviewSession(c, r, replicas.actions(), s, sync),
                timeout.toMillis(),
                readMillis);
    }

    /** A session with the store's timeouts whose every statement runs on the primary, for BG's checks. */
    @Override
    public StoreSession openConsistentSession() {
        RelationalSchema s = schema();
        if (view != null) {
            view.ensureReady();
        }
        boolean sync = view != null && view.synchronous();
        return new PostgresSession(
                this::connect,
                null,
                (c, r) -> view == null
                        ? new RelationalSession(c, s, null)
                        : new MatviewSession(c, null, replicas.actions(), s, sync),
                timeout.toMillis(),
                (int) Math.min(Integer.MAX_VALUE, timeout.plusSeconds(1).toMillis()));
    }

    /** The read replicas' URLs ({@code postgres.read-urls}); empty without replicas. */
    public List<String> readUrls() {
        return pools.replicas().stream().map(PostgresPools.Replica::url).toList();
    }

    /** A statement runs at most {@code postgres.timeout}; a server that does not answer is given up a second later. */
    @Override
    public Duration callTimeout() {
        return timeout.plusSeconds(1);
    }

    private void execute(String what, String sql) {
        try (Connection c = connect();
                Statement st = c.createStatement()) {
            st.execute(sql);
        } catch (SQLException e) {
            throw failure(what, e);
        }
    }

    /**
     * The image, except with read replicas: a restore drops and re-creates the database on the primary, the
     * replicas replay that and end every session reading from them ("terminating connection due to conflict with
     * recovery"), so a rating's next experiment failed. Without an image a rating repairs or reloads instead, through
     * the primary, which the replicas follow.
     */
    @Override
    public Optional<StoreImage> image() {
        return readUrls().isEmpty() ? Optional.of(image) : Optional.empty();
    }

    /** Called after a restore replaced the database, whose attribute columns may differ and whose view is derived. */
    void schemaReplaced() {
        forgetSchema();
        if (view != null) {
            view.prepare();
        }
    }

    /** Keeps the background refresher off the database (and its connection closed) while an image is copied. */
    CountsView.Paused pauseRefresher() {
        return view == null ? () -> {} : view.pause();
    }

    EmbeddedServer embeddedServer() {
        return embedded;
    }

    /**
     * The postmaster's pid when the server runs on this host: known for the embedded server; for a server on a
     * loopback address, the parent of this store's backend process if /proc shows one named postgres.
     */
    @Override
    public List<Long> localServerPids() {
        return ServerProcesses.of(embedded, pools);
    }

    @Override
    public void close() {
        try {
            try {
                if (view != null) {
                    view.close();
                }
            } finally {
                pools.close();
            }
        } finally {
            if (embedded != null) {
                embedded.close();
            }
        }
    }
}
