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
