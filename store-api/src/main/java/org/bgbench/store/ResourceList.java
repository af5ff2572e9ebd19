package org.bgbench.store;

/** Output of View Top-K Resources; rows pooled and reused across calls. */
public final class ResourceList extends PooledRows<ResourceList.Row> {
    /** One resource with all its attributes. */
    public static final class Row {
        public long resourceId;
        public int creatorId;
        public int wallUserId;
        public String type;
        public String body;
        public String doc;
    }

    public Row add(long resourceId) {
        Row r = next();
        r.resourceId = resourceId;
        return r;
    }

    @Override
    protected Row newRow() {
        return new Row();
    }
}
