package org.bgbench.store;

import java.util.Arrays;

/** Output of View Comments on Resource; rows pooled and reused across calls. */
public final class CommentList {
    /** One comment (a manipulation of a resource). */
    public static final class Row {
        public long commentId;
        public long resourceId;
        public int creatorId;
        public int modifierId;
        public long timestampMs;
        public String type;
        public String content;
    }

    private Row[] rows = new Row[0];
    private int size;

    public void clear() {
        size = 0;
    }

    public Row add(long commentId) {
        if (size == rows.length) {
            rows = Arrays.copyOf(rows, Math.max(8, size * 2));
        }
        Row r = rows[size];
        if (r == null) {
            r = rows[size] = new Row();
        }
        size++;
        r.commentId = commentId;
        return r;
    }

    public int size() {
        return size;
    }

    public Row get(int i) {
        if (i >= size) {
            throw new IndexOutOfBoundsException(i);
        }
        return rows[i];
    }

    /** Comment ids listed, sorted; for tests and validation, allocates. */
    public long[] sortedIds() {
        long[] ids = new long[size];
        for (int i = 0; i < size; i++) {
            ids[i] = rows[i].commentId;
        }
        Arrays.sort(ids);
        return ids;
    }
}
