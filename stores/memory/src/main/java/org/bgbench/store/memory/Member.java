package org.bgbench.store.memory;

import java.util.Arrays;

/**
 * One member's changing state and what only her own profile and wall show. The profile image and the wall are written
 * once by the loader and never change afterwards, so readers use them without synchronisation; the friend and
 * pending-invitation sets change under this object's monitor and sequence lock. Attributes and thumbnails, which lists
 * of other members show, live in {@link Db}'s dense arrays so listing a friend does not load her member object.
 */
final class Member extends Account {
    byte[] profileImage;
    /** {@code wall.length}, kept here so View Profile does not load the wall array. */
    int resourceCount;

    /** Confirmed friends, a sorted prefix of {@code friends}. */
    int[] friends = SortedInts.EMPTY;

    int friendCount;
    /** Members with a pending invitation to this one (received), a sorted prefix of {@code inviters}. */
    int[] inviters = SortedInts.EMPTY;

    int inviterCount;

    /** Account ids of the pages this member follows, ascending; set by the loader, fixed (dissertation 6.1.2). */
    int[] pages = SortedInts.EMPTY;
    /**
     * Push designs only (dissertation 8.4.2): the shares of current friends and followed pages this member may see,
     * all of them; in arrival order (Push) or ascending id (Sorted-insert Push). Changes under the monitor.
     */
    Share[] feed = Share.NONE;

    int feedCount;

    /** Adds {@code id} to the friends unless present. Caller holds the monitor and has begun a write. */
    void addFriend(int id, int firstCapacity) {
        int pos = SortedInts.find(friends, friendCount, id);
        if (pos < 0) {
            friends = SortedInts.insert(friends, friendCount, -pos - 1, id, firstCapacity);
            friendCount++;
        }
    }

    /** Adds {@code id} to the inviters unless present. Caller holds the monitor and has begun a write. */
    void addInviter(int id, int firstCapacity) {
        int pos = SortedInts.find(inviters, inviterCount, id);
        if (pos < 0) {
            inviters = SortedInts.insert(inviters, inviterCount, -pos - 1, id, firstCapacity);
            inviterCount++;
        }
    }

    @Override
    void clearShares() {
        super.clearShares();
        feed = Share.NONE;
        feedCount = 0;
    }

    /** A deep copy for images; profile data is immutable and shared. */
    Member copy() {
        Member m = new Member();
        synchronized (this) {
            m.profileImage = profileImage;
            m.resourceCount = resourceCount;
            m.friends = friendCount == 0 ? SortedInts.EMPTY : Arrays.copyOf(friends, friendCount);
            m.friendCount = friendCount;
            m.inviters = inviterCount == 0 ? SortedInts.EMPTY : Arrays.copyOf(inviters, inviterCount);
            m.inviterCount = inviterCount;
            m.pages = pages;
            copySharesTo(m);
            m.feed = feedCount == 0 ? Share.NONE : Arrays.copyOf(feed, feedCount);
            m.feedCount = feedCount;
        }
        Resource[] w = wall;
        if (w.length > 0) {
            Resource[] c = new Resource[w.length];
            for (int i = 0; i < w.length; i++) {
                c[i] = w[i].copy();
            }
            m.wall = c;
        }
        return m;
    }
}
