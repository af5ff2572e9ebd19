package org.bgbench.store.relational;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

/**
 * What differs between the SQL stores sharing the Basic design: column types, when keys are declared, the bulk-load
 * path, the statements that finish a load, and whether the engine takes one writer at a time.
 */
public interface SqlDialect {
    /** Name used in messages, e.g. {@code PostgreSQL}. */
    String name();

    /** Column type of the images: {@code BYTEA}, {@code BLOB}. */
    String binaryType();

    /** Column type of resource and comment ids, which outgrow 32 bits. */
    String bigIdType();

    /**
     * Whether primary keys are declared in CREATE TABLE (SQLite cannot add them later). When false the dialect adds
     * them in {@link #afterLoad} so the bulk load writes into bare heaps.
     */
    boolean keysAtCreate();

    /**
     * Column type of {@code bg_meta}'s key, a primary key: {@code TEXT} where text can be a key, a bounded
     * {@code VARCHAR} where it cannot (MySQL/MariaDB).
     */
    default String metaKeyType() {
        return "TEXT";
    }

    /** Appended to the friendship CREATE TABLE, e.g. SQLite's {@code WITHOUT ROWID}. */
    default String friendshipTableOptions() {
        return "";
    }

    /**
     * Statements that finish a load: keys, indexes, statistics. Each inner list runs in order on one connection; the
     * lists may run concurrently up to {@link #afterLoadParallelism()}.
     */
    List<List<String>> afterLoad(RelationalSchema schema);

    /** How many {@link #afterLoad} groups may run at once. */
    default int afterLoadParallelism() {
        return 1;
    }

    /** A query with one parameter, the table name, that returns a row when the table exists. */
    String tableExistsQuery();

    /** Whether the engine admits one writer at a time, so BG serialises its writes in process instead of retrying. */
    default boolean singleWriter() {
        return false;
    }

    /** Whether the engine takes {@code CROSS JOIN LATERAL}, which the pull feed's query then uses. */
    default boolean lateralJoins() {
        return false;
    }

    /**
     * Whether the driver's {@code ResultSet.getBytes} of a text column returns the text's UTF-8 bytes, so sessions
     * hand member attributes back as bytes and build a String only when someone reads it
     * ({@link org.bgbench.store.Attributes}). False (the default) reads them with {@code getString}. The conformance
     * suite compares the decoded text with the generator's, so a dialect that claims this wrongly fails it.
     */
    default boolean textAsUtf8Bytes() {
        return false;
    }

    /** The bulk path a loader writes through; the sink owns {@code c} and closes it. */
    RowSink openSink(Connection c, RelationalSchema schema) throws SQLException;
}
