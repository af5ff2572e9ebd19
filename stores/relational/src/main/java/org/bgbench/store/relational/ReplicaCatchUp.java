package org.bgbench.store.relational;

import java.sql.SQLException;
import java.util.List;
import org.bgbench.store.StoreException;

/**
 * The wait of a store's first routed read until every read replica has applied the primary's log as it was then, so
 * a run starts on replicas that hold the graph just loaded. Done once per store: later calls return at once. An
 * engine supplies how to read the primary's log position and how to wait for one replica to reach it.
 *
 * @param <R> the engine's replica handle
 */
public final class ReplicaCatchUp<R> {
    /** Reads the primary's current log position (a GTID set, a WAL LSN); fails as a store failure. */
    @FunctionalInterface
    public interface Position {
        String read();
    }

    /** Waits until {@code replica} has applied the log up to {@code position}, or logs that it did not in time. */
    @FunctionalInterface
    public interface Wait<R> {
        void await(R replica, String position) throws SQLException;
    }

    /** Turns a replica's failure into the store's one-line message. */
    @FunctionalInterface
    public interface Failure<R> {
        StoreException of(R replica, SQLException e);
    }

    private final List<R> replicas;
    private final Position position;
    private final Wait<R> wait;
    private final Failure<R> failure;
    private volatile boolean done;

    public ReplicaCatchUp(List<R> replicas, Position position, Wait<R> wait, Failure<R> failure) {
        this.replicas = List.copyOf(replicas);
        this.position = position;
        this.wait = wait;
        this.failure = failure;
    }

    /** Whether the replicas were seen to have caught up (or were given their time). */
    public boolean done() {
        return done;
    }

    /**
     * Waits for every replica in turn, the first time only; a blank position (a primary that logged nothing) waits
     * for none.
     */
    public synchronized void await() {
        if (done) {
            return;
        }
        String at = position.read();
        if (at != null && !at.isBlank()) {
            for (R r : replicas) {
                try {
                    wait.await(r, at);
                } catch (SQLException e) {
                    throw failure.of(r, e);
                }
            }
        }
        done = true;
    }
}
