package org.bgbench.store.relational;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.concurrent.locks.Lock;
import org.bgbench.store.ErrorText;
import org.bgbench.store.StoreException;

/**
 * How a {@link RelationalSession} writes: under the engine's write lock when it admits one writer at a time, in one
 * transaction when a write takes several statements, and failing when a write changed another number of rows than
 * the state it was chosen for implies.
 */
final class SessionWrites {
    private final Connection c;
    /** Held around every write; null when the engine takes many writers at once. */
    private final Lock writeLock;

    SessionWrites(Connection c, Lock writeLock) {
        this.c = c;
        this.writeLock = writeLock;
    }

    /**
     * Runs {@code work} in one transaction under the write lock, rolled back if it fails; inside the caller's
     * transaction when one is open (autocommit off), which then commits or rolls back.
     */
    void transaction(String action, RelationalSession.Work work) {
        lock();
        try {
            if (!c.getAutoCommit()) {
                work.run();
                return;
            }
            c.setAutoCommit(false);
            try {
                work.run();
                c.commit();
            } catch (SQLException | RuntimeException e) {
                rollbackQuietly();
                throw e;
            } finally {
                c.setAutoCommit(true);
            }
        } catch (SQLException e) {
            throw failed(action, e);
        } finally {
            unlock();
        }
    }

    /** Runs a one-statement write under the write lock, expecting it to change {@code rows} rows. */
    void update(PreparedStatement ps, int rows, String action) throws SQLException {
        lock();
        try {
            expect(ps.executeUpdate(), rows, action);
        } finally {
            unlock();
        }
    }

    /** A write that changed another number of rows met a state it was not valid for; BG counts it as an error. */
    static void expect(int changed, int rows, String action) {
        if (changed != rows) {
            throw new StoreException(action + " changed " + changed + " rows, expected " + rows
                    + " (the store does not hold the state the action was chosen for)");
        }
    }

    static StoreException failed(String action, SQLException e) {
        return new StoreException(action + " failed: " + ErrorText.message(e), e);
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

    private void rollbackQuietly() {
        try {
            c.rollback();
        } catch (SQLException ignored) {
            // The original failure is what the caller needs to see.
        }
    }
}
