package org.bgbench.store.relational;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Collections;

/**
 * The portable bulk path: one prepared INSERT per table, rows added to JDBC batches, each flush executed and
 * committed as one transaction. Drivers that keep batches on the client side (sqlite-jdbc does) touch the database
 * only in {@link #flush()}.
 */
public class BatchInsertSink implements RowSink {
    private final Connection c;
    private final int attributes;
    private final boolean imagePaths;
    private final boolean countColumns;
    /** {@code friendship.tables=2}: confirmed rows go to {@code friends}, pending ones to {@code pending}. */
    private final boolean twoTables;

    private final PreparedStatement pending;
    private int pendingInvitations;
    private final PreparedStatement members;
    private final PreparedStatement friendship;
    private final PreparedStatement resources;
    private final PreparedStatement comments;
    private final PreparedStatement pages;
    private final PreparedStatement follows;
    private int pendingMembers;
    private int pendingPages;
    private int pendingFollows;
    private int pendingFriendships;
    private int pendingResources;
    private int pendingComments;

    public BatchInsertSink(Connection c, RelationalSchema schema) throws SQLException {
        this.c = c;
        this.attributes = schema.attributeCount();
        this.imagePaths = schema.physical().imagesInFiles();
        this.countColumns = schema.physical().countAttributes();
        this.twoTables = schema.physical().twoTables();
        try {
            c.setAutoCommit(false);
            members = c.prepareStatement("INSERT INTO members (" + schema.memberColumns() + ") VALUES ("
                    + String.join(", ", Collections.nCopies(attributes + 1 + schema.memberExtraColumns(), "?"))
                    + ")");
            friendship = twoTables
                    ? c.prepareStatement("INSERT INTO friends (" + RelationalSchema.FRIENDS_COLUMNS + ") VALUES (?, ?)")
                    : c.prepareStatement(
                            "INSERT INTO friendship (" + RelationalSchema.FRIENDSHIP_COLUMNS + ") VALUES (?, ?, ?)");
            pending = twoTables
                    ? c.prepareStatement("INSERT INTO pending (" + RelationalSchema.PENDING_COLUMNS + ") VALUES (?, ?)")
                    : null;
            resources = c.prepareStatement(
                    "INSERT INTO resources (" + RelationalSchema.RESOURCE_COLUMNS + ") VALUES (?, ?, ?, ?, ?, ?)");
            comments = c.prepareStatement("INSERT INTO manipulation (" + RelationalSchema.MANIPULATION_COLUMNS
                    + ") VALUES (?, ?, ?, ?, ?, '" + RelationalSchema.COMMENT_TYPE + "', ?)");
            pages = c.prepareStatement("INSERT INTO pages (" + RelationalSchema.PAGE_COLUMNS + ") VALUES (?, ?)");
            follows = c.prepareStatement("INSERT INTO follows (" + RelationalSchema.FOLLOW_COLUMNS + ") VALUES (?, ?)");
        } catch (SQLException e) {
            c.close();
            throw e;
        }
    }

    @Override
    public void member(int userid, String[] attributeValues, byte[] pic, byte[] tpic) throws SQLException {
        member(userid, attributeValues, pic, null, tpic, null);
    }

    @Override
    public void member(int userid, String[] attributeValues, byte[] pic, String picPath, byte[] tpic, int[] counts)
            throws SQLException {
        members.setInt(1, userid);
        for (int a = 0; a < attributes; a++) {
            members.setString(a + 2, attributeValues[a]);
        }
        if (imagePaths) {
            members.setString(attributes + 2, picPath);
        } else {
            members.setBytes(attributes + 2, pic);
        }
        members.setBytes(attributes + 3, tpic);
        if (countColumns) {
            for (int i = 0; i < 3; i++) {
                members.setInt(attributes + 4 + i, counts[i]);
            }
        }
        members.addBatch();
        pendingMembers++;
    }

    @Override
    public void friendship(int inviterid, int inviteeid, int status) throws SQLException {
        if (twoTables) {
            PreparedStatement ps = status == RelationalSchema.CONFIRMED ? friendship : pending;
            ps.setInt(1, inviterid);
            ps.setInt(2, inviteeid);
            ps.addBatch();
            if (status == RelationalSchema.CONFIRMED) {
                pendingFriendships++;
            } else {
                pendingInvitations++;
            }
            return;
        }
        friendship.setInt(1, inviterid);
        friendship.setInt(2, inviteeid);
        friendship.setInt(3, status);
        friendship.addBatch();
        pendingFriendships++;
    }

    @Override
    public void resource(long rid, int creatorid, int walluserid, String type, String body, String doc)
            throws SQLException {
        resources.setLong(1, rid);
        resources.setInt(2, creatorid);
        resources.setInt(3, walluserid);
        resources.setString(4, type);
        resources.setString(5, body);
        resources.setString(6, doc);
        resources.addBatch();
        pendingResources++;
    }

    @Override
    public void comment(long mid, int creatorid, long rid, int modifierid, long timestamp, String content)
            throws SQLException {
        comments.setLong(1, mid);
        comments.setInt(2, creatorid);
        comments.setLong(3, rid);
        comments.setInt(4, modifierid);
        comments.setLong(5, timestamp);
        comments.setString(6, content);
        comments.addBatch();
        pendingComments++;
    }

    @Override
    public void page(int pageid, String name) throws SQLException {
        pages.setInt(1, pageid);
        pages.setString(2, name);
        pages.addBatch();
        pendingPages++;
    }

    @Override
    public void follow(int userid, int pageid) throws SQLException {
        follows.setInt(1, userid);
        follows.setInt(2, pageid);
        follows.addBatch();
        pendingFollows++;
    }

    @Override
    public void flush() throws SQLException {
        try {
            // Members first, then the rows that refer to them, as a reader of a half-loaded store would expect.
            if (pendingMembers > 0) {
                members.executeBatch();
            }
            if (pendingFriendships > 0) {
                friendship.executeBatch();
            }
            if (pendingInvitations > 0) {
                pending.executeBatch();
            }
            if (pendingResources > 0) {
                resources.executeBatch();
            }
            if (pendingComments > 0) {
                comments.executeBatch();
            }
            if (pendingPages > 0) {
                pages.executeBatch();
            }
            if (pendingFollows > 0) {
                follows.executeBatch();
            }
            c.commit();
        } catch (SQLException e) {
            members.clearBatch();
            friendship.clearBatch();
            if (pending != null) {
                pending.clearBatch();
            }
            resources.clearBatch();
            comments.clearBatch();
            pages.clearBatch();
            follows.clearBatch();
            c.rollback();
            throw e;
        } finally {
            pendingMembers = 0;
            pendingFriendships = 0;
            pendingInvitations = 0;
            pendingResources = 0;
            pendingComments = 0;
            pendingPages = 0;
            pendingFollows = 0;
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
