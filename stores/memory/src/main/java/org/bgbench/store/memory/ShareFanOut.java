package org.bgbench.store.memory;

import java.util.Arrays;
import org.bgbench.store.StoreException;

/** How a push design's Share Resource reaches its audience: who may see a share, and its fan-out into their feeds, locked in id order. */
final class ShareFanOut {
    private ShareFanOut() {}

    /** Pushes {@code s} into the feeds of its audience as of now, with the share itself when {@code add}. */
    static void fanOut(Db d, Account a, int sharer, Share s, boolean sorted, boolean add) {
        long shareId = s.id;
        while (true) {
            // Recipients as seen now; confirmed under the sharer's monitor, which keeps her friends fixed.
            int[] targets = recipientsNow(a, s);
            Account[] locked = lockOrder(d, a, sharer, targets, 0);
            int[] first = targets;
            boolean done = Locks.holding(locked, locked.length, () -> {
                if (!Arrays.equals(first, recipientsOf(a, s))) {
                    return false;
                }
                if (add) {
                    refuseDuplicate(a, shareId);
                }
                for (Account x : locked) {
                    x.beginWrite();
                }
                if (add) {
                    a.addShare(s);
                }
                for (Account x : locked) {
                    if (x != a) {
                        Member m = (Member) x;
                        if (!add && hasInFeed(m, shareId)) {
                            continue;
                        }
                        m.feed = sorted
                                ? Feeds.insertSorted(m.feed, m.feedCount, s)
                                : Feeds.append(m.feed, m.feedCount, s);
                        m.feedCount++;
                    }
                }
                for (Account x : locked) {
                    x.endWrite();
                }
                return true;
            });
            if (done) {
                return;
            }
        }
    }

    static boolean hasInFeed(Member m, long shareId) {
        for (int i = 0; i < m.feedCount; i++) {
            if (m.feed[i].id == shareId) {
                return true;
            }
        }
        return false;
    }

    static void refuseDuplicate(Account a, long shareId) {
        if (a.hasShare(shareId)) {
            throw new StoreException("SR: share " + shareId + " already exists");
        }
    }

    /** The member ids share {@code s} is pushed to: the sharer's friends (or a page's followers) who may see it. */
    static int[] recipientsNow(Account a, Share s) {
        if (a instanceof Member m) {
            int st = m.stamp();
            int[] f = Arrays.copyOf(m.friends, Math.min(m.friendCount, m.friends.length));
            if (m.validate(st)) {
                return visible(f, s);
            }
        }
        synchronized (a) {
            return recipientsOf(a, s);
        }
    }

    /** As {@link #recipientsNow}; the caller holds the sharer's monitor (or the set is a page's fixed followers). */
    static int[] recipientsOf(Account a, Share s) {
        int[] f = a instanceof Member m ? Arrays.copyOf(m.friends, m.friendCount) : ((Page) a).followers;
        return visible(f, s);
    }

    static int[] visible(int[] ids, Share s) {
        if (s.recipients == null) {
            return ids;
        }
        int n = 0;
        int[] out = new int[Math.min(ids.length, s.recipients.length)];
        for (int id : ids) {
            if (s.visibleTo(id)) {
                out[n++] = id;
            }
        }
        return n == out.length ? out : Arrays.copyOf(out, n);
    }

    /** {@code own} (account id {@code ownId}) and the members {@code ids} (ascending), in ascending account id. */
    static Account[] lockOrder(Db d, Account own, int ownId, int[] ids, int extra) {
        Account[] out = new Account[ids.length + 1 + extra];
        int k = 0;
        boolean placed = false;
        for (int id : ids) {
            if (!placed && ownId < id) {
                out[k++] = own;
                placed = true;
            }
            out[k++] = d.members[id - d.offset];
        }
        if (!placed) {
            out[k] = own;
        }
        return out;
    }
}
