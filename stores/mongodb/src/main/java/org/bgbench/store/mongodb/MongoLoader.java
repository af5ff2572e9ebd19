package org.bgbench.store.mongodb;

import static org.bgbench.store.mongodb.MongoSchema.*;

import com.mongodb.MongoException;
import com.mongodb.WriteConcern;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoDatabase;
import com.mongodb.client.gridfs.GridFSBucket;
import com.mongodb.client.gridfs.GridFSBuckets;
import com.mongodb.client.model.InsertManyOptions;
import java.io.ByteArrayInputStream;
import java.util.ArrayList;
import java.util.List;
import org.bgbench.model.generator.SocialGraph;
import org.bgbench.store.ErrorText;
import org.bgbench.store.GraphLoader;
import org.bgbench.store.LoadProgress;
import org.bgbench.store.MemberAttributes;
import org.bgbench.store.StoreException;
import org.bson.Document;
import org.bson.types.Binary;

/**
 * The bulk load: unordered {@code insertMany} of {@code mongodb.load-batch} documents per collection, one loader per
 * BG loading thread. A member document carries her complete arrays (each loader knows them from the generator, so no
 * document is updated after it is written); secondary indexes are built afterwards ({@link MongoStore#finishLoad}).
 */
final class MongoLoader implements GraphLoader {
    /** Bytes of documents per insertMany: well under MongoDB's 48 MB message limit. */
    private static final int BATCH_BYTES = 8 << 20;

    private final SocialGraph graph;
    private final boolean embedded;
    private final int perBatch;
    private final GridFSBucket images;
    private final Batch members;
    private final Batch resources;
    private final Batch comments;
    private final Batch pages;
    private final String[] attributes;
    private long rows;

    MongoLoader(MongoStore store, SocialGraph graph) {
        MongoConfig c = store.config();
        // The load is acknowledged even when the actions' writes are not (w:0): the sanity check counts after it.
        MongoDatabase db = c.writeConcern().isAcknowledged()
                ? store.database()
                : store.database().withWriteConcern(WriteConcern.W1);
        this.graph = graph;
        this.embedded = c.comments() == MongoConfig.Comments.EMBEDDED;
        this.perBatch = c.loadBatch();
        this.images = c.images() == MongoConfig.Images.GRIDFS ? GridFSBuckets.create(db, IMAGE_BUCKET) : null;
        this.members = new Batch(db.getCollection(MEMBERS));
        this.resources = new Batch(db.getCollection(RESOURCES));
        this.comments = new Batch(db.getCollection(COMMENTS));
        this.pages = new Batch(db.getCollection(PAGES));
        this.attributes = new String[graph.attributeCount()];
    }

    @Override
    public void load(int from, int to, LoadProgress progress) {
        // A loader may be given several ranges one after the other: report only what this call writes.
        long reported = rows;
        for (int i = from; i < to; i++) {
            loadMember(i);
            if ((i - from + 1) % 64 == 0) {
                progress.rows(rows - reported);
                reported = rows;
            }
        }
        graph.forEachPageLoadedWith(from, to, this::loadPage);
        members.flush();
        resources.flush();
        comments.flush();
        pages.flush();
        progress.rows(rows - reported);
    }

    private void loadMember(int index) {
        int id = graph.memberId(index);
        graph.attributes(index, attributes);
        Document m = new Document(ID, id);
        int bytes = 64;
        for (int a = 0; a < attributes.length; a++) {
            m.append(MemberAttributes.name(a), attributes[a]);
            bytes += 16 + attributes[a].length();
        }
        bytes += image(m, graph.profileImage(index), PIC, PIC_ID, "profile-" + id);
        bytes += image(m, graph.thumbnail(index), THUMB, THUMB_ID, "thumbnail-" + id);
        List<Integer> friends = new ArrayList<>();
        graph.forEachInitialFriend(index, f -> friends.add(graph.memberId(f)));
        List<Integer> inviters = new ArrayList<>();
        graph.forEachInitialInviter(index, f -> inviters.add(graph.memberId(f)));
        List<Long> wall = new ArrayList<>(graph.resourcesPerMember());
        for (int j = 0; j < graph.resourcesPerMember(); j++) {
            wall.add(graph.resourceId(index, j));
        }
        List<Integer> followed = new ArrayList<>();
        graph.forEachFollowedPage(index, p -> followed.add(graph.accountId(graph.pageAccount(p))));
        m.append(PENDING, inviters)
                .append(CONFIRMED, friends)
                .append(WALL, wall)
                .append(FOLLOWS, followed);
        bytes += 12 * (friends.size() + inviters.size() + followed.size()) + 16 * wall.size();
        members.add(m, bytes);
        // Rows as bg load counts them for its progress line: each friendship once (at its smaller id), each
        // invitation once (at its invitee); follows and pages are not counted.
        int above = 0;
        for (int f : friends) {
            above += f > id ? 1 : 0;
        }
        rows += 1 + above + inviters.size();
        loadWall(id, graph.resourcesPerMember(), wall);
    }

    /** Inline: a binary field; gridfs: a GridFS file, its id in the document. The bytes the document grows by. */
    private int image(Document m, byte[] bytes, String inline, String fileId, String name) {
        if (bytes == null) {
            return 0;
        }
        if (images == null) {
            m.append(inline, new Binary(bytes));
            return bytes.length + 24;
        }
        m.append(fileId, images.uploadFromStream(name, new ByteArrayInputStream(bytes)));
        return 24;
    }

    private void loadPage(int p) {
        int id = graph.accountId(graph.pageAccount(p));
        List<Integer> followers = new ArrayList<>();
        graph.forEachFollower(p, m -> followers.add(graph.memberId(m)));
        pages.add(
                new Document(ID, id).append(NAME, graph.pageName(p)).append(FOLLOWERS, followers),
                64 + 12 * followers.size());
        List<Long> wall = new ArrayList<>(graph.resourcesPerPage());
        for (int j = 0; j < graph.resourcesPerPage(); j++) {
            wall.add(graph.pageResourceId(p, j));
        }
        loadWall(id, graph.resourcesPerPage(), wall);
    }

    /** A wall's resources, with their comments embedded or in the comments collection. */
    private void loadWall(int wall, int count, List<Long> rids) {
        int perResource = graph.spec().commentsPerResource();
        for (int j = 0; j < count; j++) {
            long r = rids.get(j);
            boolean page = graph.isPageResource(r);
            String type = graph.resourceType(r);
            String body = graph.resourceBody(r);
            String doc = graph.resourceDoc(r);
            Document d = new Document(ID, r)
                    .append(CREATOR, wall)
                    .append(WALL_USER, wall)
                    .append(TYPE, type)
                    .append(BODY, body)
                    .append(DOC, doc);
            int bytes = 96 + type.length() + body.length() + doc.length();
            rows += page ? 0 : 1;
            List<Document> list = embedded ? new ArrayList<>(page ? 0 : perResource) : null;
            for (int k = 0; !page && k < perResource; k++) {
                long mid = graph.commentId(r, k);
                String content = graph.commentContent(mid);
                Document c = MongoSession.commentDocument(
                        mid,
                        r,
                        wall,
                        graph.memberId(graph.commentModifier(mid)),
                        graph.commentTimestamp(mid),
                        content,
                        embedded);
                if (embedded) {
                    list.add(c);
                    bytes += 96 + content.length();
                } else {
                    comments.add(c, 112 + content.length());
                }
                rows++;
            }
            if (embedded) {
                d.append(EMBEDDED, list);
            }
            resources.add(d, bytes);
        }
    }

    /** Documents of one collection, sent as unordered insertMany of at most {@code perBatch} documents. */
    private final class Batch {
        private final MongoCollection<Document> collection;
        private final List<Document> pending = new ArrayList<>();
        private long bytes;

        Batch(MongoCollection<Document> collection) {
            this.collection = collection;
        }

        void add(Document d, int size) {
            if (!pending.isEmpty() && (pending.size() >= perBatch || bytes + size > BATCH_BYTES)) {
                flush();
            }
            pending.add(d);
            bytes += size;
        }

        void flush() {
            if (pending.isEmpty()) {
                return;
            }
            try {
                collection.insertMany(pending, new InsertManyOptions().ordered(false));
            } catch (MongoException e) {
                throw new StoreException(
                        "loading " + collection.getNamespace().getCollectionName() + " into MongoDB " + "failed: "
                                + ErrorText.message(e),
                        e);
            }
            pending.clear();
            bytes = 0;
        }
    }

    @Override
    public void close() {
        // Nothing of its own: a load that failed leaves its unsent documents behind.
    }
}
