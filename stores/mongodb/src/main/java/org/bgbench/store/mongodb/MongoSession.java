package org.bgbench.store.mongodb;

import static org.bgbench.store.mongodb.MongoSchema.*;

import com.mongodb.MongoBulkWriteException;
import com.mongodb.bulk.BulkWriteError;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoDatabase;
import com.mongodb.client.gridfs.GridFSBucket;
import com.mongodb.client.gridfs.GridFSBuckets;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.InsertManyOptions;
import com.mongodb.client.model.Projections;
import com.mongodb.client.model.Sorts;
import com.mongodb.client.model.Updates;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.bgbench.store.Attributes;
import org.bgbench.store.CommentList;
import org.bgbench.store.FeedDesign;
import org.bgbench.store.FeedList;
import org.bgbench.store.MemberAttributes;
import org.bgbench.store.MemberList;
import org.bgbench.store.ProfileView;
import org.bgbench.store.ResourceList;
import org.bgbench.store.StoreException;
import org.bgbench.store.StoreSession;
import org.bson.Document;
import org.bson.conversions.Bson;
import org.bson.types.Binary;
import org.bson.types.ObjectId;

/**
 * The actions on the JSON design (CIKM section B, figure 2). Each write changes one document atomically; AFR and TF
 * change two documents with two updates (no multi-document transaction: the README says what a reader may see
 * between them, and BG's validation judges it).
 */
final class MongoSession implements StoreSession {
    private static final String COMMENT_TYPE = "comment";
    /** MongoDB's duplicate-key error: a feed entry another action pushed already. */
    private static final int DUPLICATE_KEY = 11000;

    private final MongoConfig config;
    private final MongoCollection<Document> members;
    private final MongoCollection<Document> resources;
    private final MongoCollection<Document> comments;
    private final MongoCollection<Document> pages;
    private final MongoCollection<Document> shares;
    private final MongoCollection<Document> feeds;
    private final GridFSBucket images;
    private final boolean embedded;
    private final boolean each;
    private final FeedDesign feed;
    /** Account ids from here on are pages. */
    private final int firstPage;

    private final Bson profileFields;
    private final Bson ownProfileFields;
    private final Bson listedFields;
    private final DocumentLocks locks;
    /** The server's $pull takes values, not conditions (FerretDB v1). */
    private final boolean exactPull;

    MongoSession(
            MongoDatabase db,
            MongoConfig config,
            int firstPage,
            int attributeCount,
            DocumentLocks locks,
            boolean exactPull) {
        this.locks = locks;
        this.exactPull = exactPull;
        this.config = config;
        this.members = db.getCollection(MEMBERS);
        this.resources = db.getCollection(RESOURCES);
        this.comments = db.getCollection(COMMENTS);
        this.pages = db.getCollection(PAGES);
        this.shares = db.getCollection(SHARES);
        this.feeds = db.getCollection(FEEDS);
        this.images = config.images() == MongoConfig.Images.GRIDFS ? GridFSBuckets.create(db, IMAGE_BUCKET) : null;
        this.embedded = config.comments() == MongoConfig.Comments.EMBEDDED;
        this.each = config.fetch() == MongoConfig.Fetch.EACH;
        this.feed = config.feed();
        this.firstPage = firstPage;
        // VP leaves out the thumbnail (and the invitations of another member's profile); LF leaves out the profile
        // image and the arrays (CIKM section C: a projection keeps large fields off the wire).
        List<String> attrs = new ArrayList<>();
        for (int i = 0; i < attributeCount; i++) {
            attrs.add(MemberAttributes.name(i));
        }
        String pic = images == null ? PIC : PIC_ID;
        String thumb = images == null ? THUMB : THUMB_ID;
        List<String> profile = new ArrayList<>(attrs);
        profile.addAll(List.of(pic, CONFIRMED, WALL));
        this.profileFields = Projections.include(profile);
        List<String> own = new ArrayList<>(profile);
        own.add(PENDING);
        this.ownProfileFields = Projections.include(own);
        List<String> listed = new ArrayList<>(attrs);
        listed.add(thumb);
        this.listedFields = Projections.include(listed);
    }

    // ---- profiles and friendships ----------------------------------------------------------------------------------

    @Override
    public void viewProfile(int requester, int profile, ProfileView out) {
        boolean own = requester == profile;
        Document m = members.find(Filters.eq(ID, profile))
                .projection(own ? ownProfileFields : profileFields)
                .first();
        if (m == null) {
            throw new StoreException("VP: no member " + profile);
        }
        out.memberId = profile;
        attributes(m, out.attributes);
        out.profileImage = image(m, PIC, PIC_ID);
        out.friendCount = size(m, CONFIRMED);
        out.resourceCount = size(m, WALL);
        out.pendingCount = own ? size(m, PENDING) : -1;
    }

    @Override
    public void listFriends(int requester, int profile, MemberList out) {
        listMembers(profile, CONFIRMED, out);
    }

    @Override
    public void viewFriendRequests(int member, MemberList out) {
        listMembers(member, PENDING, out);
    }

    /** The member's array {@code field}, then the listed members' attributes and thumbnails. */
    private void listMembers(int member, String field, MemberList out) {
        out.clear();
        Document m = members.find(Filters.eq(ID, member))
                .projection(Projections.include(field))
                .first();
        List<Integer> ids = m == null ? null : m.getList(field, Integer.class);
        if (ids == null || ids.isEmpty()) {
            return;
        }
        int found = 0;
        for (Document d : byId(members, ids, listedFields)) {
            listed(d, out);
            found++;
        }
        if (found != ids.size()) {
            throw new StoreException(ids.size() - found + " of the members listed in member " + member + "'s " + field
                    + " are not in the store");
        }
    }

    /** The documents of {@code ids} (those that exist), with one {@code $in} query or one query each. */
    private List<Document> byId(MongoCollection<Document> c, List<?> ids, Bson fields) {
        List<Document> found = new ArrayList<>(ids.size());
        if (ids.isEmpty()) {
            return found;
        }
        if (each) {
            for (Object id : ids) {
                Document d = c.find(Filters.eq(ID, id)).projection(fields).first();
                if (d != null) {
                    found.add(d);
                }
            }
            return found;
        }
        return c.find(Filters.in(ID, ids))
                .projection(fields)
                .batchSize(ids.size() + 1)
                .into(found);
    }

    private void listed(Document d, MemberList out) {
        MemberList.Row row = out.add(d.getInteger(ID));
        attributes(d, row.attributes);
        row.thumbnail = image(d, THUMB, THUMB_ID);
    }

    @Override
    public void inviteFriend(int inviter, int invitee) {
        updateMember(invitee, Updates.addToSet(PENDING, inviter));
    }

    @Override
    public void acceptFriendRequest(int invitee, int inviter) {
        // Two documents, two atomic updates; between them the invitee lists the inviter and not yet the reverse.
        updateMember(invitee, Updates.combine(Updates.pull(PENDING, inviter), Updates.addToSet(CONFIRMED, inviter)));
        updateMember(inviter, Updates.addToSet(CONFIRMED, invitee));
        if (feed.push()) {
            // Each now sees the other's past shares that are public or list her (dissertation 8.4.2).
            List<Document> entries = new ArrayList<>();
            pastShares(inviter, invitee, entries);
            pastShares(invitee, inviter, entries);
            insertFeedEntries(entries);
        }
    }

    @Override
    public void rejectFriendRequest(int invitee, int inviter) {
        updateMember(invitee, Updates.pull(PENDING, inviter));
    }

    @Override
    public void thawFriendship(int member, int friend) {
        updateMember(member, Updates.pull(CONFIRMED, friend));
        updateMember(friend, Updates.pull(CONFIRMED, member));
        if (feed.push()) {
            // Former friends no longer see each other's shares.
            feeds.deleteMany(Filters.or(
                    Filters.and(Filters.eq(VIEWER, member), Filters.eq(SHARER, friend)),
                    Filters.and(Filters.eq(VIEWER, friend), Filters.eq(SHARER, member))));
        }
    }

    private void updateMember(int id, Bson update) {
        locks.update(id, () -> members.updateOne(Filters.eq(ID, id), update));
    }

    private void updateResource(long id, Bson update) {
        // Stripes of resources apart from those of members (ids of both start near 0).
        locks.update(~id, () -> resources.updateOne(Filters.eq(ID, id), update));
    }

    // ---- resources and comments ------------------------------------------------------------------------------------

    @Override
    public void viewTopKResources(int requester, int profile, int k, ResourceList out) {
        out.clear();
        if (k <= 0) {
            return;
        }
        if (config.topK() == MongoConfig.TopK.WALL) {
            // The member's wallResourceIds hold her resources' ids; the k largest are the newest.
            Document m = members.find(Filters.eq(ID, profile))
                    .projection(Projections.include(WALL))
                    .first();
            List<Long> wall = m == null ? null : m.getList(WALL, Long.class);
            if (wall == null || wall.isEmpty()) {
                return;
            }
            List<Long> newest = new ArrayList<>(wall);
            newest.sort(Comparator.reverseOrder());
            newest = newest.subList(0, Math.min(k, newest.size()));
            List<Document> found = byId(resources, newest, Projections.exclude(EMBEDDED));
            found.sort((x, y) -> Long.compare(y.getLong(ID), x.getLong(ID)));
            for (Document r : found) {
                resource(r, out.add(r.getLong(ID)));
            }
            return;
        }
        for (Document r : resources
                .find(Filters.eq(WALL_USER, profile))
                .projection(Projections.exclude(EMBEDDED))
                .sort(Sorts.descending(ID))
                .limit(k)) {
            resource(r, out.add(r.getLong(ID)));
        }
    }

    private static void resource(Document r, ResourceList.Row row) {
        row.creatorId = r.getInteger(CREATOR);
        row.wallUserId = r.getInteger(WALL_USER);
        row.type = r.getString(TYPE);
        row.body = r.getString(BODY);
        row.doc = r.getString(DOC);
    }

    @Override
    public void viewCommentsOnResource(int requester, int owner, long resource, CommentList out) {
        out.clear();
        if (embedded) {
            Document r = resources
                    .find(Filters.eq(ID, resource))
                    .projection(Projections.include(EMBEDDED))
                    .first();
            List<Document> list = r == null ? null : r.getList(EMBEDDED, Document.class);
            if (list != null) {
                for (Document c : list) {
                    comment(c, resource, out);
                }
            }
            return;
        }
        for (Document c : comments.find(Filters.eq(RID, resource))) {
            comment(c, resource, out);
        }
    }

    private static void comment(Document c, long resource, CommentList out) {
        CommentList.Row row = out.add(c.getLong(ID));
        row.resourceId = resource;
        row.creatorId = c.getInteger(CREATOR);
        row.modifierId = c.getInteger(MODIFIER);
        row.timestampMs = c.getLong(TIMESTAMP);
        row.type = COMMENT_TYPE;
        row.content = c.getString(CONTENT);
    }

    /** A comment as stored: its resource's creator is the member whose wall it is on (BG's generator's rule). */
    static Document commentDocument(
            long id, long resource, int owner, int commenter, long timestampMs, String content, boolean embedded) {
        Document d = new Document(ID, id);
        if (!embedded) {
            d.append(RID, resource);
        }
        return d.append(CREATOR, owner)
                .append(MODIFIER, commenter)
                .append(TIMESTAMP, timestampMs)
                .append(CONTENT, content);
    }

    @Override
    public void postCommentOnResource(
            int commenter, int owner, long resource, long commentId, long timestampMs, String content) {
        Document c = commentDocument(commentId, resource, owner, commenter, timestampMs, content, embedded);
        if (embedded) {
            updateResource(resource, Updates.push(EMBEDDED, c));
        } else {
            comments.insertOne(c);
        }
    }

    @Override
    public void deleteCommentFromResource(int owner, long resource, long commentId) {
        if (embedded) {
            if (!exactPull) {
                updateResource(resource, Updates.pull(EMBEDDED, new Document(ID, commentId)));
                return;
            }
            // FerretDB's $pull removes only elements equal to the value given, not those matching a condition: read
            // the comment, then pull it whole (under mongodb.document-locks no other update comes in between).
            locks.update(~resource, () -> {
                Document r = resources
                        .find(Filters.eq(ID, resource))
                        .projection(Projections.include(EMBEDDED))
                        .first();
                for (Document c : r == null ? List.<Document>of() : r.getList(EMBEDDED, Document.class, List.of())) {
                    if (c.get(ID) instanceof Long id && id == commentId) {
                        resources.updateOne(Filters.eq(ID, resource), Updates.pull(EMBEDDED, c));
                        return;
                    }
                }
            });
        } else {
            comments.deleteOne(Filters.eq(ID, commentId));
        }
    }

    // ---- feed following (dissertation 3.2, 8.4) -------------------------------------------------------------------

    @Override
    public void shareResource(int sharer, long resource, long shareId, int[] recipients) {
        List<Integer> listed = null;
        if (recipients != null) {
            listed = new ArrayList<>(recipients.length);
            for (int r : recipients) {
                listed.add(r);
            }
        }
        Document share = new Document(ID, shareId)
                .append(SHARER, sharer)
                .append(RID, resource)
                .append(PUBLIC, listed == null)
                .append(LISTED, listed == null ? List.of() : listed);
        if (!feed.push()) {
            // Pull (figure 8.11): the share is stored with its sharer and nowhere else.
            shares.insertOne(share);
            return;
        }
        // The audience as of now: a member's friends, a page's followers.
        List<Integer> audience =
                sharer >= firstPage ? array(pages, sharer, FOLLOWERS) : array(members, sharer, CONFIRMED);
        Document content = feed.content()
                ? resources
                        .find(Filters.eq(ID, resource))
                        .projection(Projections.include(TYPE, BODY, DOC))
                        .first()
                : null;
        // The share first: an AFR that reads the sharer's shares meanwhile pushes it too (the same feed entry).
        shares.insertOne(share);
        Set<Integer> to = listed == null ? null : new HashSet<>(listed);
        List<Document> entries = new ArrayList<>();
        for (int m : audience) {
            if (to == null || to.contains(m)) {
                entries.add(feedEntry(m, shareId, sharer, resource, content));
            }
        }
        insertFeedEntries(entries);
    }

    private static List<Integer> array(MongoCollection<Document> c, int id, String field) {
        Document d = c.find(Filters.eq(ID, id))
                .projection(Projections.include(field))
                .first();
        List<Integer> l = d == null ? null : d.getList(field, Integer.class);
        return l == null ? List.of() : l;
    }

    private Document feedEntry(int viewer, long shareId, int sharer, long resource, Document content) {
        Document e = new Document(VIEWER, viewer)
                .append(SHARE, shareId)
                .append(SHARER, sharer)
                .append(RID, resource);
        if (content != null) {
            e.append(TYPE, content.getString(TYPE))
                    .append(BODY, content.getString(BODY))
                    .append(DOC, content.getString(DOC));
        }
        return e;
    }

    /** Unordered, so one entry another action pushed already (a duplicate key) does not stop the others. */
    private void insertFeedEntries(List<Document> entries) {
        if (entries.isEmpty()) {
            return;
        }
        try {
            feeds.insertMany(entries, new InsertManyOptions().ordered(false));
        } catch (MongoBulkWriteException e) {
            for (BulkWriteError w : e.getWriteErrors()) {
                if (w.getCode() != DUPLICATE_KEY) {
                    throw e;
                }
            }
            if (e.getWriteConcernError() != null) {
                throw e;
            }
        }
    }

    /** Push: the shares of {@code sharer} that {@code viewer} may see, as feed entries of hers. */
    private void pastShares(int sharer, int viewer, List<Document> into) {
        List<Document> found = shares.find(Filters.and(Filters.eq(SHARER, sharer), visibleTo(viewer)))
                .into(new ArrayList<>());
        Map<Long, Document> content = feed.content() ? resourcesById(found, RID) : Map.of();
        for (Document s : found) {
            long rid = s.getLong(RID);
            into.add(feedEntry(viewer, s.getLong(ID), sharer, rid, feed.content() ? content.get(rid) : null));
        }
    }

    private static Bson visibleTo(int viewer) {
        return Filters.or(Filters.eq(PUBLIC, true), Filters.eq(LISTED, viewer));
    }

    @Override
    public void viewNewsFeed(int member, int k, FeedList out) {
        out.clear();
        if (k <= 0) {
            return;
        }
        List<Document> top;
        String shareField;
        switch (feed.kind()) {
            case PULL -> {
                // Pull (figure 8.11): the newest k visible shares of the member's friends and followed pages.
                Document m = members.find(Filters.eq(ID, member))
                        .projection(Projections.include(CONFIRMED, FOLLOWS))
                        .first();
                if (m == null) {
                    return;
                }
                List<Integer> producers = new ArrayList<>(m.getList(CONFIRMED, Integer.class, List.of()));
                producers.addAll(m.getList(FOLLOWS, Integer.class, List.of()));
                if (producers.isEmpty()) {
                    return;
                }
                top = shares.find(Filters.and(Filters.in(SHARER, producers), visibleTo(member)))
                        .projection(Projections.include(SHARER, RID))
                        .sort(Sorts.descending(ID))
                        .limit(k)
                        .into(new ArrayList<>(k));
                shareField = ID;
            }
            case PUSH -> {
                // Push reads the whole feed and keeps the k newest.
                List<Document> all = feeds.find(Filters.eq(VIEWER, member)).into(new ArrayList<>());
                all.sort((x, y) -> Long.compare(y.getLong(SHARE), x.getLong(SHARE)));
                top = all.subList(0, Math.min(k, all.size()));
                shareField = SHARE;
            }
            default -> {
                // Sorted-insert push: the feed's index keeps it newest first; read the top k.
                top = feeds.find(Filters.eq(VIEWER, member))
                        .sort(Sorts.descending(SHARE))
                        .limit(k)
                        .into(new ArrayList<>(k));
                shareField = SHARE;
            }
        }
        Map<Long, Document> content = feed.content() ? Map.of() : resourcesById(top, RID);
        for (Document s : top) {
            FeedList.Row row = out.add(s.getLong(shareField));
            row.sharerId = s.getInteger(SHARER);
            row.resourceId = s.getLong(RID);
            Document r = feed.content() ? s : content.get(row.resourceId);
            if (r != null) {
                row.type = r.getString(TYPE);
                row.body = r.getString(BODY);
                row.doc = r.getString(DOC);
            }
        }
    }

    /** The resources the documents reference in {@code field}, fetched with one {@code $in} query. */
    private Map<Long, Document> resourcesById(List<Document> docs, String field) {
        if (docs.isEmpty()) {
            return Map.of();
        }
        List<Long> ids = new ArrayList<>(docs.size());
        for (Document d : docs) {
            ids.add(d.getLong(field));
        }
        Map<Long, Document> byId = new HashMap<>();
        for (Document r : byId(resources, ids, Projections.include(TYPE, BODY, DOC))) {
            byId.put(r.getLong(ID), r);
        }
        return byId;
    }

    // ---- documents -------------------------------------------------------------------------------------------------

    private static void attributes(Document d, Attributes out) {
        for (int i = 0; i < out.count(); i++) {
            out.set(i, d.getString(MemberAttributes.name(i)));
        }
    }

    /** An image: the binary field (inline design) or the GridFS file it references (gridfs design); null if none. */
    private byte[] image(Document d, String inline, String fileId) {
        if (images == null) {
            Binary b = d.get(inline, Binary.class);
            return b == null ? null : b.getData();
        }
        ObjectId id = d.getObjectId(fileId);
        if (id == null) {
            return null;
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        images.downloadToStream(id, out);
        return out.toByteArray();
    }

    private static int size(Document d, String field) {
        List<?> l = d.getList(field, Object.class);
        return l == null ? 0 : l.size();
    }

    @Override
    public void close() {
        // Sessions share the store's client.
    }
}
