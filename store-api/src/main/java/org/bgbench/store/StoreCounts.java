package org.bgbench.store;

/**
 * Whole-store totals queried for the load sanity check (dissertation 5.1).
 *
 * @param members     member rows
 * @param friendships confirmed friendships, each counted once
 * @param pending     pending invitations
 * @param resources   resources
 * @param comments    comments on resources
 * @param pages       page rows (feed following)
 * @param follows     member-follows-page rows
 * @param pageResources resources owned by pages
 * @param shares      shares (none after a load)
 */
public record StoreCounts(long members, long friendships, long pending, long resources, long comments, long pages,
                          long follows, long pageResources, long shares) {
    /** Counts of a graph without pages. */
    public StoreCounts(long members, long friendships, long pending, long resources, long comments) {
        this(members, friendships, pending, resources, comments, 0, 0, 0, 0);
    }
}
