package org.bgbench.store.memory;

import org.bgbench.store.Attributes;
import org.bgbench.store.CommentList;
import org.bgbench.store.MemberList;
import org.bgbench.store.StoreException;

/** What the read actions copy out of the store into their result lists, and the wall lookup the comment actions share. */
final class SessionRows {
    private SessionRows() {}

    static Resource resourceOf(Member owner, int ownerId, long rid, String action) {
        Resource r = owner.resource(rid);
        if (r == null) {
            throw new StoreException(action + ": resource " + rid + " is not on the wall of member " + ownerId);
        }
        return r;
    }

    static void copyAttributes(String[] from, Attributes to) {
        to.setAll(from);
    }

    /** Appends the ids of a set; bounded by the array so a torn optimistic read cannot fail before validation. */
    static void addIds(int[] ids, int count, MemberList out) {
        for (int i = 0, n = Math.min(count, ids.length); i < n; i++) {
            out.add(ids[i]);
        }
    }

    /** Fills attributes and thumbnails of listed members; both are immutable, so no lock is needed. */
    static void fillProfiles(Db d, MemberList out) {
        String[][] attributes = d.attributes;
        byte[][] thumbnails = d.thumbnails;
        int offset = d.offset;
        for (int i = 0, n = out.size(); i < n; i++) {
            MemberList.Row row = out.get(i);
            int index = row.memberId - offset;
            String[] a = attributes[index];
            if (a == null) {
                throw new StoreException("member " + row.memberId + " is related but has not been loaded");
            }
            copyAttributes(a, row.attributes);
            row.thumbnail = thumbnails[index];
        }
    }

    /** Appends the comments in posting order; stops at a torn slot, which only an overlapping write produces. */
    static void addComments(Resource r, CommentList out) {
        Comment[] cs = r.comments;
        for (int i = 0, n = Math.min(r.commentCount, cs.length); i < n; i++) {
            Comment c = cs[i];
            if (c == null) {
                return;
            }
            CommentList.Row row = out.add(c.id());
            row.resourceId = r.id;
            row.creatorId = r.creator;
            row.modifierId = c.modifier();
            row.timestampMs = c.timestampMs();
            row.type = Comment.TYPE;
            row.content = c.content();
        }
    }
}
