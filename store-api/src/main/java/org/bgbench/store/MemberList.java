package org.bgbench.store;

import java.util.Arrays;

/** Output of List Friends and View Friend Requests: one row per member. Rows are pooled and reused across calls. */
public final class MemberList {
    /** One listed member. */
    public static final class Row {
        public int memberId;
        public final Attributes attributes;
        public byte[] thumbnail;

        Row(int attributeCount) {
            attributes = new Attributes(attributeCount);
        }
    }

    private final int attributeCount;
    private Row[] rows = new Row[0];
    private int size;

    public MemberList(int attributeCount) {
        this.attributeCount = attributeCount;
    }

    public void clear() {
        size = 0;
    }

    /** Appends a row (recycled from an earlier call when possible) and returns it for the store to fill. */
    public Row add(int memberId) {
        if (size == rows.length) {
            rows = Arrays.copyOf(rows, Math.max(8, size * 2));
        }
        Row r = rows[size];
        if (r == null) {
            r = rows[size] = new Row(attributeCount);
        }
        size++;
        r.memberId = memberId;
        r.thumbnail = null;
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

    /** Member ids listed, sorted; for tests and validation, allocates. */
    public int[] sortedIds() {
        int[] ids = new int[size];
        for (int i = 0; i < size; i++) {
            ids[i] = rows[i].memberId;
        }
        Arrays.sort(ids);
        return ids;
    }
}
