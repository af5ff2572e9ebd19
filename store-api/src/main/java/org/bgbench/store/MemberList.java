package org.bgbench.store;

import java.util.Arrays;

/** Output of List Friends and View Friend Requests: one row per member. Rows are pooled and reused across calls. */
public final class MemberList extends PooledRows<MemberList.Row> {
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

    public MemberList(int attributeCount) {
        this.attributeCount = attributeCount;
    }

    /** Appends a row (recycled from an earlier call when possible) and returns it for the store to fill. */
    public Row add(int memberId) {
        Row r = next();
        r.memberId = memberId;
        r.thumbnail = null;
        return r;
    }

    @Override
    protected Row newRow() {
        return new Row(attributeCount);
    }

    /** Member ids listed, sorted; for tests and validation, allocates. */
    public int[] sortedIds() {
        int[] ids = new int[size()];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = get(i).memberId;
        }
        Arrays.sort(ids);
        return ids;
    }
}
