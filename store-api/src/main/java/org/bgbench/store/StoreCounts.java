package org.bgbench.store;

/**
 * Whole-store totals queried for the load sanity check (dissertation 5.1): the social graph's and the feed's.
 *
 * @param social members, friendships, invitations, resources and comments
 * @param feed   pages, follows, page resources and shares (all zero in a graph without pages)
 */
public record StoreCounts(Social social, Feed feed) {
    /** Counts of an empty store. */
    public static final StoreCounts EMPTY = new StoreCounts(new Social(0, 0, 0, 0, 0));

    /**
     * The social graph's totals.
     *
     * @param members     member rows
     * @param friendships confirmed friendships, each counted once
     * @param pending     pending invitations
     * @param resources   resources of members
     * @param comments    comments on resources
     */
    public record Social(long members, long friendships, long pending, long resources, long comments) {}

    /**
     * The feed's totals (feed following).
     *
     * @param pages         page rows
     * @param follows       member-follows-page rows
     * @param pageResources resources owned by pages
     * @param shares        shares (none after a load)
     */
    public record Feed(long pages, long follows, long pageResources, long shares) {
        /** No pages, follows or shares. */
        public static final Feed NONE = new Feed(0, 0, 0, 0);
    }

    /** Counts of a graph without pages. */
    public StoreCounts(Social social) {
        this(social, Feed.NONE);
    }

    public long members() {
        return social.members();
    }

    public long friendships() {
        return social.friendships();
    }

    public long pending() {
        return social.pending();
    }

    public long resources() {
        return social.resources();
    }

    public long comments() {
        return social.comments();
    }

    public long pages() {
        return feed.pages();
    }

    public long follows() {
        return feed.follows();
    }

    public long pageResources() {
        return feed.pageResources();
    }

    public long shares() {
        return feed.shares();
    }
}
