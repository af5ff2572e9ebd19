package org.bgbench.store.postgres;

import java.sql.Connection;
import java.sql.SQLException;
import org.bgbench.store.relational.RelationalSchema;
import org.bgbench.store.relational.RowSink;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyIn;
import org.postgresql.copy.CopyManager;

/**
 * PostgreSQL's bulk path: rows are encoded into one COPY text buffer per table and each flush streams the buffers
 * with {@code COPY ... FROM STDIN} in one transaction. Many loaders run this at once on their own connections.
 */
final class CopySink implements RowSink {
    private static final String FRIENDSHIP_COPY = "COPY friendship (" + RelationalSchema.FRIENDSHIP_COLUMNS
            + ") FROM STDIN";
    private static final String FRIENDS_COPY = "COPY friends (" + RelationalSchema.FRIENDS_COLUMNS + ") FROM STDIN";
    private static final String PENDING_COPY = "COPY pending (" + RelationalSchema.PENDING_COLUMNS + ") FROM STDIN";
    private static final String RESOURCES_COPY = "COPY resources (" + RelationalSchema.RESOURCE_COLUMNS
            + ") FROM STDIN";
    private static final String COMMENTS_COPY = "COPY manipulation (" + RelationalSchema.MANIPULATION_COLUMNS
            + ") FROM STDIN";

    private static final String PAGES_COPY = "COPY pages (" + RelationalSchema.PAGE_COLUMNS + ") FROM STDIN";
    private static final String FOLLOWS_COPY = "COPY follows (" + RelationalSchema.FOLLOW_COLUMNS + ") FROM STDIN";

    private final Connection c;
    private final CopyManager copy;
    private final int attributes;
    private final boolean imagePaths;
    private final boolean countColumns;
    /** {@code friendship.tables=2}: {@link #friendship} feeds {@code friends}, {@link #pending} {@code pending}. */
    private final boolean twoTables;
    private final CopyBuffer pending = new CopyBuffer();
    private final String membersCopy;
    private final CopyBuffer members = new CopyBuffer();
    private final CopyBuffer friendship = new CopyBuffer();
    private final CopyBuffer resources = new CopyBuffer();
    private final CopyBuffer comments = new CopyBuffer();
    private final CopyBuffer pages = new CopyBuffer();
    private final CopyBuffer follows = new CopyBuffer();

    CopySink(Connection c, RelationalSchema schema) throws SQLException {
        this.c = c;
        this.copy = c.unwrap(PGConnection.class).getCopyAPI();
        this.attributes = schema.attributeCount();
        this.imagePaths = schema.physical().imagesInFiles();
        this.countColumns = schema.physical().countAttributes();
        this.twoTables = schema.physical().twoTables();
        this.membersCopy = "COPY members (" + schema.memberColumns() + ") FROM STDIN";
        c.setAutoCommit(false);
    }

    @Override
    public void member(int userid, String[] attributeValues, byte[] pic, byte[] tpic) {
        member(userid, attributeValues, pic, null, tpic, null);
    }

    @Override
    public void member(int userid, String[] attributeValues, byte[] pic, String picPath, byte[] tpic, int[] counts) {
        members.number(userid);
        for (int a = 0; a < attributes; a++) {
            members.tab().text(attributeValues[a]);
        }
        if (imagePaths) {
            members.tab().text(picPath);
        } else {
            members.tab().bytes(pic);
        }
        members.tab().bytes(tpic);
        if (countColumns) {
            members.tab().number(counts[0]).tab().number(counts[1]).tab().number(counts[2]);
        }
        members.endRow();
    }

    @Override
    public void friendship(int inviterid, int inviteeid, int status) {
        if (twoTables) {
            (status == RelationalSchema.CONFIRMED ? friendship : pending).number(inviterid).tab().number(inviteeid)
                    .endRow();
            return;
        }
        friendship.number(inviterid).tab().number(inviteeid).tab().number(status).endRow();
    }

    @Override
    public void resource(long rid, int creatorid, int walluserid, String type, String body, String doc) {
        resources.number(rid).tab().number(creatorid).tab().number(walluserid).tab().text(type).tab().text(body)
                .tab().text(doc).endRow();
    }

    @Override
    public void comment(long mid, int creatorid, long rid, int modifierid, long timestamp, String content) {
        comments.number(mid).tab().number(creatorid).tab().number(rid).tab().number(modifierid).tab()
                .number(timestamp).tab().text(RelationalSchema.COMMENT_TYPE).tab().text(content).endRow();
    }

    @Override
    public void page(int pageid, String name) {
        pages.number(pageid).tab().text(name).endRow();
    }

    @Override
    public void follow(int userid, int pageid) {
        follows.number(userid).tab().number(pageid).endRow();
    }

    @Override
    public void flush() throws SQLException {
        try {
            send(membersCopy, members);
            send(twoTables ? FRIENDS_COPY : FRIENDSHIP_COPY, friendship);
            send(PENDING_COPY, pending);
            send(RESOURCES_COPY, resources);
            send(COMMENTS_COPY, comments);
            send(PAGES_COPY, pages);
            send(FOLLOWS_COPY, follows);
            c.commit();
        } catch (SQLException e) {
            c.rollback();
            throw e;
        } finally {
            members.reset();
            friendship.reset();
            pending.reset();
            resources.reset();
            comments.reset();
            pages.reset();
            follows.reset();
        }
    }

    private void send(String sql, CopyBuffer rows) throws SQLException {
        if (rows.rows() == 0) {
            return;
        }
        CopyIn in = copy.copyIn(sql);
        try {
            in.writeToCopy(rows.array(), 0, rows.length());
            in.endCopy();
        } finally {
            if (in.isActive()) {
                in.cancelCopy();
            }
        }
    }

    @Override
    public void close() throws SQLException {
        try {
            c.rollback();
        } finally {
            c.close();
        }
    }
}
