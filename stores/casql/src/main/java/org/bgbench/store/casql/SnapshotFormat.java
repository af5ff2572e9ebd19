package org.bgbench.store.casql;

import org.bgbench.store.CommentList;
import org.bgbench.store.FeedList;
import org.bgbench.store.MemberList;
import org.bgbench.store.ProfileView;
import org.bgbench.store.ResourceList;

/**
 * Entries as immutable copies of the views, for the in-process cache: as with Ehcache in [C], a hit copies references
 * into the caller's view and neither serializes nor allocates. Strings are immutable; image and thumbnail arrays are
 * shared with every reader of the entry, so callers must not modify them (BG never does). Stateless.
 */
final class SnapshotFormat implements EntryFormat {
    static final SnapshotFormat INSTANCE = new SnapshotFormat();

    /** Rough heap bytes of an entry, for the cache's size bound. */
    interface Weighed {
        int weight();
    }

    record Profile(String[] attributes, byte[] image, int friends, int resources, int pending) implements Weighed {
        @Override
        public int weight() {
            return 48 + strings(attributes) + bytes(image);
        }
    }

    /** Row {@code i}'s attributes are {@code attributes[i * attributeCount ...]}. */
    record Members(int attributeCount, int[] ids, String[] attributes, byte[][] thumbnails) implements Weighed {
        @Override
        public int weight() {
            int w = 64 + 4 * ids.length + strings(attributes) + 8 * thumbnails.length;
            for (byte[] t : thumbnails) {
                w += bytes(t);
            }
            return w;
        }
    }

    record Resources(long[] ids, int[] creators, int[] walls, String[] types, String[] bodies, String[] docs)
            implements Weighed {
        @Override
        public int weight() {
            return 96 + 16 * ids.length + strings(types) + strings(bodies) + strings(docs);
        }
    }

    record Comments(
            long[] ids,
            long[] resources,
            int[] creators,
            int[] modifiers,
            long[] timestamps,
            String[] types,
            String[] contents)
            implements Weighed {
        @Override
        public int weight() {
            return 112 + 32 * ids.length + strings(types) + strings(contents);
        }
    }

    /** A VNF result filled for {@code k}. */
    record Feed(int k, long[] shares, long[] resources, int[] sharers, String[] types, String[] bodies, String[] docs)
            implements Weighed {
        @Override
        public int weight() {
            return 112 + 20 * shares.length + strings(types) + strings(bodies) + strings(docs);
        }
    }

    private SnapshotFormat() {}

    @Override
    public Object entry(ProfileView v) {
        return new Profile(v.attributes.toArray(), v.profileImage, v.friendCount, v.resourceCount, v.pendingCount);
    }

    @Override
    public Object entry(MemberList list) {
        int n = list.size();
        int count = n == 0 ? 0 : list.get(0).attributes.count();
        int[] ids = new int[n];
        String[] attributes = new String[n * count];
        byte[][] thumbnails = new byte[n][];
        for (int i = 0; i < n; i++) {
            MemberList.Row r = list.get(i);
            ids[i] = r.memberId;
            for (int a = 0; a < count; a++) {
                attributes[i * count + a] = r.attributes.get(a);
            }
            thumbnails[i] = r.thumbnail;
        }
        return new Members(count, ids, attributes, thumbnails);
    }

    @Override
    public Object entry(ResourceList list) {
        int n = list.size();
        Resources e = new Resources(new long[n], new int[n], new int[n], new String[n], new String[n], new String[n]);
        for (int i = 0; i < n; i++) {
            ResourceList.Row r = list.get(i);
            e.ids[i] = r.resourceId;
            e.creators[i] = r.creatorId;
            e.walls[i] = r.wallUserId;
            e.types[i] = r.type;
            e.bodies[i] = r.body;
            e.docs[i] = r.doc;
        }
        return e;
    }

    @Override
    public Object entry(CommentList list) {
        int n = list.size();
        Comments e = new Comments(
                new long[n], new long[n], new int[n], new int[n], new long[n], new String[n], new String[n]);
        for (int i = 0; i < n; i++) {
            CommentList.Row r = list.get(i);
            e.ids[i] = r.commentId;
            e.resources[i] = r.resourceId;
            e.creators[i] = r.creatorId;
            e.modifiers[i] = r.modifierId;
            e.timestamps[i] = r.timestampMs;
            e.types[i] = r.type;
            e.contents[i] = r.content;
        }
        return e;
    }

    @Override
    public Object entry(int k, FeedList list) {
        int n = list.size();
        Feed e = new Feed(k, new long[n], new long[n], new int[n], new String[n], new String[n], new String[n]);
        for (int i = 0; i < n; i++) {
            FeedList.Row r = list.get(i);
            e.shares[i] = r.shareId;
            e.resources[i] = r.resourceId;
            e.sharers[i] = r.sharerId;
            e.types[i] = r.type;
            e.bodies[i] = r.body;
            e.docs[i] = r.doc;
        }
        return e;
    }

    @Override
    public void read(Object entry, ProfileView out) {
        Profile p = as(entry, Profile.class);
        out.clear();
        out.attributes.setAll(p.attributes);
        out.profileImage = p.image;
        out.friendCount = p.friends;
        out.resourceCount = p.resources;
        out.pendingCount = p.pending;
    }

    @Override
    public void read(Object entry, MemberList out) {
        Members m = as(entry, Members.class);
        out.clear();
        for (int i = 0; i < m.ids.length; i++) {
            MemberList.Row r = out.add(m.ids[i]);
            int n = Math.min(m.attributeCount, r.attributes.count());
            for (int a = 0; a < n; a++) {
                r.attributes.set(a, m.attributes[i * m.attributeCount + a]);
            }
            r.thumbnail = m.thumbnails[i];
        }
    }

    @Override
    public void read(Object entry, ResourceList out) {
        Resources e = as(entry, Resources.class);
        out.clear();
        for (int i = 0; i < e.ids.length; i++) {
            ResourceList.Row r = out.add(e.ids[i]);
            r.creatorId = e.creators[i];
            r.wallUserId = e.walls[i];
            r.type = e.types[i];
            r.body = e.bodies[i];
            r.doc = e.docs[i];
        }
    }

    @Override
    public void read(Object entry, CommentList out) {
        Comments e = as(entry, Comments.class);
        out.clear();
        for (int i = 0; i < e.ids.length; i++) {
            CommentList.Row r = out.add(e.ids[i]);
            r.resourceId = e.resources[i];
            r.creatorId = e.creators[i];
            r.modifierId = e.modifiers[i];
            r.timestampMs = e.timestamps[i];
            r.type = e.types[i];
            r.content = e.contents[i];
        }
    }

    @Override
    public boolean read(Object entry, int k, FeedList out) {
        Feed e = as(entry, Feed.class);
        out.clear();
        int n = e.shares.length;
        // Full for a smaller k: rows beyond it may exist (see ViewCodec's feed decode).
        if (e.k < k && n == e.k) {
            return false;
        }
        for (int i = 0; i < Math.min(n, k); i++) {
            FeedList.Row r = out.add(e.shares[i]);
            r.resourceId = e.resources[i];
            r.sharerId = e.sharers[i];
            r.type = e.types[i];
            r.body = e.bodies[i];
            r.doc = e.docs[i];
        }
        return true;
    }

    private static <T> T as(Object entry, Class<T> kind) {
        if (kind.isInstance(entry)) {
            return kind.cast(entry);
        }
        throw new IllegalArgumentException("expected a " + kind.getSimpleName() + " entry, found "
                + entry.getClass().getSimpleName());
    }

    private static int strings(String[] values) {
        int w = 16 + 8 * values.length;
        for (String s : values) {
            if (s != null) {
                w += 40 + 2 * s.length();
            }
        }
        return w;
    }

    private static int bytes(byte[] b) {
        return b == null ? 0 : 16 + b.length;
    }
}
