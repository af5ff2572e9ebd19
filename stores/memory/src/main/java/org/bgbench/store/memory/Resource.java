package org.bgbench.store.memory;

import java.util.Arrays;

/**
 * A resource on a member's wall. Its attributes never change; its comments do, guarded by this object's monitor and
 * sequence lock, so comment actions on different resources of one member never contend.
 */
final class Resource extends Versioned {
    static final Resource[] NONE = new Resource[0];
    private static final long[] NO_IDS = new long[0];
    private static final Comment[] NO_COMMENTS = new Comment[0];

    final long id;
    final int creator;
    final int wallUser;
    final String type;
    final String body;
    final String doc;

    /** Comment ids beside the records: DCR and the duplicate check scan a flat long array. Posting order. */
    long[] commentIds;

    Comment[] comments;
    int commentCount;

    Resource(long id, int creator, int wallUser, String type, String body, String doc, int commentCapacity) {
        this.id = id;
        this.creator = creator;
        this.wallUser = wallUser;
        this.type = type;
        this.body = body;
        this.doc = doc;
        this.commentIds = commentCapacity == 0 ? NO_IDS : new long[commentCapacity];
        this.comments = commentCapacity == 0 ? NO_COMMENTS : new Comment[commentCapacity];
    }

    /** Index of comment {@code mid}, or -1. Caller holds the monitor. */
    int indexOfComment(long mid) {
        long[] ids = commentIds;
        for (int i = 0, n = commentCount; i < n; i++) {
            if (ids[i] == mid) {
                return i;
            }
        }
        return -1;
    }

    /** Appends a comment. Caller holds the monitor and has begun a write. */
    void append(Comment c) {
        int n = commentCount;
        if (n == comments.length) {
            int cap = Math.max(4, n + (n >> 1) + 1);
            // Grown copies are complete before they are published, so optimistic readers see old or new, both whole.
            Comment[] grown = Arrays.copyOf(comments, cap);
            commentIds = Arrays.copyOf(commentIds, cap);
            comments = grown;
        }
        commentIds[n] = c.id();
        comments[n] = c;
        commentCount = n + 1;
    }

    /** Removes the comment at {@code i}, keeping posting order. Caller holds the monitor and has begun a write. */
    void removeAt(int i) {
        int n = commentCount;
        System.arraycopy(commentIds, i + 1, commentIds, i, n - i - 1);
        System.arraycopy(comments, i + 1, comments, i, n - i - 1);
        comments[n - 1] = null;
        commentCount = n - 1;
    }

    /** A deep copy for images: attributes and comment records are immutable and shared, the lists are copied. */
    Resource copy() {
        synchronized (this) {
            Resource r = new Resource(id, creator, wallUser, type, body, doc, 0);
            int n = commentCount;
            if (n > 0) {
                r.commentIds = Arrays.copyOf(commentIds, n);
                r.comments = Arrays.copyOf(comments, n);
                r.commentCount = n;
            }
            return r;
        }
    }
}
