package org.bgbench.store.relational;

import java.sql.SQLException;

/**
 * A loader's bulk path: rows are buffered by the typed methods and written by {@link #flush()}. Confined to one
 * loading thread; the loader calls {@code flush} under the store's write lock when the engine has a single writer, so
 * the row methods must not touch the database.
 */
public interface RowSink extends AutoCloseable {
    /** A member; {@code pic} and {@code tpic} are null when the graph has no images. */
    void member(int userid, String[] attributes, byte[] pic, byte[] tpic) throws SQLException;

    /**
     * A member in the columns of the schema's physical design: the profile image inline ({@code pic}) or as the path
     * of its file ({@code picPath}, {@code images=fs}; null when the graph has no images), and with
     * {@code counts=attributes} its friend, pending and resource counts ({@code counts}, else null). Sinks of the
     * Basic design alone need not override it.
     */
    default void member(int userid, String[] attributes, byte[] pic, String picPath, byte[] tpic, int[] counts)
            throws SQLException {
        if (picPath != null || counts != null) {
            throw new SQLException(getClass().getSimpleName() + " writes the Basic member columns only");
        }
        member(userid, attributes, pic, tpic);
    }

    /**
     * A friendship row: with {@code friendship.tables=2} a confirmed one goes to {@code friends(frdid1, frdid2)} and
     * a pending one to {@code pending(inviterid, inviteeid)}.
     */
    void friendship(int inviterid, int inviteeid, int status) throws SQLException;

    void resource(long rid, int creatorid, int walluserid, String type, String body, String doc) throws SQLException;

    /** A page (feed following): its account id and name. */
    void page(int pageid, String name) throws SQLException;

    /** Member {@code userid} follows page {@code pageid}. */
    void follow(int userid, int pageid) throws SQLException;

    /** A comment; its type is {@link RelationalSchema#COMMENT_TYPE}. */
    void comment(long mid, int creatorid, long rid, int modifierid, long timestamp, String content) throws SQLException;

    /** Writes and commits everything buffered since the last flush. */
    void flush() throws SQLException;

    /** Releases the connection; rows not flushed are dropped. */
    @Override
    void close() throws SQLException;
}
