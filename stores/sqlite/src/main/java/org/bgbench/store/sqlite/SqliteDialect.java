package org.bgbench.store.sqlite;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.bgbench.store.relational.BatchInsertSink;
import org.bgbench.store.relational.RelationalSchema;
import org.bgbench.store.relational.RowSink;
import org.bgbench.store.relational.SqlDialect;

/**
 * SQLite's side of the Basic design. Keys are declared up front (SQLite cannot add a primary key later) and chosen
 * so the big tables are clustered the way BG reads them: members, resources and comments are rowid tables keyed by
 * their id, and friendship is a WITHOUT ROWID table clustered on (inviterid, inviteeid), which also covers the
 * inviter half of the friend queries without a second index.
 */
public final class SqliteDialect implements SqlDialect {
    /** Public for the jdbc store's {@code sqlite} dialect. */
    public SqliteDialect() {}

    @Override
    public String name() {
        return "SQLite";
    }

    @Override
    public String binaryType() {
        return "BLOB";
    }

    @Override
    public String bigIdType() {
        // INTEGER (64-bit) PRIMARY KEY makes the id the rowid: no separate key index.
        return "INTEGER";
    }

    @Override
    public boolean keysAtCreate() {
        return true;
    }

    @Override
    public String friendshipTableOptions() {
        return " WITHOUT ROWID";
    }

    @Override
    public List<List<String>> afterLoad(RelationalSchema schema) {
        List<String> all = new ArrayList<>(schema.friendshipIndexes());
        all.addAll(List.of(RelationalSchema.RESOURCES_WALL_INDEX, RelationalSchema.MANIPULATION_RID_INDEX));
        all.addAll(schema.feedIndexes());
        all.add("ANALYZE");
        // Fold the load's write-ahead log into the database so the first experiment starts from a clean file.
        all.add("PRAGMA wal_checkpoint(TRUNCATE)");
        return List.of(all);
    }

    @Override
    public String tableExistsQuery() {
        return "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?";
    }

    @Override
    public boolean singleWriter() {
        return true;
    }

    @Override
    public RowSink openSink(Connection c, RelationalSchema schema) throws SQLException {
        return new BatchInsertSink(c, schema);
    }

    /** sqlite-jdbc returns sqlite3_column_blob of the text, which is its UTF-8 encoding. */
    @Override
    public boolean textAsUtf8Bytes() {
        return true;
    }
}
