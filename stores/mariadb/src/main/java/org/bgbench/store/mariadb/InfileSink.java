package org.bgbench.store.mariadb;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import org.bgbench.store.relational.RelationalSchema;
import org.bgbench.store.relational.RowSink;

/**
 * The bulk path of MariaDB and MySQL: rows are encoded into one tab-separated buffer per table (LOAD DATA's default
 * format: {@code \t} between fields, {@code \n} after rows, backslash escapes, {@code \N} for NULL) and each flush
 * sends them with {@code LOAD DATA LOCAL INFILE} from an in-memory stream (Connector/J's
 * {@code setLocalInfileInputStream}), no file involved, then commits. {@code CHARACTER SET binary} loads the bytes as
 * they are: text as UTF-8 into the utf8mb4 columns, images unchanged.
 */
final class InfileSink implements RowSink {
    private final Connection c;
    private final Statement st;
    private final int attributes;
    private final boolean imagePaths;
    private final boolean countColumns;
    /** {@code friendship.tables=2}: {@link #friendship} feeds {@code friends}, {@link #pending} {@code pending}. */
    private final boolean twoTables;
    private final Buffer pending = new Buffer();
    private final Buffer members = new Buffer();
    private final Buffer friendship = new Buffer();
    private final Buffer resources = new Buffer();
    private final Buffer comments = new Buffer();
    private final Buffer pages = new Buffer();
    private final Buffer follows = new Buffer();
    private final String loadMembers;

    InfileSink(Connection c, RelationalSchema schema) throws SQLException {
        this.c = c;
        this.attributes = schema.attributeCount();
        this.imagePaths = schema.physical().imagesInFiles();
        this.countColumns = schema.physical().countAttributes();
        this.twoTables = schema.physical().twoTables();
        this.loadMembers = load(RelationalSchema.MEMBERS, schema.memberColumns());
        try {
            c.setAutoCommit(false);
            st = c.createStatement();
        } catch (SQLException e) {
            c.close();
            throw e;
        }
    }

    private static String load(String table, String columns) {
        return "LOAD DATA LOCAL INFILE 'bg-" + table + ".tsv' INTO TABLE " + table + " CHARACTER SET binary ("
                + columns + ")";
    }

    private static final String LOAD_FRIENDSHIP = load(RelationalSchema.FRIENDSHIP, RelationalSchema.FRIENDSHIP_COLUMNS);
    private static final String LOAD_FRIENDS = load(RelationalSchema.FRIENDS, RelationalSchema.FRIENDS_COLUMNS);
    private static final String LOAD_PENDING = load(RelationalSchema.PENDING_TABLE, RelationalSchema.PENDING_COLUMNS);
    private static final String LOAD_RESOURCES = load(RelationalSchema.RESOURCES, RelationalSchema.RESOURCE_COLUMNS);
    private static final String LOAD_PAGES = load(RelationalSchema.PAGES, RelationalSchema.PAGE_COLUMNS);
    private static final String LOAD_FOLLOWS = load(RelationalSchema.FOLLOWS, RelationalSchema.FOLLOW_COLUMNS);
    private static final String LOAD_COMMENTS = load(RelationalSchema.MANIPULATION,
            RelationalSchema.MANIPULATION_COLUMNS);

    @Override
    public void member(int userid, String[] attributeValues, byte[] pic, byte[] tpic) {
        member(userid, attributeValues, pic, null, tpic, null);
    }

    @Override
    public void member(int userid, String[] attributeValues, byte[] pic, String picPath, byte[] tpic, int[] counts) {
        Buffer b = members;
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
            (status == RelationalSchema.CONFIRMED ? friendship : pending).number(inviterid).tab().number(inviteeid)
                    .endRow();
            return;
        }
        friendship.number(inviterid).tab().number(inviteeid).tab().number(status).endRow();
    }

    @Override
    public void resource(long rid, int creatorid, int walluserid, String type, String body, String doc) {
        resources.number(rid).tab().number(creatorid).tab().number(walluserid).tab().text(type).tab().text(body).tab()
                .text(doc).endRow();
    }

    @Override
    public void comment(long mid, int creatorid, long rid, int modifierid, long timestamp, String content) {
        comments.number(mid).tab().number(creatorid).tab().number(rid).tab().number(modifierid).tab().number(timestamp)
                .tab().text(RelationalSchema.COMMENT_TYPE).tab().text(content).endRow();
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
            for (int attempt = 1; ; attempt++) {
                try {
                    // Members first, then the rows that refer to them, as a reader of a half-loaded store would expect.
                    send(members, loadMembers);
                    send(friendship, twoTables ? LOAD_FRIENDS : LOAD_FRIENDSHIP);
                    send(pending, LOAD_PENDING);
                    send(resources, LOAD_RESOURCES);
                    send(comments, LOAD_COMMENTS);
                    send(pages, LOAD_PAGES);
                    send(follows, LOAD_FOLLOWS);
                    c.commit();
                    return;
                } catch (SQLException e) {
                    c.rollback();
                    // Two loaders' first LOAD DATA into an empty table both ask for its table X lock (InnoDB's bulk
                    // insert into an empty table with unique_checks=0, MariaDB 10.6+; seen in SHOW ENGINE INNODB
                    // STATUS) and one is chosen as deadlock victim. InnoDB rolled the whole flush back and the
                    // buffers are intact: send them again (the table is no longer empty).
                    if (!deadlock(e) || attempt == DEADLOCK_ATTEMPTS) {
                        throw e;
                    }
                }
            }
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

    private static final int DEADLOCK_ATTEMPTS = 5;

    /** ER_LOCK_DEADLOCK (1213) or SQLSTATE 40001. */
    private static boolean deadlock(SQLException e) {
        return e.getErrorCode() == 1213 || "40001".equals(e.getSQLState());
    }

    private void send(Buffer b, String sql) throws SQLException {
        if (b.length == 0) {
            return;
        }
        org.mariadb.jdbc.Statement ms = st.unwrap(org.mariadb.jdbc.Statement.class);
        ms.setLocalInfileInputStream(new ByteArrayInputStream(b.data, 0, b.length));
        st.executeUpdate(sql);
    }

    @Override
    public void close() throws SQLException {
        try {
            c.rollback();
        } finally {
            c.close();
        }
    }

    /** A growable byte buffer writing LOAD DATA's default text format. */
    static final class Buffer {
        byte[] data = new byte[1 << 16];
        int length;

        private void ensure(int more) {
            if (length + more > data.length) {
                data = Arrays.copyOf(data, Math.max(data.length * 2, length + more));
            }
        }

        Buffer tab() {
            ensure(1);
            data[length++] = '\t';
            return this;
        }

        void endRow() {
            ensure(1);
            data[length++] = '\n';
        }

        Buffer number(long v) {
            ensure(20);
            if (v < 0) {
                data[length++] = '-';
                v = -v;
            }
            int start = length;
            do {
                data[length++] = (byte) ('0' + v % 10);
                v /= 10;
            } while (v != 0);
            for (int i = start, j = length - 1; i < j; i++, j--) {
                byte t = data[i];
                data[i] = data[j];
                data[j] = t;
            }
            return this;
        }

        Buffer text(String s) {
            if (s == null) {
                return nul();
            }
            boolean ascii = true;
            for (int i = 0; i < s.length() && ascii; i++) {
                ascii = s.charAt(i) < 0x80;
            }
            if (ascii) {
                ensure(2 * s.length());
                for (int i = 0; i < s.length(); i++) {
                    put((byte) s.charAt(i));
                }
                return this;
            }
            return bytes(s.getBytes(StandardCharsets.UTF_8));
        }

        Buffer bytes(byte[] b) {
            if (b == null) {
                return nul();
            }
            ensure(2 * b.length);
            for (byte x : b) {
                put(x);
            }
            return this;
        }

        private Buffer nul() {
            ensure(2);
            data[length++] = '\\';
            data[length++] = 'N';
            return this;
        }

        /** One byte, escaped when LOAD DATA would read it as a separator or escape; capacity already ensured. */
        private void put(byte x) {
            switch (x) {
                case '\\' -> {
                    data[length++] = '\\';
                    data[length++] = '\\';
                }
                case '\t' -> {
                    data[length++] = '\\';
                    data[length++] = 't';
                }
                case '\n' -> {
                    data[length++] = '\\';
                    data[length++] = 'n';
                }
                case '\r' -> {
                    data[length++] = '\\';
                    data[length++] = 'r';
                }
                case 0 -> {
                    data[length++] = '\\';
                    data[length++] = '0';
                }
                default -> data[length++] = x;
            }
        }

        void reset() {
            length = 0;
            if (data.length > 1 << 24) {
                data = new byte[1 << 16];
            }
        }
    }
}
