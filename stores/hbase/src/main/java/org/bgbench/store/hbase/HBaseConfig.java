package org.bgbench.store.hbase;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.bgbench.store.FeedDesign;

/**
 * The settings of one {@code hbase} store (see {@link HBaseStoreProvider} for what each means).
 *
 * @param quorum      ZooKeeper hosts
 * @param zkPort      ZooKeeper client port
 * @param prefix      prefix of every table name BG creates
 * @param design      the scalability paper's Basic or Manual design (section D.1)
 * @param fetch       BatchedGet (one multi-get for a list) or SingleGet (one get per element), section D.1 on LF
 * @param writeBuffer bytes a loading thread's buffered mutators collect before sending
 * @param timeout     the client's operation timeout (one call, retries included)
 * @param regions     regions each large table is pre-split into
 * @param loadWal     whether the load writes the write-ahead log (else it skips it and flushes at the end); null:
 *                    for small graphs only
 * @param durability  the write-ahead-log durability of the actions' writes
 * @param feed        feed following design (dissertation 8.4.2)
 * @param serverDir   the scripts/hbase.sh directory of a local server, or null
 */
record HBaseConfig(List<String> quorum, int zkPort, String prefix, Design design, Fetch fetch, long writeBuffer,
                   Duration timeout, int regions, Boolean loadWal, org.apache.hadoop.hbase.client.Durability durability,
                   FeedDesign feed, Path serverDir) {
    enum Design {
        /** Counts derived at read time from the friend, invitation and wall rows. */
        BASIC,
        /** Counts kept in the member row, changed by every write that changes a list. */
        MANUAL
    }

    enum Fetch {
        BATCHED, SINGLE
    }

    /** Recorded in the meta table: a store loaded under another design is not reused. */
    String describe() {
        return "design=" + design.name().toLowerCase(java.util.Locale.ROOT) + " " + feed.describe();
    }

    /** Whether a load of {@code rows} rows writes the write-ahead log. */
    boolean loadWal(long rows) {
        return loadWal == null ? rows <= HBaseStore.SMALL_ROWS : loadWal;
    }

    boolean manual() {
        return design == Design.MANUAL;
    }
}
