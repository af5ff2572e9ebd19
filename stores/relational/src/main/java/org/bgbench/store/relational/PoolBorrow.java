package org.bgbench.store.relational;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.time.Duration;

/**
 * A session's wait for a pooled connection, cut into slices up to the store's whole timeout. When many sessions ask at
 * once (T = 64 members opening together on 2 cores), HikariCP's connection adder can find nobody waiting at the moment
 * it looks and open nothing more, so a borrower waits out its whole timeout with the pool far from full; asking again
 * after each slice wakes the adder. Seen with PostgreSQL and with MariaDB (docs/benchmarks.md). The pool's
 * own connection timeout is set to {@link #sliceMillis}.
 */
public final class PoolBorrow {
    /** The pool's own wait for a connection: one slice of a borrower's. */
    static final long SLICE_MS = 1_000;

    /** Where connections come from: a pool's {@code getConnection}. */
    @FunctionalInterface
    public interface Pool {
        Connection getConnection() throws SQLException;
    }

    private PoolBorrow() {}

    /** The pool's connection timeout for a store {@code timeout}: a slice, at least Hikari's 250 ms minimum. */
    public static long sliceMillis(Duration timeout) {
        return Math.max(250, Math.min(SLICE_MS, timeout.toMillis()));
    }

    /** The pool's check of an idle connection on borrow: at most a slice (Hikari's rule), half the timeout. */
    public static long validationMillis(Duration timeout) {
        return Math.max(250, Math.min(sliceMillis(timeout), timeout.toMillis() / 2));
    }

    /**
     * Asks {@code pool} again after each of its timeouts until it gives a connection or {@code timeout} has passed. A
     * timeout with a cause (the server refused or failed to connect) and any other failure are thrown at once: asking
     * again would not help.
     */
    public static Connection borrow(Pool pool, Duration timeout) throws SQLException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            try {
                return pool.getConnection();
            } catch (SQLTransientConnectionException e) {
                if (e.getCause() instanceof SQLException || System.nanoTime() - deadline >= 0) {
                    throw e;
                }
            }
        }
    }
}
