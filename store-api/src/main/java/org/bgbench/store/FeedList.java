package org.bgbench.store;

/** Output of View News Feed: the shares a member sees, most recent (highest share id) first; rows pooled. */
public final class FeedList extends PooledRows<FeedList.Row> {
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

    public Row add(long shareId) {
        Row r = next();
        r.shareId = shareId;
        r.type = null;
        r.body = null;
        r.doc = null;
        return r;
    }

    @Override
    protected Row newRow() {
        return new Row();
    }

    /** The share ids in the order the store returned them. */
    public long[] shareIds() {
        long[] ids = new long[size()];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = get(i).shareId;
        }
        return ids;
    }
}
