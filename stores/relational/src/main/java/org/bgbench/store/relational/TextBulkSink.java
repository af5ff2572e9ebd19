package org.bgbench.store.relational;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.function.BinaryOperator;
import java.util.function.Supplier;

/**
 * A bulk path that encodes rows into one {@link TextRows} buffer per table and, at each flush, sends the buffers in
 * one transaction, members first, then the rows that refer to them (as a reader of a half-loaded store would
 * expect). An engine's subclass names its bulk statement (COPY, LOAD DATA) and sends one buffer with it.
 */
public abstract class TextBulkSink implements RowSink {
    /** One table's buffer and the statement that loads it. */
    protected record Table(String statement, TextRows rows) {}

    private final Connection c;
    private final int attributes;
    private final boolean imagePaths;
    private final boolean countColumns;
    /** {@code friendship.tables=2}: {@link #friendship} feeds {@code friends}, {@link #pending} {@code pending}. */
    private final boolean twoTables;

    private final Table members;
    private final Table friendship;
    private final Table pending;
    private final Table resources;
    private final Table comments;
    private final Table pages;
    private final Table follows;
    /** In the order a flush sends them. */
    private final List<Table> tables;

    /**
     * @param statement the bulk statement of a table and its column list
     * @param buffers   a new, empty buffer of the engine's format
     */
    protected TextBulkSink(
            Connection c, RelationalSchema schema, BinaryOperator<String> statement, Supplier<TextRows> buffers) {
        this.c = c;
        this.attributes = schema.attributeCount();
        this.imagePaths = schema.physical().imagesInFiles();
        this.countColumns = schema.physical().countAttributes();
        this.twoTables = schema.physical().twoTables();
        members = new Table(statement.apply(RelationalSchema.MEMBERS, schema.memberColumns()), buffers.get());
        friendship = twoTables
                ? new Table(statement.apply(RelationalSchema.FRIENDS, RelationalSchema.FRIENDS_COLUMNS), buffers.get())
                : new Table(
                        statement.apply(RelationalSchema.FRIENDSHIP, RelationalSchema.FRIENDSHIP_COLUMNS),
                        buffers.get());
        pending = new Table(
                statement.apply(RelationalSchema.PENDING_TABLE, RelationalSchema.PENDING_COLUMNS), buffers.get());
        resources = new Table(
                statement.apply(RelationalSchema.RESOURCES, RelationalSchema.RESOURCE_COLUMNS), buffers.get());
        comments = new Table(
                statement.apply(RelationalSchema.MANIPULATION, RelationalSchema.MANIPULATION_COLUMNS), buffers.get());
        pages = new Table(statement.apply(RelationalSchema.PAGES, RelationalSchema.PAGE_COLUMNS), buffers.get());
        follows = new Table(statement.apply(RelationalSchema.FOLLOWS, RelationalSchema.FOLLOW_COLUMNS), buffers.get());
        tables = List.of(members, friendship, pending, resources, comments, pages, follows);
    }

    /** Sends {@code table}'s rows, which are not empty, with its statement. */
    protected abstract void send(Table table) throws SQLException;

    /**
     * Whether a flush that failed with {@code e} at attempt {@code attempt} (from 1) is sent again, after its
     * transaction was rolled back with the buffers intact; never, unless an engine knows a failure that passes.
     */
    protected boolean sendAgain(SQLException e, int attempt) {
        return false;
    }

    @Override
    public void member(int userid, String[] attributeValues, byte[] pic, byte[] tpic) {
        member(userid, attributeValues, pic, null, tpic, null);
    }

    @Override
    public void member(int userid, String[] attributeValues, byte[] pic, String picPath, byte[] tpic, int[] counts) {
        TextRows b = members.rows();
        b.number(userid);
        for (int a = 0; a < attributes; a++) {
            b.tab().text(attributeValues[a]);
        }
        if (imagePaths) {
            b.tab().text(picPath);
        } else {
            b.tab().bytes(pic);
        }
        b.tab().bytes(tpic);
        if (countColumns) {
            b.tab().number(counts[0]).tab().number(counts[1]).tab().number(counts[2]);
        }
        b.endRow();
    }

    @Override
    public void friendship(int inviterid, int inviteeid, int status) {
        if (twoTables) {
            (status == RelationalSchema.CONFIRMED ? friendship : pending)
                    .rows()
                    .number(inviterid)
                    .tab()
                    .number(inviteeid)
                    .endRow();
            return;
        }
        friendship
                .rows()
                .number(inviterid)
                .tab()
                .number(inviteeid)
                .tab()
                .number(status)
                .endRow();
    }

    @Override
    public void resource(long rid, int creatorid, int walluserid, String type, String body, String doc) {
        resources
                .rows()
                .number(rid)
                .tab()
                .number(creatorid)
                .tab()
                .number(walluserid)
                .tab()
                .text(type)
                .tab()
                .text(body)
                .tab()
                .text(doc)
                .endRow();
    }

    @Override
    public void comment(long mid, int creatorid, long rid, int modifierid, long timestamp, String content) {
        comments.rows()
                .number(mid)
                .tab()
                .number(creatorid)
                .tab()
                .number(rid)
                .tab()
                .number(modifierid)
                .tab()
                .number(timestamp)
                .tab()
                .text(RelationalSchema.COMMENT_TYPE)
                .tab()
                .text(content)
                .endRow();
    }

    @Override
    public void page(int pageid, String name) {
        pages.rows().number(pageid).tab().text(name).endRow();
    }

    @Override
    public void follow(int userid, int pageid) {
        follows.rows().number(userid).tab().number(pageid).endRow();
    }

    @Override
    public void flush() throws SQLException {
        try {
            for (int attempt = 1; ; attempt++) {
                try {
                    for (Table t : tables) {
                        if (t.rows().rows() > 0) {
                            send(t);
                        }
                    }
                    c.commit();
                    return;
                } catch (SQLException e) {
                    c.rollback();
                    if (!sendAgain(e, attempt)) {
                        throw e;
                    }
                }
            }
        } finally {
            tables.forEach(t -> t.rows().reset());
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
