package org.bgbench.store.memory;

/** One comment on a resource; immutable, so readers may copy it without holding a lock. */
record Comment(long id, int modifier, long timestampMs, String content) {
    /** The manipulation type of every comment BG writes. */
    static final String TYPE = "comment";
}
