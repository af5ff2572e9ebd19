package org.bgbench.store;

import java.util.Arrays;

/** Output of View News Feed: the shares a member sees, most recent (highest share id) first; rows pooled. */
public final class FeedList {
    /** One shared resource as a feed shows it. */
    public static final class Row {
        public long shareId;
        public long resourceId;
        /** Account id of the member or page that shared it. */
        public int sharerId;
        public String type;
        public String body;
        public String doc;
    }

    private Row[] rows = new Row[0];
    private int size;

    public void clear() {
        size = 0;
    }

    public Row add(long shareId) {
        if (size == rows.length) {
            rows = Arrays.copyOf(rows, Math.max(8, size * 2));
        }
        Row r = rows[size];
        if (r == null) {
            r = rows[size] = new Row();
        }
        size++;
        r.shareId = shareId;
        r.type = null;
        r.body = null;
        r.doc = null;
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

    /** The share ids in the order the store returned them. */
    public long[] shareIds() {
        long[] ids = new long[size];
        for (int i = 0; i < size; i++) {
            ids[i] = rows[i].shareId;
        }
        return ids;
    }
}
