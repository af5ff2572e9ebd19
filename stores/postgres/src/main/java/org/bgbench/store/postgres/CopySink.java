package org.bgbench.store.postgres;

import java.sql.Connection;
import java.sql.SQLException;
import org.bgbench.store.relational.RelationalSchema;
import org.bgbench.store.relational.TextBulkSink;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyIn;
import org.postgresql.copy.CopyManager;

/**
 * PostgreSQL's bulk path: rows are encoded into one COPY text buffer per table and each flush streams the buffers
 * with {@code COPY ... FROM STDIN} in one transaction. Many loaders run this at once on their own connections.
 */
final class CopySink extends TextBulkSink {
    private final CopyManager copy;

    CopySink(Connection c, RelationalSchema schema) throws SQLException {
        super(c, schema, (table, columns) -> "COPY " + table + " (" + columns + ") FROM STDIN", CopyBuffer::new);
        this.copy = c.unwrap(PGConnection.class).getCopyAPI();
        c.setAutoCommit(false);
    }

    @Override
    protected void send(Table table) throws SQLException {
        CopyIn in = copy.copyIn(table.statement());
        try {
            in.writeToCopy(table.rows().array(), 0, table.rows().length());
            in.endCopy();
        } finally {
            if (in.isActive()) {
                in.cancelCopy();
            }
        }
    }
}
