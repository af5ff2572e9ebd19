package org.bgbench.store;

import java.util.Arrays;

/** Output of View Comments on Resource; rows pooled and reused across calls. */
public final class CommentList extends PooledRows<CommentList.Row> {
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

    public Row add(long commentId) {
        Row r = next();
        r.commentId = commentId;
        return r;
    }

    @Override
    protected Row newRow() {
        return new Row();
    }

    /** Comment ids listed, sorted; for tests and validation, allocates. */
    public long[] sortedIds() {
        long[] ids = new long[size()];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = get(i).commentId;
        }
        Arrays.sort(ids);
        return ids;
    }
}
