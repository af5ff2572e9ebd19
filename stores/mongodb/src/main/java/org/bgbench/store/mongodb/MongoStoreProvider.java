package org.bgbench.store.mongodb;

import com.mongodb.ConnectionString;
import com.mongodb.ReadConcern;
import com.mongodb.ReadConcernLevel;
import com.mongodb.ReadPreference;
import com.mongodb.WriteConcern;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.bgbench.model.InvalidParameterException;
import org.bgbench.store.DataStore;
import org.bgbench.store.FeedDesign;
import org.bgbench.store.StoreProvider;
import org.bgbench.store.StoreSetting;
import org.bgbench.store.StoreSettings;
import org.bgbench.store.StoreTraits;

/** The {@code mongodb} store: MongoDB (or a server speaking its wire protocol) through the official sync driver. */
public final class MongoStoreProvider implements StoreProvider {
    static final String URI = "mongodb.uri";
    static final String DATABASE = "mongodb.database";
    static final String WRITE_CONCERN = "mongodb.write-concern";
    static final String JOURNAL = "mongodb.journal";
    static final String READ_CONCERN = "mongodb.read-concern";
    static final String READ_PREFERENCE = "mongodb.read-preference";
    static final String COMMENTS = "mongodb.comments";
    static final String IMAGES = "mongodb.images";
    static final String FETCH = "mongodb.fetch";
    static final String TOP_K = "mongodb.top-k";
    static final String TIMEOUT = "mongodb.timeout";
    static final String LOAD_BATCH = "mongodb.load-batch";
    static final String DOCUMENT_LOCKS = "mongodb.document-locks";

    @Override
    public String name() {
        return "mongodb";
    }

    @Override
    public String description() {
        return "MongoDB (sync driver 5): the CIKM paper's JSON design, members with arrays of pending and confirmed "
                + "friends and wall resources; write/read concern and read preference as settings";
    }

    @Override
    public List<StoreSetting> settings() {
        List<StoreSetting> all = new ArrayList<>(List.of(
                StoreSetting.of(
                        StoreSetting.Kind.DATABASE_URL,
                        URI,
                        "mongodb://127.0.0.1:27017/",
                        "MongoDB connection string (standalone, replica set with replicaSet=..., or mongos; user "
                                + "and password in it); scripts/ferretdb.sh uri DIR prints a test server's"),
                new StoreSetting(DATABASE, "bg", "database of BG's collections"),
                new StoreSetting(
                        WRITE_CONCERN,
                        "1",
                        "w of every write and of the load: 0 (unacknowledged: the CIKM paper's 'normal'), 1 (the "
                                + "primary acknowledged it: 'safe'), a number of members, or majority"),
                // No default: the server's (MongoDB journals w:majority writes by default).
                new StoreSetting(
                        JOURNAL,
                        null,
                        "j of the write concern: true waits for the journal, false does not; unset leaves it to the "
                                + "server"),
                new StoreSetting(
                        READ_CONCERN,
                        "local",
                        "read concern of the actions' reads: local, available, majority, linearizable (with "
                                + "read-preference primary), or server (the server's default)"),
                new StoreSetting(
                        READ_PREFERENCE,
                        "primary",
                        "where the actions' reads go: primary, primaryPreferred, secondary, secondaryPreferred, "
                                + "nearest (BG's own checks always read the primary)"),
                new StoreSetting(
                        COMMENTS,
                        "collection",
                        "collection = comments in their own collection, indexed by resource; embedded = an array "
                                + "in the resource document (CIKM section B discusses both)"),
                new StoreSetting(
                        IMAGES,
                        "inline",
                        "inline = profile image and thumbnail as binary fields of the member document; gridfs = "
                                + "GridFS files referenced from it (CIKM section C)"),
                new StoreSetting(
                        FETCH,
                        "in",
                        "documents known by id (LF's and VFR's members, VTR's resources with top-k=wall, VNF's "
                                + "resources): in = one $in query; each = one query per id (CIKM section D.2)"),
                new StoreSetting(
                        TOP_K,
                        "index",
                        "VTR: index = the wall's k newest resources from the index on (walluserid, _id); wall = the "
                                + "k largest ids of the member's wallResourceIds, then those resources"),
                new StoreSetting(
                        TIMEOUT,
                        null,
                        "longest an action may take (server selection, socket reads); at least 1s; default "
                                + "max(10s, 100·β)"),
                new StoreSetting(LOAD_BATCH, "1000", "documents per unordered insertMany of the load (1 to 100000)"),
                new StoreSetting(
                        DOCUMENT_LOCKS,
                        "false",
                        "true = BG sends the updates of one document one at a time: for servers that lose "
                                + "concurrent updates of a document (FerretDB v1 does; MongoDB does not and needs "
                                + "false)")));
        all.addAll(FeedDesign.settings());
        return List.copyOf(all);
    }

    /** FerretDB took 43,000–50,000 rows/s (docs/benchmarks.md). */
    @Override
    public double loadRowsPerSecond() {
        return 40_000;
    }

    @Override
    public StoreTraits traits() {
        return StoreTraits.SERVER;
    }

    @Override
    public DataStore open(StoreSettings settings) {
        return MongoStore.open(config(settings));
    }

    static MongoConfig config(StoreSettings s) {
        String uriText = s.get(URI, "mongodb://127.0.0.1:27017/").trim();
        ConnectionString uri;
        try {
            uri = new ConnectionString(uriText);
        } catch (IllegalArgumentException e) {
            throw new InvalidParameterException(
                    URI,
                    "expected a connection string such as " + "mongodb://host:27017/ or mongodb+srv://..., got '"
                            + uriText + "': " + e.getMessage());
        }
        String db = s.get(DATABASE, "bg").trim();
        // MongoDB's database name rules: no /\. "$*<>:|? or spaces, under 64 bytes.
        if (!db.matches("[A-Za-z0-9_-]{1,63}")) {
            throw new InvalidParameterException(
                    DATABASE, "expected letters, digits, _ or - (at most 63), got '" + db + "'");
        }
        int batch = s.getInt(LOAD_BATCH, 1000);
        if (batch < 1 || batch > 100_000) {
            throw new InvalidParameterException(LOAD_BATCH, "must be from 1 to 100000, got " + batch);
        }
        ReadPreference pref = readPreference(s.get(READ_PREFERENCE, "primary"));
        ReadConcern rc = readConcern(s.get(READ_CONCERN, "local"));
        if (rc.getLevel() == ReadConcernLevel.LINEARIZABLE && !pref.equals(ReadPreference.primary())) {
            throw new InvalidParameterException(
                    READ_CONCERN,
                    "linearizable reads only from the primary: set " + READ_PREFERENCE
                            + "=primary or another read concern");
        }
        MongoConfig.Design design = new MongoConfig.Design(
                s.getChoice(COMMENTS, "collection", "collection", "embedded").equals("embedded")
                        ? MongoConfig.Comments.EMBEDDED
                        : MongoConfig.Comments.COLLECTION,
                s.getChoice(IMAGES, "inline", "inline", "gridfs").equals("gridfs")
                        ? MongoConfig.Images.GRIDFS
                        : MongoConfig.Images.INLINE,
                s.getChoice(FETCH, "in", "in", "each").equals("each") ? MongoConfig.Fetch.EACH : MongoConfig.Fetch.IN,
                s.getChoice(TOP_K, "index", "index", "wall").equals("wall")
                        ? MongoConfig.TopK.WALL
                        : MongoConfig.TopK.INDEX,
                FeedDesign.from(s));
        return new MongoConfig(
                new MongoConfig.Connection(uri, db, s.timeout(TIMEOUT)),
                new MongoConfig.Concerns(writeConcern(s.get(WRITE_CONCERN, "1"), s.get(JOURNAL)), rc, pref),
                design,
                new MongoConfig.Writes(batch, s.getBoolean(DOCUMENT_LOCKS, false)));
    }

    static WriteConcern writeConcern(String w, String journal) {
        String v = w == null ? "1" : w.trim();
        WriteConcern wc;
        if (v.equalsIgnoreCase("majority")) {
            wc = WriteConcern.MAJORITY;
        } else if (v.matches("\\d{1,2}")) {
            wc = new WriteConcern(Integer.parseInt(v));
        } else {
            throw new InvalidParameterException(
                    WRITE_CONCERN, "expected 0, 1, a number of members or majority, " + "got '" + v + "'");
        }
        if (journal != null && !journal.isBlank()) {
            boolean j = switch (journal.trim().toLowerCase(Locale.ROOT)) {
                case "true", "yes", "on", "1" -> true;
                case "false", "no", "off", "0" -> false;
                default ->
                    throw new InvalidParameterException(JOURNAL, "expected true or false, got '" + journal + "'");
            };
            if (j && !wc.isAcknowledged()) {
                throw new InvalidParameterException(
                        JOURNAL, "true needs an acknowledged write: " + WRITE_CONCERN + "=0 asks for none");
            }
            wc = wc.withJournal(j);
        }
        return wc;
    }

    static ReadConcern readConcern(String v) {
        return switch (v == null ? "local" : v.trim().toLowerCase(Locale.ROOT)) {
            case "local" -> ReadConcern.LOCAL;
            case "available" -> ReadConcern.AVAILABLE;
            case "majority" -> ReadConcern.MAJORITY;
            case "linearizable" -> ReadConcern.LINEARIZABLE;
            case "server", "default" -> ReadConcern.DEFAULT;
            default ->
                throw new InvalidParameterException(
                        READ_CONCERN,
                        "expected local, available, majority, " + "linearizable or server, got '" + v + "'");
        };
    }

    static ReadPreference readPreference(String v) {
        return switch (v == null ? "primary" : v.trim().toLowerCase(Locale.ROOT)) {
            case "primary" -> ReadPreference.primary();
            case "primarypreferred" -> ReadPreference.primaryPreferred();
            case "secondary" -> ReadPreference.secondary();
            case "secondarypreferred" -> ReadPreference.secondaryPreferred();
            case "nearest" -> ReadPreference.nearest();
            default ->
                throw new InvalidParameterException(
                        READ_PREFERENCE,
                        "expected primary, primaryPreferred, " + "secondary, secondaryPreferred or nearest, got '" + v
                                + "'");
        };
    }
}
