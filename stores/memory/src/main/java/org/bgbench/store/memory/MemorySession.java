package org.bgbench.store.memory;

import org.bgbench.store.CommentList;
import org.bgbench.store.MemberList;
import org.bgbench.store.ProfileView;
import org.bgbench.store.ResourceList;
import org.bgbench.store.StoreException;
import org.bgbench.store.StoreSession;

/**
 * The actions. Each one is linearizable: reads of a member's sets (or a resource's comments) are optimistic and
 * validated by the object's sequence lock, retried under its monitor when a write overlapped; writes hold the monitor
 * of every object they read or change, two members locked in id order, and change all of them inside one write
 * section. Profiles and walls never change after the load, so they are read without any synchronisation.
 */
final class MemorySession implements StoreSession {
    private final Instance instance;

    MemorySession(Instance instance) {
        this.instance = instance;
    }

    @Override
    public void viewProfile(int requester, int profile, ProfileView out) {
        Db d = instance.requireDb();
        d.index(requester);
        int pi = d.index(profile);
        Member p = d.members[pi];
        int s = p.stamp();
        int friends = p.friendCount;
        int pending = p.inviterCount;
        if (!p.validate(s)) {
            synchronized (p) {
                friends = p.friendCount;
                pending = p.inviterCount;
            }
        }
        out.memberId = profile;
        copyAttributes(d.attributes[pi], out.attributes);
        out.profileImage = p.profileImage;
        out.friendCount = friends;
        out.resourceCount = p.resourceCount;
        out.pendingCount = requester == profile ? pending : -1;
    }

    @Override
    public void listFriends(int requester, int profile, MemberList out) {
        Db d = instance.requireDb();
        d.index(requester);
        Member p = d.member(profile);
        out.clear();
        int s = p.stamp();
        addIds(p.friends, p.friendCount, out);
        if (!p.validate(s)) {
            out.clear();
            synchronized (p) {
                addIds(p.friends, p.friendCount, out);
            }
        }
        fillProfiles(d, out);
    }

    @Override
    public void viewFriendRequests(int member, MemberList out) {
        Db d = instance.requireDb();
        Member p = d.member(member);
        out.clear();
        int s = p.stamp();
        addIds(p.inviters, p.inviterCount, out);
        if (!p.validate(s)) {
            out.clear();
            synchronized (p) {
                addIds(p.inviters, p.inviterCount, out);
            }
        }
        fillProfiles(d, out);
    }

    @Override
    public void inviteFriend(int inviter, int invitee) {
        Db d = instance.requireDb();
        if (inviter == invitee) {
            throw new StoreException("IF: member " + inviter + " cannot invite herself");
        }
        Member a = d.member(inviter);
        Member b = d.member(invitee);
        // Both locked: the check "no invitation either way" reads a, the change writes b.
        Member first = inviter < invitee ? a : b;
        Member second = inviter < invitee ? b : a;
        synchronized (first) {
            synchronized (second) {
                if (SortedInts.find(b.friends, b.friendCount, inviter) >= 0) {
                    throw new StoreException("IF: members " + inviter + " and " + invitee + " are already friends");
                }
                int pos = SortedInts.find(b.inviters, b.inviterCount, inviter);
                if (pos >= 0) {
                    throw new StoreException("IF: member " + inviter + " has already invited " + invitee);
                }
                if (SortedInts.find(a.inviters, a.inviterCount, invitee) >= 0) {
                    throw new StoreException("IF: member " + invitee + " has a pending invitation to " + inviter);
                }
                b.beginWrite();
                b.inviters = SortedInts.insert(b.inviters, b.inviterCount, -pos - 1, inviter, 4);
                b.inviterCount++;
                b.endWrite();
            }
        }
    }

    @Override
    public void acceptFriendRequest(int invitee, int inviter) {
        Db d = instance.requireDb();
        if (inviter == invitee) {
            throw new StoreException("AFR: member " + invitee + " cannot accept her own invitation");
        }
        Member a = d.member(invitee);
        Member b = d.member(inviter);
        Member first = invitee < inviter ? a : b;
        Member second = invitee < inviter ? b : a;
        synchronized (first) {
            synchronized (second) {
                int pos = SortedInts.find(a.inviters, a.inviterCount, inviter);
                if (pos < 0) {
                    throw new StoreException("AFR: member " + invitee + " has no pending invitation from " + inviter);
                }
                // Both sections open before either closes: a reader that sees the friendship on one side and then
                // reads the other side sees it there too.
                a.beginWrite();
                b.beginWrite();
                SortedInts.remove(a.inviters, a.inviterCount, pos);
                a.inviterCount--;
                a.addFriend(inviter, 4);
                b.addFriend(invitee, 4);
                a.endWrite();
                b.endWrite();
            }
        }
    }

    @Override
    public void rejectFriendRequest(int invitee, int inviter) {
        Db d = instance.requireDb();
        Member a = d.member(invitee);
        d.index(inviter);
        // Only the invitee's set holds the invitation, so her monitor alone makes this atomic.
        synchronized (a) {
            int pos = SortedInts.find(a.inviters, a.inviterCount, inviter);
            if (pos < 0) {
                throw new StoreException("RFR: member " + invitee + " has no pending invitation from " + inviter);
            }
            a.beginWrite();
            SortedInts.remove(a.inviters, a.inviterCount, pos);
            a.inviterCount--;
            a.endWrite();
        }
    }

    @Override
    public void thawFriendship(int member, int friend) {
        Db d = instance.requireDb();
        Member a = d.member(member);
        Member b = d.member(friend);
        Member first = member < friend ? a : b;
        Member second = member < friend ? b : a;
        synchronized (first) {
            synchronized (second) {
                int pa = SortedInts.find(a.friends, a.friendCount, friend);
                int pb = SortedInts.find(b.friends, b.friendCount, member);
                if (pa < 0 || pb < 0 || member == friend) {
                    throw new StoreException("TF: members " + member + " and " + friend + " are not friends");
                }
                a.beginWrite();
                b.beginWrite();
                SortedInts.remove(a.friends, a.friendCount, pa);
                a.friendCount--;
                SortedInts.remove(b.friends, b.friendCount, pb);
                b.friendCount--;
                a.endWrite();
                b.endWrite();
            }
        }
    }

    @Override
    public void viewTopKResources(int requester, int profile, int k, ResourceList out) {
        Db d = instance.requireDb();
        d.index(requester);
        Member p = d.member(profile);
        out.clear();
        Resource[] wall = p.wall;
        int end = Math.max(0, wall.length - Math.max(0, k));
        for (int i = wall.length - 1; i >= end; i--) {
            Resource r = wall[i];
            ResourceList.Row row = out.add(r.id);
            row.creatorId = r.creator;
            row.wallUserId = r.wallUser;
            row.type = r.type;
            row.body = r.body;
            row.doc = r.doc;
        }
    }

    @Override
    public void viewCommentsOnResource(int requester, int owner, long resource, CommentList out) {
        Db d = instance.requireDb();
        d.index(requester);
        Resource r = resourceOf(d.member(owner), owner, resource, "VCR");
        out.clear();
        int s = r.stamp();
        addComments(r, out);
        if (!r.validate(s)) {
            out.clear();
            synchronized (r) {
                addComments(r, out);
            }
        }
    }

    @Override
    public void postCommentOnResource(int commenter, int owner, long resource, long commentId, long timestampMs,
                                      String content) {
        Db d = instance.requireDb();
        d.index(commenter);
        Resource r = resourceOf(d.member(owner), owner, resource, "PCR");
        Comment c = new Comment(commentId, commenter, timestampMs, content);
        synchronized (r) {
            if (r.indexOfComment(commentId) >= 0) {
                throw new StoreException("PCR: comment " + commentId + " already exists on resource " + resource);
            }
            r.beginWrite();
            r.append(c);
            r.endWrite();
        }
    }

    @Override
    public void deleteCommentFromResource(int owner, long resource, long commentId) {
        Db d = instance.requireDb();
        Resource r = resourceOf(d.member(owner), owner, resource, "DCR");
        synchronized (r) {
            int i = r.indexOfComment(commentId);
            if (i < 0) {
                throw new StoreException("DCR: resource " + resource + " has no comment " + commentId);
            }
            r.beginWrite();
            r.removeAt(i);
            r.endWrite();
        }
    }

    @Override
    public void close() {
        // A session holds no resources of its own.
    }

    private static Resource resourceOf(Member owner, int ownerId, long rid, String action) {
        Resource r = owner.resource(rid);
        if (r == null) {
            throw new StoreException(action + ": resource " + rid + " is not on the wall of member " + ownerId);
        }
        return r;
    }

    private static void copyAttributes(String[] from, String[] to) {
        System.arraycopy(from, 0, to, 0, Math.min(from.length, to.length));
    }

    /** Appends the ids of a set; bounded by the array so a torn optimistic read cannot fail before validation. */
    private static void addIds(int[] ids, int count, MemberList out) {
        for (int i = 0, n = Math.min(count, ids.length); i < n; i++) {
            out.add(ids[i]);
        }
    }

    /** Fills attributes and thumbnails of listed members; both are immutable, so no lock is needed. */
    private static void fillProfiles(Db d, MemberList out) {
        String[][] attributes = d.attributes;
        byte[][] thumbnails = d.thumbnails;
        int offset = d.offset;
        for (int i = 0, n = out.size(); i < n; i++) {
            MemberList.Row row = out.get(i);
            int index = row.memberId - offset;
            String[] a = attributes[index];
            if (a == null) {
                throw new StoreException("member " + row.memberId + " is related but has not been loaded");
            }
            copyAttributes(a, row.attributes);
            row.thumbnail = thumbnails[index];
        }
    }

    /** Appends the comments in posting order; stops at a torn slot, which only an overlapping write produces. */
    private static void addComments(Resource r, CommentList out) {
        Comment[] cs = r.comments;
        for (int i = 0, n = Math.min(r.commentCount, cs.length); i < n; i++) {
            Comment c = cs[i];
            if (c == null) {
                return;
            }
            CommentList.Row row = out.add(c.id());
            row.resourceId = r.id;
            row.creatorId = r.creator;
            row.modifierId = c.modifier();
            row.timestampMs = c.timestampMs();
            row.type = Comment.TYPE;
            row.content = c.content();
        }
    }
}
