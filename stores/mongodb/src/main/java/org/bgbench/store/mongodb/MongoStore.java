package org.bgbench.store.mongodb;

import static org.bgbench.store.mongodb.MongoSchema.*;

import com.mongodb.ErrorCategory;
import com.mongodb.MongoClientSettings;
import com.mongodb.MongoCommandException;
import com.mongodb.MongoException;
import com.mongodb.MongoSecurityException;
import com.mongodb.MongoTimeoutException;
import com.mongodb.MongoWriteConcernException;
import com.mongodb.MongoWriteException;
import com.mongodb.ReadConcern;
import com.mongodb.ReadPreference;
import com.mongodb.WriteConcern;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoDatabase;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.Projections;
import com.mongodb.client.model.UpdateOptions;
import com.mongodb.client.model.Updates;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.bgbench.model.GraphSpec;
import org.bgbench.model.generator.SocialGraph;
import org.bgbench.store.DataStore;
import org.bgbench.store.ErrorText;
import org.bgbench.store.GraphLoader;
import org.bgbench.store.StateMark;
import org.bgbench.store.StoreCounts;
import org.bgbench.store.StoreException;
import org.bgbench.store.StoreSession;
import org.bson.Document;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * MongoDB through the official sync driver: one {@link MongoClient} (its connection pool is shared by every BG thread),
 * the collections of {@link MongoSchema}, BG's own records in {@code bg_meta}.
 */
final class MongoStore implements DataStore {
    private static final Logger LOG = LoggerFactory.getLogger(MongoStore.class);
    private final MongoConfig config;
    private final MongoClient client;
    private final MongoDatabase db;
    /**
     * The schema, the load, index builds, counts and BG's records go through a second client whose requests may take
     * {@link #ADMIN_TIMEOUT}: an index build or a count over a million documents outlasts an action's timeout.
     */
    private final MongoClient admin;

    private final MongoDatabase adminDb;
    static final Duration ADMIN_TIMEOUT = Duration.ofMinutes(30);
    /** Member ids are [offset, offset + members); pages' account ids follow. Read from bg_meta, -1 until known. */
    private volatile int memberOffset = -1;

    private volatile int memberCount = -1;
    private volatile int attributeCount = -1;
    private String ferret;
    private final DocumentLocks locks;

    private MongoStore(MongoConfig config, MongoClient client, MongoClient admin) {
        this.config = config;
        this.client = client;
        this.admin = admin;
        this.locks = DocumentLocks.of(config.documentLocks());
        this.db = client.getDatabase(config.database())
                .withWriteConcern(config.writeConcern())
                .withReadConcern(config.readConcern())
                .withReadPreference(config.readPreference());
        this.adminDb = admin.getDatabase(config.database())
                .withWriteConcern(config.writeConcern())
                .withReadConcern(config.readConcern())
                .withReadPreference(config.readPreference());
    }

    static MongoStore open(MongoConfig config) {
        MongoClient client = connect(config, config.timeout().toMillis());
        MongoClient admin = null;
        try {
            admin = connect(config, Math.max(config.timeout().toMillis(), ADMIN_TIMEOUT.toMillis()));
            MongoStore s = new MongoStore(config, client, admin);
            s.check();
            return s;
        } catch (RuntimeException e) {
            client.close();
            if (admin != null) {
                admin.close();
            }
            throw e;
        }
    }

    private static MongoClient connect(MongoConfig config, long readMs) {
        long ms = config.timeout().toMillis();
        MongoClientSettings.Builder b = MongoClientSettings.builder()
                .applyConnectionString(config.uri())
                .writeConcern(config.writeConcern())
                .readConcern(config.readConcern())
                .readPreference(config.readPreference())
                .applyToClusterSettings(c -> c.serverSelectionTimeout(ms, TimeUnit.MILLISECONDS))
                .applyToSocketSettings(s -> s.connectTimeout((int) Math.min(ms, 10_000), TimeUnit.MILLISECONDS)
                        .readTimeout((int) Math.min(readMs, Integer.MAX_VALUE), TimeUnit.MILLISECONDS));
        if (config.uri().getMaxConnectionPoolSize() == null) {
            // Every BG thread holds a connection while it waits; the driver's 100 would queue threads beyond it.
            b.applyToConnectionPoolSettings(p -> p.maxSize(1024).maxWaitTime(ms, TimeUnit.MILLISECONDS));
        }
        try {
            return MongoClients.create(b.build());
        } catch (IllegalArgumentException | MongoException e) {
            throw new StoreException(
                    MongoStoreProvider.URI + ": cannot use '" + config.uri() + "': " + e.getMessage(), e);
        }
    }

    /**
     * Fails at open, with one line each, for what would otherwise fail every action: no server, a refused login, a
     * write concern the deployment cannot satisfy (checked with a write that changes nothing).
     */
    private void check() {
        try {
            db.runCommand(new Document("ping", 1));
        } catch (MongoTimeoutException e) {
            throw new StoreException(
                    "cannot reach MongoDB at " + config.where() + " (" + MongoStoreProvider.URI
                            + ") within " + config.timeout().toSeconds() + " s: " + unreachable()
                            + "; start a server (scripts/ferretdb.sh start DIR prints a test server's connection string) "
                            + "or correct the setting",
                    e);
        } catch (MongoSecurityException e) {
            throw new StoreException(
                    "MongoDB at " + config.where() + " refused the login of "
                            + (config.uri().getUsername() == null
                                    ? "no user"
                                    : "user '" + config.uri().getUsername() + "'")
                            + " (" + MongoStoreProvider.URI + "): " + rootMessage(e),
                    e);
        } catch (MongoCommandException e) {
            if (config.uri().getUsername() != null) {
                // FerretDB passes the user on to PostgreSQL, whose refusal comes back as a command error.
                throw new StoreException(
                        "MongoDB at " + config.where() + " refused the connection of user '"
                                + config.uri().getUsername() + "' (" + MongoStoreProvider.URI + "): "
                                + oneLine(e.getErrorMessage()),
                        e);
            }
            throw new StoreException(
                    "MongoDB at " + config.where() + " refused ping: " + oneLine(e.getErrorMessage()), e);
        }
        Document hello = db.runCommand(new Document("hello", 1));
        String kind = serverKind(hello);
        if (config.writeConcern().getWObject() instanceof Integer w && w > 1) {
            int bearing = dataBearingMembers(hello);
            if (bearing >= 0 && w > bearing) {
                throw refusedWriteConcern(
                        kind + " has " + bearing + " data-bearing member" + (bearing == 1 ? "" : "s")
                                + (bearing == 1 ? " (a standalone server acknowledges at most w=1)" : ""),
                        null);
            }
        }
        ferret = ferretdbVersion();
        if (ferret != null && !config.documentLocks()) {
            LOG.warn(
                    "mongodb: FerretDB {} loses concurrent updates of one document; set {}=true",
                    ferret,
                    MongoStoreProvider.DOCUMENT_LOCKS);
        }
        if (ferret != null) {
            LOG.warn(
                    "mongodb: the server at {} is FerretDB {}, not MongoDB: it has no replica sets or multi-document "
                            + "transactions and ignores write concern, read concern and read preference",
                    config.where(),
                    ferret);
        }
        if (config.writeConcern().isAcknowledged()) {
            try {
                db.getCollection(META).updateOne(Filters.eq(ID, -1), Updates.set("probe", 1));
            } catch (MongoWriteConcernException e) {
                throw refusedWriteConcern(e.getWriteConcernError().getMessage(), e);
            } catch (MongoCommandException e) {
                throw refusedWriteConcern(e.getErrorMessage(), e);
            } catch (MongoSecurityException e) {
                throw new StoreException(
                        "MongoDB at " + config.where() + " refused the login (" + MongoStoreProvider.URI + "): "
                                + rootMessage(e),
                        e);
            }
        }
    }

    /** "a replica set", "a sharded cluster (mongos)" or "a standalone server", from the server's hello. */
    private static String serverKind(Document hello) {
        if (hello.containsKey("setName")) {
            return "replica set " + hello.getString("setName");
        }
        return "isdbgrid".equals(hello.getString("msg")) ? "the sharded cluster (mongos)" : "the standalone server";
    }

    /**
     * Members that can acknowledge a write: a standalone server 1, a replica set its electable and passive members
     * (not arbiters); -1 behind mongos, which does not say.
     */
    private static int dataBearingMembers(Document hello) {
        if ("isdbgrid".equals(hello.getString("msg"))) {
            return -1;
        }
        if (!hello.containsKey("setName")) {
            return 1;
        }
        return hello.getList("hosts", String.class, List.of()).size()
                + hello.getList("passives", String.class, List.of()).size();
    }

    /** FerretDB's version when the server is FerretDB (its buildInfo says so), else null. */
    private String ferretdbVersion() {
        try {
            Object v = db.runCommand(new Document("buildInfo", 1)).get("ferretdbVersion");
            // An embedded build (BG's launcher) does not know its version.
            return v == null ? null : "unknown".equals(v.toString()) ? "(version not reported)" : v.toString();
        } catch (MongoException e) {
            return null;
        }
    }

    /** Non-null when the server is FerretDB: its version. */
    String ferretdb() {
        return ferret;
    }

    private StoreException refusedWriteConcern(String why, MongoException e) {
        return new StoreException(
                MongoStoreProvider.WRITE_CONCERN + "=" + describe(config.writeConcern())
                        + ": MongoDB at " + config.where() + " refuses it (" + why
                        + "); use a w it can satisfy (1 on a "
                        + "standalone server, at most the replica set's data-bearing members)",
                e);
    }

    static String describe(WriteConcern wc) {
        Object w = wc.getWObject();
        return (w == null ? "server default" : w.toString())
                + (wc.getJournal() == null ? "" : ", j=" + wc.getJournal());
    }

    /** Why each server could not be reached, from the driver's view of the cluster: "host:port: Connection refused". */
    private String unreachable() {
        List<String> why = new ArrayList<>();
        for (var server : client.getClusterDescription().getServerDescriptions()) {
            Throwable c = server.getException();
            while (c != null && c.getCause() != null && c.getCause() != c) {
                c = c.getCause();
            }
            why.add(server.getAddress() + ": "
                    + (c == null ? "no answer (" + server.getState() + ")" : oneLine(ErrorText.of(c))));
        }
        return why.isEmpty() ? "no server answered" : String.join("; ", why);
    }

    /** A server's error message on one line, without FerretDB's Go call-site prefixes ("[file.go:12 f]"). */
    static String oneLine(String message) {
        if (message == null) {
            return "no message";
        }
        return message.replaceAll("\\[[^\\]]*\\.go:\\d+[^\\]]*\\]\\s*", "")
                .replaceAll("\\s+", " ")
                .trim();
    }

    /** The server's own words when it refused (a command error in the cause chain), else the innermost message. */
    private static String rootMessage(Throwable e) {
        Throwable c = e;
        while (c.getCause() != null && c.getCause() != c) {
            if (c instanceof MongoCommandException m) {
                return m.getErrorCodeName() + ": " + oneLine(m.getErrorMessage());
            }
            c = c.getCause();
        }
        if (c instanceof MongoCommandException m) {
            return m.getErrorCodeName() + ": " + oneLine(m.getErrorMessage());
        }
        return oneLine(ErrorText.of(c));
    }

    MongoConfig config() {
        return config;
    }

    /** The database through the client with the long timeout (the load, tests). */
    MongoDatabase database() {
        return adminDb;
    }

    // ---- schema and BG's own records --------------------------------------------------------------------------------

    /** BG's own records: acknowledged by a majority and read from the primary, whatever the actions use. */
    private MongoCollection<Document> meta() {
        return adminDb.getCollection(META)
                .withWriteConcern(WriteConcern.MAJORITY)
                .withReadPreference(ReadPreference.primary())
                .withReadConcern(ReadConcern.LOCAL);
    }

    /** The meta document's count of the mark's changes, and the prefix of the documents claiming one. */
    private static final String MARK_GENERATION = "mark_generation";

    private static final String MARK_CLAIM = "mark-claim-";

    private Optional<Document> metaDoc() {
        return Optional.ofNullable(meta().find(Filters.eq(ID, 0)).first());
    }

    @Override
    public void createSchema(GraphSpec spec) {
        Set<String> existing = new HashSet<>();
        MongoDatabase db = adminDb;
        db.listCollectionNames().into(new ArrayList<>()).forEach(existing::add);
        // Every collection of any design, so a database loaded with another design is emptied too.
        for (String c : List.of(
                MEMBERS,
                RESOURCES,
                COMMENTS,
                PAGES,
                SHARES,
                FEEDS,
                META,
                IMAGE_BUCKET + ".files",
                IMAGE_BUCKET + ".chunks")) {
            if (existing.contains(c)) {
                db.getCollection(c).drop();
            }
        }
        for (String c : MongoSchema.collections(config)) {
            db.createCollection(c);
        }
        meta().insertOne(new Document(ID, 0)
                .append("design", config.describe())
                .append("members", spec.members())
                .append("member_offset", spec.memberIdOffset())
                .append("attributes", spec.attributeCount()));
        memberOffset = spec.memberIdOffset();
        memberCount = spec.members();
        attributeCount = spec.attributeCount();
    }

    @Override
    public void dropSchema() {
        adminDb.drop();
    }

    @Override
    public Optional<String> loadedGraph() {
        return metaDoc()
                .filter(m -> config.describe().equals(m.getString("design")))
                .map(m -> m.getString("graph"));
    }

    @Override
    public Optional<String> stateMark() {
        return metaDoc().map(m -> m.getString("mark"));
    }

    @Override
    public void writeStateMark(String mark) {
        if (meta().updateOne(
                                Filters.eq(ID, 0),
                                Updates.combine(Updates.set("mark", mark), Updates.inc(MARK_GENERATION, 1)))
                        .getMatchedCount()
                == 0) {
            throw noSchemaForTheMark();
        }
    }

    private StoreException noSchemaForTheMark() {
        return new StoreException("database " + config.database() + " holds no BG schema to write the state mark into");
    }

    /**
     * Every change of the mark counts a generation; a compare-and-set claims the change away from its generation by
     * inserting a document whose {@code _id} names it, which the unique {@code _id} lets one caller do. An update
     * filtered on the old mark alone is one atomic step on MongoDB but not on FerretDB, which reads the document and
     * writes it back in two. The claim of the generation before is deleted: only the latest is needed.
     */
    @Override
    public boolean replaceStateMark(String expected, String mark) {
        Document m = metaDoc().orElseThrow(this::noSchemaForTheMark);
        if (!expected.equals(m.getString("mark"))) {
            return false;
        }
        Number g = m.get(MARK_GENERATION, Number.class);
        long generation = g == null ? 0 : g.longValue();
        try {
            meta().insertOne(new Document(ID, MARK_CLAIM + generation));
        } catch (MongoWriteException e) {
            if (e.getError().getCategory() == ErrorCategory.DUPLICATE_KEY) {
                return false;
            }
            throw e;
        }
        meta().updateOne(
                        Filters.eq(ID, 0),
                        Updates.combine(Updates.set("mark", mark), Updates.set(MARK_GENERATION, generation + 1)));
        meta().deleteOne(Filters.eq(ID, MARK_CLAIM + (generation - 1)));
        return true;
    }

    @Override
    public GraphLoader newLoader(SocialGraph graph) {
        return new MongoLoader(this, graph);
    }

    /** Builds the secondary indexes (after the load, as MongoDB advises for bulk loads), then marks the graph. */
    @Override
    public void finishLoad(SocialGraph graph) {
        for (String c : MongoSchema.collections(config)) {
            var idx = MongoSchema.indexes(c, config);
            if (!idx.isEmpty()) {
                adminDb.getCollection(c).createIndexes(idx);
            }
        }
        // One document, one update: the graph and its mark change together.
        meta().updateOne(
                        Filters.eq(ID, 0),
                        Updates.combine(
                                Updates.set("graph", graph.spec().fingerprint()),
                                Updates.set(
                                        "mark",
                                        StateMark.loaded(graph.spec().fingerprint())
                                                .text())),
                        new UpdateOptions().upsert(false));
    }

    @Override
    public void clearShares() {
        adminDb.getCollection(SHARES).deleteMany(new Document());
        if (config.feed().push()) {
            adminDb.getCollection(FEEDS).deleteMany(new Document());
        }
    }

    // ---- counts ---------------------------------------------------------------------------------------------------

    /**
     * Exact totals: one pass over the member documents for the sizes of their friend, invitation and page arrays (the
     * only way to count array elements that works on every server speaking the protocol), {@code countDocuments} for
     * the rest.
     */
    @Override
    public StoreCounts counts() {
        MongoDatabase primary =
                adminDb.withReadPreference(ReadPreference.primary()).withReadConcern(ReadConcern.LOCAL);
        long members = 0;
        long friends = 0;
        long pending = 0;
        long follows = 0;
        for (Document m : primary.getCollection(MEMBERS)
                .find()
                .projection(Projections.include(CONFIRMED, PENDING, FOLLOWS))
                .batchSize(2000)) {
            members++;
            friends += size(m, CONFIRMED);
            pending += size(m, PENDING);
            follows += size(m, FOLLOWS);
        }
        long resources = primary.getCollection(RESOURCES).countDocuments();
        long pages = primary.getCollection(PAGES).countDocuments();
        long pageResources =
                pages == 0 ? 0 : primary.getCollection(RESOURCES).countDocuments(Filters.gte(WALL_USER, firstPageId()));
        long comments = 0;
        if (config.comments() == MongoConfig.Comments.COLLECTION) {
            comments = primary.getCollection(COMMENTS).countDocuments();
        } else {
            for (Document r : primary.getCollection(RESOURCES)
                    .find()
                    .projection(Projections.include(EMBEDDED))
                    .batchSize(2000)) {
                comments += size(r, EMBEDDED);
            }
        }
        long shares = primary.getCollection(SHARES).countDocuments();
        return new StoreCounts(
                new StoreCounts.Social(members, friends / 2, pending, resources - pageResources, comments),
                new StoreCounts.Feed(pages, follows, pageResources, shares));
    }

    private static int size(Document d, String field) {
        List<?> l = d.getList(field, Object.class);
        return l == null ? 0 : l.size();
    }

    // ---- sessions -------------------------------------------------------------------------------------------------

    /** The first page's account id: pages follow the members. */
    int firstPageId() {
        if (memberOffset < 0) {
            Document m = metaDoc()
                    .orElseThrow(() -> new StoreException(
                            "database " + config.database() + " holds no BG schema; run bg load first"));
            attributeCount = m.getInteger("attributes");
            memberCount = m.getInteger("members");
            memberOffset = m.getInteger("member_offset");
        }
        return memberOffset + memberCount;
    }

    @Override
    public StoreSession openSession() {
        int first = firstPageId();
        return new MongoSession(db, config, first, attributeCount, locks, ferret != null);
    }

    /** BG's own checks read the primary, with read concern local: every acknowledged write is seen. */
    @Override
    public StoreSession openConsistentSession() {
        int first = firstPageId();
        return new MongoSession(
                db.withReadPreference(ReadPreference.primary()).withReadConcern(ReadConcern.LOCAL),
                config,
                first,
                attributeCount,
                locks,
                ferret != null);
    }

    @Override
    public Duration callTimeout() {
        return config.timeout();
    }

    @Override
    public void close() {
        client.close();
        admin.close();
    }
}
