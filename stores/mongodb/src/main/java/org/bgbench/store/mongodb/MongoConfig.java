package org.bgbench.store.mongodb;

import com.mongodb.ConnectionString;
import com.mongodb.ReadConcern;
import com.mongodb.ReadPreference;
import com.mongodb.WriteConcern;
import java.time.Duration;
import org.bgbench.store.FeedDesign;

/**
 * What the {@code mongodb} store was configured with ({@link MongoStoreProvider} parses and checks the settings).
 *
 * @param uri             the connection string as given
 * @param database        the database of BG's collections
 * @param writeConcern    the write concern of every action and of the load
 * @param readConcern     the read concern of the actions' reads
 * @param readPreference  where the actions' reads go
 * @param comments        comments in their own collection or embedded in their resource (CIKM section B)
 * @param images          images as binary fields of the member document or as GridFS files (CIKM section C)
 * @param fetch           documents known by id (LF's and VFR's members, VTR's and VNF's resources) fetched with one
 *                        {@code $in} query or one query each (CIKM section D.2)
 * @param topK            VTR from the resources' wall index, or from the member's {@code wallResourceIds}
 * @param feed            the feed-following design
 * @param timeout         the longest an action may take before it fails
 * @param loadBatch       documents per {@code insertMany} of the load
 * @param documentLocks   updates of one document from this process one at a time ({@link DocumentLocks})
 */
record MongoConfig(ConnectionString uri, String database, WriteConcern writeConcern, ReadConcern readConcern,
                   ReadPreference readPreference, Comments comments, Images images, Fetch fetch, TopK topK,
                   FeedDesign feed, Duration timeout, int loadBatch, boolean documentLocks) {

    enum Comments { COLLECTION, EMBEDDED }

    enum Images { INLINE, GRIDFS }

    enum Fetch { IN, EACH }

    enum TopK { INDEX, WALL }

    /**
     * The physical design, recorded with the loaded graph: a database loaded for one design is not reused by another.
     * Concerns and preferences are not part of it (they change how the same documents are read and written).
     */
    String describe() {
        // fetch and top-k read the same documents: not part of the design.
        return "comments=" + comments.name().toLowerCase(java.util.Locale.ROOT) + ";images="
                + images.name().toLowerCase(java.util.Locale.ROOT) + ";" + feed.describe();
    }

    /** host:port of the first seed, for messages. */
    String where() {
        return String.join(",", uri.getHosts());
    }
}
