package org.bgbench.store.memory;

import java.util.Arrays;
import java.util.Comparator;
import java.util.function.Consumer;
import org.bgbench.store.CommentList;
import org.bgbench.store.FeedList;
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
 *
 * <p>Feeds (dissertation 8.4.2) follow the same rules. Pull's VNF reads the member and every friend and followed page
 * optimistically and validates all of them at the end, so it saw one instant (the last stamp read); after a few
 * failed tries it locks them all in id order. Push's SR locks the sharer and every recipient in id order and changes
 * them in one write section each, open together, so a share appears in all feeds at once; VNF reads one member.
 */
final class MemorySession implements StoreSession {
    /** Optimistic tries of Pull's VNF before it locks; a try fails only when a write overlapped it. */
    private static final int PULL_TRIES = 4;

    private static final Comparator<Share> NEWEST_FIRST = (x, y) -> Long.compare(y.id, x.id);

    private final Instance instance;
    /** Reused by VNF: this session's thread is the only user. */
    private Share[] top = Share.NONE;

    private int topCount;
    private int[] ids = SortedInts.EMPTY;
    private int[] stamps = SortedInts.EMPTY;
    private Account[] accounts = new Account[0];

    /** Where push designs hand a share's fan-out when it is delayed ({@code feed.fanout.delay}); null: inside SR. */
    private final Consumer<Runnable> later;

    MemorySession(Instance instance) {
        this(instance, null);
    }

    MemorySession(Instance instance, Consumer<Runnable> later) {
        this.instance = instance;
        this.later = later;
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
        SessionRows.copyAttributes(d.attributes[pi], out.attributes);
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
        SessionRows.addIds(p.friends, p.friendCount, out);
        if (!p.validate(s)) {
            out.clear();
            synchronized (p) {
                SessionRows.addIds(p.friends, p.friendCount, out);
            }
        }
        SessionRows.fillProfiles(d, out);
    }

    @Override
    public void viewFriendRequests(int member, MemberList out) {
        Db d = instance.requireDb();
        Member p = d.member(member);
        out.clear();
        int s = p.stamp();
        SessionRows.addIds(p.inviters, p.inviterCount, out);
        if (!p.validate(s)) {
            out.clear();
            synchronized (p) {
                SessionRows.addIds(p.inviters, p.inviterCount, out);
            }
        }
        SessionRows.fillProfiles(d, out);
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
                if (d.design.pushes()) {
                    // Each now sees the other's past shares that are public or list her (dissertation 8.4.2).
                    boolean sorted = d.design.kind() == FeedDesign.Kind.SORTED_PUSH;
                    int[] added = new int[1];
                    a.feed = Feeds.addVisible(a.feed, a.feedCount, b.shares, b.shareCount, invitee, sorted, added);
                    a.feedCount += added[0];
                    b.feed = Feeds.addVisible(b.feed, b.feedCount, a.shares, a.shareCount, inviter, sorted, added);
                    b.feedCount += added[0];
                }
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
                if (d.design.pushes()) {
                    // Former friends no longer see each other's shares (dissertation 8.4.2).
                    a.feedCount = Feeds.removeSharer(a.feed, a.feedCount, friend);
                    b.feedCount = Feeds.removeSharer(b.feed, b.feedCount, member);
                }
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
        Resource r = SessionRows.resourceOf(d.member(owner), owner, resource, "VCR");
        out.clear();
        int s = r.stamp();
        SessionRows.addComments(r, out);
        if (!r.validate(s)) {
            out.clear();
            synchronized (r) {
                SessionRows.addComments(r, out);
            }
        }
    }

    @Override
    public void postCommentOnResource(
            int commenter, int owner, long resource, long commentId, long timestampMs, String content) {
        Db d = instance.requireDb();
        d.index(commenter);
        Resource r = SessionRows.resourceOf(d.member(owner), owner, resource, "PCR");
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
        Resource r = SessionRows.resourceOf(d.member(owner), owner, resource, "DCR");
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
    public void shareResource(int sharer, long resource, long shareId, int[] recipients) {
        Db d = instance.requireDb();
        Account a = d.account(sharer);
        Resource r = a.resource(resource);
        if (r == null) {
            throw new StoreException("SR: resource " + resource + " is not owned by account " + sharer);
        }
        int[] to = null;
        if (recipients != null) {
            to = recipients.clone();
            Arrays.sort(to);
            int n = 0;
            for (int i = 0; i < to.length; i++) {
                d.index(to[i]);
                if (n == 0 || to[n - 1] != to[i]) {
                    to[n++] = to[i];
                }
            }
            to = n == to.length ? to : Arrays.copyOf(to, n);
        }
        FeedDesign design = d.design;
        Share s = design.copiesContent()
                ? new Share(shareId, sharer, resource, to, r.type, r.body, r.doc)
                : new Share(shareId, sharer, resource, to, null, null, null);
        if (!design.pushes()) {
            // Pull (figure 8.11): the share is stored with its sharer and nowhere else.
            synchronized (a) {
                ShareFanOut.refuseDuplicate(a, shareId);
                a.beginWrite();
                a.addShare(s);
                a.endWrite();
            }
            return;
        }
        boolean sorted = design.kind() == FeedDesign.Kind.SORTED_PUSH;
        if (later != null) {
            // A deliberately late fan-out: the share is the sharer's now, her audience's feeds get it later (those
            // that an AFR gave it meanwhile keep one copy). Stale by design, for checking BG's validation.
            synchronized (a) {
                ShareFanOut.refuseDuplicate(a, shareId);
                a.beginWrite();
                a.addShare(s);
                a.endWrite();
            }
            later.accept(() -> ShareFanOut.fanOut(d, a, sharer, s, sorted, false));
            return;
        }
        ShareFanOut.fanOut(d, a, sharer, s, sorted, true);
    }

    @Override
    public void viewNewsFeed(int member, int k, FeedList out) {
        Db d = instance.requireDb();
        Member x = d.member(member);
        out.clear();
        if (k <= 0) {
            return;
        }
        topCount = 0;
        switch (d.design.kind()) {
            case PULL -> pull(d, x, member, k);
            case PUSH -> readWholeFeed(x, k);
            case SORTED_PUSH -> readTopOfFeed(x, k);
        }
        for (int i = 0; i < topCount; i++) {
            Share s = top[i];
            FeedList.Row row = out.add(s.id);
            row.resourceId = s.rid;
            row.sharerId = s.sharer;
            if (s.type != null) {
                row.type = s.type;
                row.body = s.body;
                row.doc = s.doc;
            } else {
                // Reference (and Pull): join with the resource, whose attributes never change.
                Resource r = d.account(s.sharer).resource(s.rid);
                row.type = r.type;
                row.body = r.body;
                row.doc = r.doc;
            }
            top[i] = null;
        }
    }

    /** Push: copies the whole feed, sorts it newest first and keeps k (dissertation 8.4.2). */
    private void readWholeFeed(Member x, int k) {
        int st = x.stamp();
        Share[] f = x.feed;
        int n = Math.min(x.feedCount, f.length);
        Share[] copy = Arrays.copyOf(f, n);
        if (!x.validate(st)) {
            synchronized (x) {
                copy = Arrays.copyOf(x.feed, x.feedCount);
            }
        }
        Arrays.sort(copy, NEWEST_FIRST);
        room(Math.min(k, copy.length));
        topCount = Math.min(k, copy.length);
        System.arraycopy(copy, 0, top, 0, topCount);
    }

    /** Sorted-insert Push: the feed is ascending by share id, so the top k are its last k entries. */
    private void readTopOfFeed(Member x, int k) {
        int st = x.stamp();
        takeTop(x.feed, x.feedCount, k);
        if (!x.validate(st)) {
            synchronized (x) {
                takeTop(x.feed, x.feedCount, k);
            }
        }
    }

    private void takeTop(Share[] f, int count, int k) {
        int n = Math.min(count, f.length);
        int m = Math.min(k, n);
        room(m);
        for (int i = 0; i < m; i++) {
            top[i] = f[n - 1 - i];
        }
        topCount = m;
    }

    /**
     * Pull (figure 8.11): the top k over the member's friends and followed pages, computed now. Optimistic: the
     * member's stamp is validated last, so her friends and every producer's shares were all unchanged at the moment
     * the last producer's stamp was read.
     */
    private void pull(Db d, Member x, int memberId, int k) {
        int[] pages = x.pages;
        for (int attempt = 0; attempt < PULL_TRIES; attempt++) {
            int sx = x.stamp();
            if ((sx & 1) != 0) {
                Thread.onSpinWait();
                continue;
            }
            int[] f = x.friends;
            int n = Math.min(x.friendCount, f.length);
            int producers = n + pages.length;
            ensure(producers);
            System.arraycopy(f, 0, ids, 0, n);
            System.arraycopy(pages, 0, ids, n, pages.length);
            topCount = 0;
            boolean ok = true;
            for (int i = 0; i < producers && ok; i++) {
                Account p = producer(d, ids[i], i < n);
                if (p == null) {
                    ok = false;
                } else {
                    stamps[i] = p.stamp();
                    accounts[i] = p;
                    collect(p, memberId, k);
                }
            }
            for (int i = 0; i < producers && ok; i++) {
                ok = accounts[i].validate(stamps[i]);
            }
            Arrays.fill(accounts, 0, producers, null);
            if (ok && x.validate(sx)) {
                return;
            }
        }
        pullLocked(d, x, memberId, k, pages);
    }

    /** A friend (or page) slot read optimistically; null when a torn read gave an id that is no account. */
    private static Account producer(Db d, int id, boolean friend) {
        if (friend) {
            int i = id - d.offset;
            return i >= 0 && i < d.members.length ? d.members[i] : null;
        }
        return d.pages[id - d.offset - d.members.length];
    }

    /** Pull when writes kept overlapping: the member, her friends and pages locked in id order. */
    private void pullLocked(Db d, Member x, int memberId, int k, int[] pages) {
        while (true) {
            int[] f;
            synchronized (x) {
                f = Arrays.copyOf(x.friends, x.friendCount);
            }
            // Pages' account ids follow every member's, so they go last.
            Account[] locked = ShareFanOut.lockOrder(d, x, memberId, f, pages.length);
            for (int i = 0; i < pages.length; i++) {
                locked[f.length + 1 + i] = producer(d, pages[i], false);
            }
            boolean done = Locks.holding(locked, locked.length, () -> {
                if (!Arrays.equals(f, 0, f.length, x.friends, 0, x.friendCount)) {
                    return false;
                }
                topCount = 0;
                for (Account p : locked) {
                    if (p != x) {
                        collect(p, memberId, k);
                    }
                }
                return true;
            });
            if (done) {
                return;
            }
        }
    }

    private void ensure(int n) {
        if (ids.length < n) {
            int c = Math.max(n, ids.length * 2);
            ids = new int[c];
            stamps = new int[c];
            accounts = new Account[c];
        }
    }

    /** Offers {@code p}'s shares that {@code viewer} may see to the top k, newest first, stopping at older ones. */
    private void collect(Account p, int viewer, int k) {
        Share[] sh = p.shares;
        int n = Math.min(p.shareCount, sh.length);
        for (int i = n - 1; i >= 0; i--) {
            Share s = sh[i];
            if (s == null) {
                // Torn by a concurrent write; validation rejects this try.
                return;
            }
            if (topCount == k && s.id < top[k - 1].id) {
                return;
            }
            if (s.visibleTo(viewer)) {
                offer(s, k);
            }
        }
    }

    /** Grows the top-k buffer to hold {@code n}; k may be far larger than any feed, so it grows with use. */
    private void room(int n) {
        if (top.length < n) {
            top = Arrays.copyOf(top, Math.max(n, Math.max(16, top.length * 2)));
        }
    }

    /** Inserts into the top k (descending id). */
    private void offer(Share s, int k) {
        int n = topCount;
        if (n == k) {
            if (s.id <= top[k - 1].id) {
                return;
            }
            n--;
        }
        if (n == top.length) {
            room((int) Math.min(k, n + 1L));
        }
        int pos = n;
        while (pos > 0 && top[pos - 1].id < s.id) {
            top[pos] = top[pos - 1];
            pos--;
        }
        top[pos] = s;
        topCount = n + 1;
    }

    @Override
    public void close() {
        // A session holds no resources of its own.
    }
}
