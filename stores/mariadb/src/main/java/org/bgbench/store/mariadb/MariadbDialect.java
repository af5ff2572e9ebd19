package org.bgbench.store.mariadb;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.bgbench.store.relational.BatchInsertSink;
import org.bgbench.store.relational.RelationalSchema;
import org.bgbench.store.relational.RowSink;
import org.bgbench.store.relational.SqlDialect;

/**
 * MariaDB's (and MySQL's) side of the Basic design: InnoDB tables keyed at CREATE (the primary key is InnoDB's
 * clustered index, so adding it later would rebuild the table), rows streamed by {@code LOAD DATA LOCAL INFILE} (or
 * JDBC batches), and the secondary indexes built after the load, one table per connection, then
 * {@code ANALYZE TABLE}. Connections run with {@code ANSI_QUOTES} so the shared SQL's {@code "key"} is an identifier.
 */
public final class MariadbDialect implements SqlDialect {
    private final MariadbStore.Bulk bulk;

    public MariadbDialect(MariadbStore.Bulk bulk) {
        this.bulk = bulk;
    }

    @Override
    public String name() {
        return "MariaDB";
    }

    /** Up to 4 GB; BLOB stops at 64 KB, less than a large profile image. */
    @Override
    public String binaryType() {
        return "LONGBLOB";
    }

    @Override
    public String bigIdType() {
        return "BIGINT";
    }

    @Override
    public boolean keysAtCreate() {
        return true;
    }

    /** TEXT cannot be a key without a prefix length. */
    @Override
    public String metaKeyType() {
        return "VARCHAR(191)";
    }

    @Override
    public List<List<String>> afterLoad(RelationalSchema schema) {
        List<String> friendship = new ArrayList<>(schema.friendshipIndexes());
        friendship.add("ANALYZE TABLE " + String.join(", ", schema.friendshipTables()));
        return List.of(
                friendship,
                List.of(RelationalSchema.RESOURCES_WALL_INDEX, "ANALYZE TABLE resources"),
                List.of(RelationalSchema.MANIPULATION_RID_INDEX, "ANALYZE TABLE manipulation"),
                List.of("ANALYZE TABLE members"),
                feed(schema));
    }

    /** The design's indexes on the loaded feed tables (keys were declared at CREATE), then statistics. */
    private static List<String> feed(RelationalSchema schema) {
        List<String> feed = new ArrayList<>(schema.feedIndexes());
        feed.add("ANALYZE TABLE pages, follows, shares, share_recipients");
        return feed;
    }

    @Override
    public int afterLoadParallelism() {
        return 3;
    }

    @Override
    public String tableExistsQuery() {
        return "SELECT 1 FROM information_schema.tables WHERE table_schema = DATABASE() AND table_name = ?";
    }

    @Override
    public RowSink openSink(Connection c, RelationalSchema schema) throws SQLException {
        return bulk == MariadbStore.Bulk.INFILE ? new InfileSink(c, schema) : new BatchInsertSink(c, schema);
    }

    /** MariaDB Connector/J returns a copy of the text field's bytes in the connection's utf8mb4. */
    @Override
    public boolean textAsUtf8Bytes() {
        return true;
    }
}
