package org.bgbench.store;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.bgbench.model.GraphSpec;
import org.bgbench.model.generator.SocialGraph;

/**
 * A connected data store: schema, bulk load, sanity counts, and per-thread sessions that perform the actions. Shared
 * by all threads; everything per-thread (a connection, prepared statements) lives in a {@link StoreSession} or
 * {@link GraphLoader}.
 */
public interface DataStore extends AutoCloseable {
    /**
     * The {@link GraphSpec#fingerprint()} recorded by the last completed load, or empty when the store holds no BG
     * schema or a load did not finish.
     */
    Optional<String> loadedGraph();

    /** Drops any BG schema and creates an empty one for {@code spec}. */
    void createSchema(GraphSpec spec);

    /** Drops every table (or key space) BG created. */
    void dropSchema();

    /** A loader for one loading thread. Call after {@link #createSchema}. */
    GraphLoader newLoader(SocialGraph graph);

    /**
     * Ends a load: builds indexes, gathers statistics, and records the graph's fingerprint and the state mark
     * {@link StateMark#loaded loaded:&lt;fingerprint&gt;}.
     */
    void finishLoad(SocialGraph graph);

    /**
     * {@link #finishLoad(SocialGraph)}, telling {@code progress} how far it got. Stores that cannot tell report
     * nothing (the default); {@code bg load} then shows the time spent.
     */
    default void finishLoad(SocialGraph graph, FinishProgress progress) {
        finishLoad(graph);
    }

    /**
     * The state mark BG last wrote into this store ({@link StateMark}: {@code loaded:…}, {@code state:…} or
     * {@code running:…}), or empty when the store holds no BG schema or no mark. The mark lives in the store itself
     * (a row of {@code bg_meta} in the SQL stores, a field of the memory store's instance), so it says which of BG's
     * expected states the contents match whatever BG process, host or state directory asks: it survives closing and
     * reopening the store (except where the contents themselves do not, see {@link StoreTraits#forgetsOnClose()}),
     * is replaced by a load ({@link #finishLoad}), goes with {@link #dropSchema} and {@link #createSchema}, and an
     * {@link StoreImage} carries the mark it was saved with back on {@link StoreImage#restore()}.
     *
     * <p>Every store must implement this one, {@link #writeStateMark} and {@link #replaceStateMark}; the defaults only
     * keep test doubles compiling and fail when used.
     */
    default Optional<String> stateMark() {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " does not keep BG's state mark");
    }

    /**
     * Replaces the state mark, durably (committed before this returns) and atomically (a reader sees the old mark or
     * the new one). BG writes {@code running:…} before the first write of a run reaches the store and the run's
     * {@code state:…} token after its expected state was saved. Fails with a {@link StoreException} when the store
     * holds no BG schema.
     */
    default void writeStateMark(String mark) {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " does not keep BG's state mark");
    }

    /**
     * Replaces the state mark with {@code mark} only if it is exactly {@code expected}, in one atomic step of the store
     * (a conditional update, a lightweight transaction, a check-and-mutate): of any number of callers that expect
     * the same mark, in any processes or hosts, at most one succeeds. Returns whether it did; false when the store
     * holds another mark or none, and then the mark is unchanged. Durable like {@link #writeStateMark}, and fails
     * like it with a {@link StoreException} when the store holds no BG schema. BG marks a store {@code running:}
     * through this, from the mark it checked, so two runs started at the same instant cannot both start.
     */
    default boolean replaceStateMark(String expected, String mark) {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " does not keep BG's state mark");
    }

    /**
     * Removes every share and everything derived from them (pushed feed entries, cached feeds), leaving the store as a
     * load left it as far as feed following goes: the generated graph has no shares. RepairDB (dissertation 7.2) and
     * {@code bg verify --repair} use it, since no BG action undoes a share.
     */
    void clearShares();

    /** Totals for the sanity check. */
    StoreCounts counts();

    /** A session for one emulator thread. */
    StoreSession openSession();

    /**
     * A session whose reads see every write that completed before them, for BG's own checks (the load's sanity check,
     * {@code bg verify}, RepairDB, the comparison before a run): on a store that reads from replicas, a session on the
     * primary only. By default {@link #openSession()}.
     */
    default StoreSession openConsistentSession() {
        return openSession();
    }

    /** Database-image hooks, if the store has a fast way to snapshot and restore itself. */
    default Optional<StoreImage> image() {
        return Optional.empty();
    }

    /** Process ids of the local store server, so BG can report its CPU; empty when remote or in-process. */
    default List<Long> localServerPids() {
        return List.of();
    }

    /**
     * Whether the store runs inside BG's own process (SQLite, the memory store): its CPU is then part of BG's, and
     * BG's CPU use says nothing about BG being the bottleneck.
     */
    default boolean inProcess() {
        return false;
    }

    /**
     * The longest one call of a session can wait before the store's own timeouts (connect, read, statement) fail it,
     * or zero when the store has none (it runs in BG's process and never waits on anyone). After a run's measured
     * period its threads get at most max(5 s, this) to leave the store; those still inside are abandoned.
     */
    default Duration callTimeout() {
        return Duration.ZERO;
    }

    @Override
    void close();
}
