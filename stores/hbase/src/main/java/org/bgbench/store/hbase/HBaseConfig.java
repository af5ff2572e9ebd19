package org.bgbench.store.hbase;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import org.apache.hadoop.hbase.client.Durability;
import org.bgbench.store.FeedDesign;

/**
 * The settings of one {@code hbase} store (see {@link HBaseStoreProvider} for what each means).
 *
 * @param connection how to reach the cluster
 * @param schema     the tables BG creates and the design they hold
 * @param access     how the load and the actions read and write
 */
record HBaseConfig(Connection connection, Schema schema, Access access) {
    /**
     * Where the cluster is.
     *
     * @param quorum    ZooKeeper hosts
     * @param zkPort    ZooKeeper client port
     * @param timeout   the client's operation timeout (one call, retries included)
     * @param serverDir the scripts/hbase.sh directory of a local server, or null
     */
    record Connection(List<String> quorum, int zkPort, Duration timeout, Path serverDir) {
        Connection {
            quorum = List.copyOf(quorum);
        }
    }

    /**
     * BG's tables.
     *
     * @param prefix  prefix of every table name BG creates
     * @param design  the scalability paper's Basic or Manual design (section D.1)
     * @param regions regions each large table is pre-split into
     * @param feed    feed following design (dissertation 8.4.2)
     */
    record Schema(String prefix, Design design, int regions, FeedDesign feed) {}

    /**
     * Reads and writes.
     *
     * @param fetch       BatchedGet (one multi-get for a list) or SingleGet (one get per element), section D.1 on LF
     * @param writeBuffer bytes a loading thread's buffered mutators collect before sending
     * @param loadWal     whether the load writes the write-ahead log (else it skips it and flushes at the end);
     *                    null: for small graphs only
     * @param durability  the write-ahead-log durability of the actions' writes
     */
    record Access(Fetch fetch, long writeBuffer, Boolean loadWal, Durability durability) {}

    enum Design {
        /** Counts derived at read time from the friend, invitation and wall rows. */
        BASIC,
        /** Counts kept in the member row, changed by every write that changes a list. */
        MANUAL
    }

    enum Fetch {
        BATCHED,
        SINGLE
    }

    // The parts' settings, read where they are used.

    List<String> quorum() {
        return connection.quorum();
    }

    int zkPort() {
        return connection.zkPort();
    }

    Duration timeout() {
        return connection.timeout();
    }

    Path serverDir() {
        return connection.serverDir();
    }

    String prefix() {
        return schema.prefix();
    }

    Design design() {
        return schema.design();
    }

    int regions() {
        return schema.regions();
    }

    FeedDesign feed() {
        return schema.feed();
    }

    Fetch fetch() {
        return access.fetch();
    }

    long writeBuffer() {
        return access.writeBuffer();
    }

    Boolean loadWal() {
        return access.loadWal();
    }

    Durability durability() {
        return access.durability();
    }

    /** Recorded in the meta table: a store loaded under another design is not reused. */
    String describe() {
        return "design=" + design().name().toLowerCase(Locale.ROOT) + " " + feed().describe();
    }

    /** Whether a load of {@code rows} rows writes the write-ahead log. */
    boolean loadWal(long rows) {
        Boolean wal = access.loadWal();
        return wal == null ? rows <= HBaseStore.SMALL_ROWS : wal;
    }

    boolean manual() {
        return schema.design() == Design.MANUAL;
    }
}
