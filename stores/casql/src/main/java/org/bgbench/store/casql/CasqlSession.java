package org.bgbench.store.casql;

import org.bgbench.store.CommentList;
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
        return new StoreException(action + ": the cache holds something else than a BG entry under '" + key + "' ("
                + e.getMessage() + "); is the cache shared with another application?", e);
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

    /** AFR: both profiles (friend counts; the invitee's pending count), both friend lists, the invitee's VFR. */
    @Override
    public void acceptFriendRequest(int invitee, int inviter) {
        RuntimeException failure = null;
        try {
            db.acceptFriendRequest(invitee, inviter);
        } catch (RuntimeException e) {
            failure = e;
        }
        invalidate(failure, CacheKeys.profile(invitee), CacheKeys.profile(inviter), CacheKeys.friends(invitee),
                CacheKeys.friends(inviter), CacheKeys.friendRequests(invitee));
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

    /** TF: both profiles (friend counts) and both friend lists. */
    @Override
    public void thawFriendship(int member, int friend) {
        RuntimeException failure = null;
        try {
            db.thawFriendship(member, friend);
        } catch (RuntimeException e) {
            failure = e;
        }
        invalidate(failure, CacheKeys.profile(member), CacheKeys.profile(friend), CacheKeys.friends(member),
                CacheKeys.friends(friend));
    }

    /** PCR: the resource's comments (VCR). */
    @Override
    public void postCommentOnResource(int commenter, int owner, long resource, long commentId, long timestampMs,
                                      String content) {
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
        if (invalidate) {
            try {
                cache.delete(keys);
            } catch (RuntimeException e) {
                if (failure == null) {
                    throw new StoreException("the write reached PostgreSQL but its cache invalidation failed, so "
                            + "the cache may serve stale data until it is flushed: " + e.getMessage(), e);
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
