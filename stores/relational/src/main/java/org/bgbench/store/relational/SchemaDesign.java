package org.bgbench.store.relational;

import org.bgbench.store.FeedDesign;

/**
 * The design of a SQL store's tables, as its settings give it.
 *
 * @param friendshipRows rows per confirmed friendship, 1 or 2
 * @param feed           how feeds are served; null for the pull feed
 * @param physical       friendship tables, counts, profile images (CIKM 2013 sections C–E); null for Basic
 */
public record SchemaDesign(int friendshipRows, FeedDesign feed, PhysicalDesign physical) {
    /** One friendship row, the pull feed, the Basic physical design. */
    public static final SchemaDesign BASIC = new SchemaDesign(1, FeedDesign.PULL, PhysicalDesign.BASIC);

    public SchemaDesign {
        if (feed == null) {
            feed = FeedDesign.PULL;
        }
        if (physical == null) {
            physical = PhysicalDesign.BASIC;
        }
    }

    public SchemaDesign withFriendshipRows(int rows) {
        return new SchemaDesign(rows, feed, physical);
    }

    public SchemaDesign withFeed(FeedDesign f) {
        return new SchemaDesign(friendshipRows, f, physical);
    }

    public SchemaDesign withPhysical(PhysicalDesign p) {
        return new SchemaDesign(friendshipRows, feed, p);
    }
}
