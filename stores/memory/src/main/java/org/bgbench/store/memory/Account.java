package org.bgbench.store.memory;

import java.util.Arrays;

/**
 * What members and pages have in common (dissertation figure 3.2): a wall of resources written once by the loader,
 * and the shares the account made, ascending share id, changed under this object's monitor and sequence lock.
 */
abstract class Account extends Versioned {
    /** Resources on the wall, ascending resource id; top-k reads from the end. */
    Resource[] wall = Resource.NONE;

    Share[] shares = Share.NONE;
    int shareCount;

    /** The resource {@code rid} on this account's wall, or null. */
    final Resource resource(long rid) {
        Resource[] w = wall;
        if (w.length == 0) {
            return null;
        }
        // Generated walls hold consecutive ids, so the offset from the first id usually is the index.
        long j = rid - w[0].id;
        if (j >= 0 && j < w.length && w[(int) j].id == rid) {
            return w[(int) j];
        }
        int lo = 0;
        int hi = w.length - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            long v = w[mid].id;
            if (v < rid) {
                lo = mid + 1;
            } else if (v > rid) {
                hi = mid - 1;
            } else {
                return w[mid];
            }
        }
        return null;
    }

    /** Whether share {@code id} exists. Caller holds the monitor. */
    final boolean hasShare(long id) {
        return Feeds.indexOf(shares, shareCount, id) >= 0;
    }

    /** Adds a share in id order. Caller holds the monitor and has begun a write. */
    final void addShare(Share s) {
        shares = Feeds.insertSorted(shares, shareCount, s);
        shareCount++;
    }

    /** Forgets every share. Caller holds the monitor and has begun a write. */
    void clearShares() {
        shares = Share.NONE;
        shareCount = 0;
    }

    /** Copies the shares into {@code into} for images; shares are immutable and shared. Caller holds the monitor. */
    final void copySharesTo(Account into) {
        into.shares = shareCount == 0 ? Share.NONE : Arrays.copyOf(shares, shareCount);
        into.shareCount = shareCount;
    }
}
