package org.bgbench.store.casql;

import org.bgbench.store.CommentList;
import org.bgbench.store.FeedList;
import org.bgbench.store.MemberList;
import org.bgbench.store.ProfileView;
import org.bgbench.store.ResourceList;
import org.bgbench.store.StoreException;
import org.bgbench.store.StoreSession;

/**
 * The actions of one emulator thread: reads look the result up in the cache and on a miss run the PostgreSQL
 * session's query and cache its result; writes run on PostgreSQL and then, in invalidate mode, delete the keys they
 * affect [CIKM section F].
 *
 * <p>A miss in invalidate mode follows the lease protocol of {@link CacheBackend}: lease first, then SQL, then fill
 * only if the lease survived. A miss that finds another reader's lease queries PostgreSQL without caching. In ttl
 * mode a miss stores its result unconditionally with the TTL and writes delete nothing.
 */
final class CasqlSession implements StoreSession {
    private final CasqlStore store;
    private final StoreSession db;
    private final CacheBackend.Ops cache;
    private final EntryFormat format;
    private final boolean invalidate;

    CasqlSession(CasqlStore store, StoreSession db, CacheBackend.Ops cache, EntryFormat format, boolean invalidate) {
        this.store = store;
        this.db = db;
        this.cache = cache;
        this.format = format;
        this.invalidate = invalidate;
    }

    // ---- reads

    @Override
    public void viewProfile(int requester, int profile, ProfileView out) {
        String key = CacheKeys.profile(profile);
        Object hit = cache.get(key);
        if (isEntry(hit)) {
            try {
                format.read(hit, out);
            } catch (IllegalArgumentException e) {
                throw corrupt("VP", key, e);
            }
            out.memberId = profile;
        } else {
            Object lease = lease(key, hit);
            // The entry is the member's own view (with the pending count) so one key serves every requester.
            db.viewProfile(profile, profile, out);
            fill(key, lease, format.entry(out));
        }
        if (requester != profile) {
            out.pendingCount = -1;
        }
    }

    @Override
    public void listFriends(int requester, int profile, MemberList out) {
        String key = CacheKeys.friends(profile);
        Object hit = cache.get(key);
        if (isEntry(hit)) {
            try {
                format.read(hit, out);
            } catch (IllegalArgumentException e) {
                throw corrupt("LF", key, e);
            }
            return;
        }
        Object lease = lease(key, hit);
        db.listFriends(requester, profile, out);
        fill(key, lease, format.entry(out));
    }

    @Override
    public void viewFriendRequests(int member, MemberList out) {
        String key = CacheKeys.friendRequests(member);
        Object hit = cache.get(key);
        if (isEntry(hit)) {
            try {
                format.read(hit, out);
            } catch (IllegalArgumentException e) {
                throw corrupt("VFR", key, e);
            }
            return;
        }
        Object lease = lease(key, hit);
        db.viewFriendRequests(member, out);
        fill(key, lease, format.entry(out));
    }

    @Override
    public void viewTopKResources(int requester, int profile, int k, ResourceList out) {
        String key = CacheKeys.topResources(profile, k);
        Object hit = cache.get(key);
        if (isEntry(hit)) {
            try {
                format.read(hit, out);
            } catch (IllegalArgumentException e) {
                throw corrupt("VTR", key, e);
            }
            return;
        }
        Object lease = lease(key, hit);
        db.viewTopKResources(requester, profile, k, out);
        fill(key, lease, format.entry(out));
    }

    @Override
    public void viewCommentsOnResource(int requester, int owner, long resource, CommentList out) {
        String key = CacheKeys.comments(resource);
        Object hit = cache.get(key);
        if (isEntry(hit)) {
            try {
                format.read(hit, out);
            } catch (IllegalArgumentException e) {
                throw corrupt("VCR", key, e);
            }
            return;
        }
        Object lease = lease(key, hit);
        db.viewCommentsOnResource(requester, owner, resource, out);
        fill(key, lease, format.entry(out));
    }

    /**
     * VNF: one key per member whatever k. An entry filled for a smaller k that holds that many rows cannot answer a
     * larger k; it is deleted (a delete is always safe: it costs a miss) so this read can lease the key and cache
     * the larger feed, which then serves both.
     */
    @Override
    public void viewNewsFeed(int member, int k, FeedList out) {
        String key = CacheKeys.feed(member);
        Object hit = cache.get(key);
        if (isEntry(hit)) {
            boolean served;
            try {
                served = format.read(hit, k, out);
            } catch (IllegalArgumentException e) {
                throw corrupt("VNF", key, e);
            }
            if (served) {
                return;
            }
            if (invalidate) {
                cache.delete(key);
            }
            hit = null;
        }
        Object lease = lease(key, hit);
        db.viewNewsFeed(member, k, out);
        fill(key, lease, format.entry(k, out));
    }

    private static boolean isEntry(Object hit) {
        return hit != null && hit != CacheBackend.LEASED;
    }

    /** After a miss: in invalidate mode a lease on {@code key}, unless another reader holds one; else null. */
    private Object lease(String key, Object hit) {
        store.atStage(CasqlStore.Stage.MISSED, key);
        return invalidate && hit == null ? cache.lease(key) : null;
    }

    /** After the SQL query of a miss: caches its result (only under a surviving lease in invalidate mode). */
    private void fill(String key, Object lease, Object entry) {
        store.atStage(CasqlStore.Stage.QUERIED, key);
        if (!invalidate) {
            cache.put(key, entry);
        } else if (lease != null) {
            cache.fill(key, lease, entry);
        }
    }

    private StoreException corrupt(String action, String key, IllegalArgumentException e) {
        return new StoreException(
                action + ": the cache holds something else than a BG entry under '" + key + "' (" + e.getMessage()
                        + "); is the cache shared with another application?",
                e);
    }

    // ---- writes: PostgreSQL first, then the keys they affect [CIKM section F]

    /** IF: the invitee's pending count (VP) and friend requests (VFR). */
    @Override
    public void inviteFriend(int inviter, int invitee) {
        RuntimeException failure = null;
        try {
            db.inviteFriend(inviter, invitee);
        } catch (RuntimeException e) {
            failure = e;
        }
        invalidate(failure, CacheKeys.profile(invitee), CacheKeys.friendRequests(invitee));
    }

    /**
     * SR: the feed of every member who may see the share: the listed members of a list share, else the sharer's
     * current friends (a member) or followers (a page). Who they are is read after the share committed, so a member
     * who becomes a friend later is covered by her AFR's own delete, and one who stops being a friend by her TF's.
     */
    @Override
    public void shareResource(int sharer, long resource, long shareId, int[] recipients) {
        RuntimeException failure = null;
        try {
            db.shareResource(sharer, resource, shareId, recipients);
        } catch (RuntimeException e) {
            failure = e;
        }
        if (!invalidate) {
            if (failure != null) {
                throw failure;
            }
            return;
        }
        String[] keys;
        try {
            keys = recipients != null ? feedKeys(recipients) : feedKeys(store.audience(sharer));
        } catch (RuntimeException e) {
            if (failure != null) {
                failure.addSuppressed(e);
                throw failure;
            }
            throw new StoreException(
                    "SR reached PostgreSQL but who sees it could not be read, so the cached feeds "
                            + "of the sharer's friends or followers may be stale until flushed: " + e.getMessage(),
                    e);
        }
        invalidate(failure, keys);
    }

    private static String[] feedKeys(int[] members) {
        String[] keys = new String[members.length];
        for (int i = 0; i < members.length; i++) {
            keys[i] = CacheKeys.feed(members[i]);
        }
        return keys;
    }

    /**
     * AFR: both profiles (friend counts; the invitee's pending count), both friend lists, the invitee's VFR, and both
     * feeds (each now sees the other's past shares).
     */
    @Override
    public void acceptFriendRequest(int invitee, int inviter) {
        RuntimeException failure = null;
        try {
            db.acceptFriendRequest(invitee, inviter);
        } catch (RuntimeException e) {
            failure = e;
        }
        invalidate(
                failure,
                CacheKeys.profile(invitee),
                CacheKeys.profile(inviter),
                CacheKeys.friends(invitee),
                CacheKeys.friends(inviter),
                CacheKeys.friendRequests(invitee),
                CacheKeys.feed(invitee),
                CacheKeys.feed(inviter));
    }

    /** RFR: the invitee's pending count (VP) and friend requests (VFR). */
    @Override
    public void rejectFriendRequest(int invitee, int inviter) {
        RuntimeException failure = null;
        try {
            db.rejectFriendRequest(invitee, inviter);
        } catch (RuntimeException e) {
            failure = e;
        }
        invalidate(failure, CacheKeys.profile(invitee), CacheKeys.friendRequests(invitee));
    }

    /** TF: both profiles (friend counts), both friend lists and both feeds (the other's shares leave them). */
    @Override
    public void thawFriendship(int member, int friend) {
        RuntimeException failure = null;
        try {
            db.thawFriendship(member, friend);
        } catch (RuntimeException e) {
            failure = e;
        }
        invalidate(
                failure,
                CacheKeys.profile(member),
                CacheKeys.profile(friend),
                CacheKeys.friends(member),
                CacheKeys.friends(friend),
                CacheKeys.feed(member),
                CacheKeys.feed(friend));
    }

    /** PCR: the resource's comments (VCR). */
    @Override
    public void postCommentOnResource(
            int commenter, int owner, long resource, long commentId, long timestampMs, String content) {
        RuntimeException failure = null;
        try {
            db.postCommentOnResource(commenter, owner, resource, commentId, timestampMs, content);
        } catch (RuntimeException e) {
            failure = e;
        }
        invalidate(failure, CacheKeys.comments(resource));
    }

    /** DCR: the resource's comments (VCR). */
    @Override
    public void deleteCommentFromResource(int owner, long resource, long commentId) {
        RuntimeException failure = null;
        try {
            db.deleteCommentFromResource(owner, resource, commentId);
        } catch (RuntimeException e) {
            failure = e;
        }
        invalidate(failure, CacheKeys.comments(resource));
    }

    /**
     * In invalidate mode deletes {@code keys}, also after a failed write (it may have changed rows before failing,
     * and a needless delete costs only a miss). Then rethrows the write's failure, if any.
     */
    private void invalidate(RuntimeException failure, String... keys) {
        // An SR may reach no one (a list of nobody, a sharer without friends); Redis refuses a DEL of no keys.
        if (invalidate && keys.length > 0) {
            try {
                cache.delete(keys);
            } catch (RuntimeException e) {
                if (failure == null) {
                    throw new StoreException(
                            "the write reached PostgreSQL but its cache invalidation failed, so "
                                    + "the cache may serve stale data until it is flushed: " + e.getMessage(),
                            e);
                }
                failure.addSuppressed(e);
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    @Override
    public void close() {
        db.close();
    }
}
