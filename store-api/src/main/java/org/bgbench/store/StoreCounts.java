package org.bgbench.store;

/**
 * Whole-store totals queried for the load sanity check (dissertation 5.1).
 *
 * @param members     member rows
 * @param friendships confirmed friendships, each counted once
 * @param pending     pending invitations
 * @param resources   resources
 * @param comments    comments on resources
 */
public record StoreCounts(long members, long friendships, long pending, long resources, long comments) {
}
