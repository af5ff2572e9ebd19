package org.bgbench.store.postgres;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.bgbench.store.relational.RelationalSchema;
import org.bgbench.store.relational.RowSink;
import org.bgbench.store.relational.SqlDialect;

/**
 * PostgreSQL's side of the Basic design: tables are created bare, filled by COPY, and get their keys and indexes
 * afterwards, one table per connection in parallel, followed by VACUUM ANALYZE so the planner has statistics and
 * the friendship lookups can be index-only scans.
 */
public final class PostgresDialect implements SqlDialect {
    private final int serverVersion;

    /** @param serverVersion {@code server_version_num}, e.g. 140015 */
    public PostgresDialect(int serverVersion) {
        this.serverVersion = serverVersion;
    }

    @Override
    public String name() {
        return "PostgreSQL";
    }

    @Override
    public String binaryType() {
        return "BYTEA";
    }

    @Override
    public String bigIdType() {
        return "BIGINT";
    }

    @Override
    public boolean keysAtCreate() {
        return false;
    }

    @Override
    public List<List<String>> afterLoad(RelationalSchema schema) {
        List<String> friendship = new ArrayList<>();
        if (schema.physical().twoTables()) {
            // friendship.tables=2: no status to carry; each key covers its table's first-column lookups.
            friendship.add("ALTER TABLE friends ADD PRIMARY KEY (frdid1, frdid2)");
            friendship.add("ALTER TABLE pending ADD PRIMARY KEY (inviterid, inviteeid)");
        } else if (serverVersion >= 110000) {
            // The key carries status, so the inviter half of every friendship query reads the index alone.
            friendship.add("ALTER TABLE friendship ADD PRIMARY KEY (inviterid, inviteeid) INCLUDE (status)");
        } else {
            friendship.add("ALTER TABLE friendship ADD PRIMARY KEY (inviterid, inviteeid)");
            friendship.add("CREATE INDEX friendship_inviter ON friendship (inviterid, status, inviteeid)");
        }
        friendship.addAll(schema.friendshipIndexes());
        for (String t : schema.friendshipTables()) {
            friendship.add("VACUUM ANALYZE " + t);
        }
        return List.of(
                List.of(
                        "ALTER TABLE resources ADD PRIMARY KEY (rid)",
                        RelationalSchema.RESOURCES_WALL_INDEX,
                        "VACUUM ANALYZE resources"),
                friendship,
                List.of(
                        "ALTER TABLE manipulation ADD PRIMARY KEY (mid)",
                        RelationalSchema.MANIPULATION_RID_INDEX,
                        "VACUUM ANALYZE manipulation"),
                List.of("ALTER TABLE members ADD PRIMARY KEY (userid)", "VACUUM ANALYZE members"),
                feed(schema));
    }

    /** Keys of the loaded feed tables, the design's indexes, and statistics of the (empty) share tables too. */
    private static List<String> feed(RelationalSchema schema) {
        List<String> feed = new ArrayList<>(List.of(
                "ALTER TABLE pages ADD PRIMARY KEY (pageid)", "ALTER TABLE follows ADD PRIMARY KEY (userid, pageid)"));
        feed.addAll(schema.feedIndexes());
        feed.add("VACUUM ANALYZE pages");
        feed.add("VACUUM ANALYZE follows");
        feed.add("ANALYZE shares");
        feed.add("ANALYZE share_recipients");
        return feed;
    }

    @Override
    public int afterLoadParallelism() {
        return 4;
    }

    /** PostgreSQL 9.3+; BG's pull feed reads k shares per producer with it. */
    @Override
    public boolean lateralJoins() {
        return true;
    }

    @Override
    public String tableExistsQuery() {
        return "SELECT 1 WHERE to_regclass(CAST(? AS text)) IS NOT NULL";
    }

    @Override
    public RowSink openSink(Connection c, RelationalSchema schema) throws SQLException {
        return new CopySink(c, schema);
    }

    /** pgJDBC returns a text field's received bytes (UTF-8, the client encoding it sets) without copying. */
    @Override
    public boolean textAsUtf8Bytes() {
        return true;
    }
}
