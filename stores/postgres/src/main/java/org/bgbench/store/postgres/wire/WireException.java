package org.bgbench.store.postgres.wire;

import java.sql.SQLException;

/**
 * A failure of {@link PgWire}: the server's error (with its SQLSTATE, the connection still usable) or a broken
 * connection (no SQLSTATE, the connection closed, {@link PgWire#isClosed()}). An {@link SQLException} so the store
 * reports it as it reports pgJDBC's.
 */
public final class WireException extends SQLException {
    WireException(String message, String sqlState, Throwable cause) {
        super(message, sqlState, cause);
    }
}
