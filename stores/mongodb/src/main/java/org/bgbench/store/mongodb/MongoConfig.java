package org.bgbench.store.mongodb;

import com.mongodb.ConnectionString;
import com.mongodb.ReadConcern;
import com.mongodb.ReadPreference;
import com.mongodb.WriteConcern;
import java.time.Duration;
import java.util.Locale;
import org.bgbench.store.FeedDesign;

/**
 * What the {@code mongodb} store was configured with ({@link MongoStoreProvider} parses and checks the settings).
 *
 * @param connection the server and database, and how long an action may take
 * @param concerns   the actions' write and read concerns and read preference
 * @param design     the physical design (CIKM sections B to D) and feed following's
 * @param writes     how the load and the actions write
 */
record MongoConfig(Connection connection, Concerns concerns, Design design, Writes writes) {

    /**
     * Where BG's collections are.
     *
     * @param uri      the connection string as given
     * @param database the database of BG's collections
     * @param timeout  the longest an action may take before it fails
     */
    record Connection(ConnectionString uri, String database, Duration timeout) {}

    /**
     * How the actions read and write.
     *
     * @param writeConcern   the write concern of every action and of the load
     * @param readConcern    the read concern of the actions' reads
     * @param readPreference where the actions' reads go
     */
    record Concerns(WriteConcern writeConcern, ReadConcern readConcern, ReadPreference readPreference) {}

    /**
     * The documents' shape and how the actions find them.
     *
     * @param comments comments in their own collection or embedded in their resource (CIKM section B)
     * @param images   images as binary fields of the member document or as GridFS files (CIKM section C)
     * @param fetch    documents known by id (LF's and VFR's members, VTR's and VNF's resources) fetched with one
     *                 {@code $in} query or one query each (CIKM section D.2)
     * @param topK     VTR from the resources' wall index, or from the member's {@code wallResourceIds}
     * @param feed     the feed-following design
     */
    record Design(Comments comments, Images images, Fetch fetch, TopK topK, FeedDesign feed) {}

    /**
     * How writes are sent.
     *
     * @param loadBatch     documents per {@code insertMany} of the load
     * @param documentLocks updates of one document from this process one at a time ({@link DocumentLocks})
     */
    record Writes(int loadBatch, boolean documentLocks) {}

    enum Comments {
        COLLECTION,
        EMBEDDED
    }

    enum Images {
        INLINE,
        GRIDFS
    }

    enum Fetch {
        IN,
        EACH
    }

    enum TopK {
        INDEX,
        WALL
    }

    // The parts' settings, read where they are used.

    ConnectionString uri() {
        return connection.uri();
    }

    String database() {
        return connection.database();
    }

    Duration timeout() {
        return connection.timeout();
    }

    WriteConcern writeConcern() {
        return concerns.writeConcern();
    }

    ReadConcern readConcern() {
        return concerns.readConcern();
    }

    ReadPreference readPreference() {
        return concerns.readPreference();
    }

    Comments comments() {
        return design.comments();
    }

    Images images() {
        return design.images();
    }

    Fetch fetch() {
        return design.fetch();
    }

    TopK topK() {
        return design.topK();
    }

    FeedDesign feed() {
        return design.feed();
    }

    int loadBatch() {
        return writes.loadBatch();
    }

    boolean documentLocks() {
        return writes.documentLocks();
    }

    /**
     * The physical design, recorded with the loaded graph: a database loaded for one design is not reused by another.
     * Concerns and preferences are not part of it (they change how the same documents are read and written).
     */
    String describe() {
        // fetch and top-k read the same documents: not part of the design.
        return "comments=" + comments().name().toLowerCase(Locale.ROOT) + ";images="
                + images().name().toLowerCase(Locale.ROOT) + ";" + feed().describe();
    }

    /** host:port of the first seed, for messages. */
    String where() {
        return String.join(",", uri().getHosts());
    }
}
