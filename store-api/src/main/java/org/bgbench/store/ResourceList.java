package org.bgbench.store;

import java.util.Arrays;

/** Output of View Top-K Resources; rows pooled and reused across calls. */
public final class ResourceList {
    /** One resource with all its attributes. */
    public static final class Row {
        public long resourceId;
        public int creatorId;
        public int wallUserId;
        public String type;
        public String body;
        public String doc;
    }

    private Row[] rows = new Row[0];
    private int size;

    public void clear() {
        size = 0;
    }

    public Row add(long resourceId) {
        if (size == rows.length) {
            rows = Arrays.copyOf(rows, Math.max(8, size * 2));
        }
        Row r = rows[size];
        if (r == null) {
            r = rows[size] = new Row();
        }
        size++;
        r.resourceId = resourceId;
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
}
