package org.bgbench.model.state;

import it.unimi.dsi.fastutil.ints.Int2ObjectOpenHashMap;
import it.unimi.dsi.fastutil.ints.IntArrayList;
import it.unimi.dsi.fastutil.ints.IntOpenHashSet;
import it.unimi.dsi.fastutil.longs.LongArrayList;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Consumer;
import java.util.function.IntConsumer;
import org.bgbench.model.generator.Relation;
import org.bgbench.model.generator.SocialGraph;

/**
 * BG's in-memory copy of the social graph's current state (dissertation 5.2): friendships, pending invitations and comments.
 * It decides which actions are valid (AFR only with a pending invitation, TF only between friends, ...) and, after a
 * run, is the state the store must hold.
 *
 * <p>It stores only what writes changed relative to the {@link SocialGraph}, so an untouched member costs nothing: for
 * M = 1,000,000 the structure starts at a few megabytes and grows with the writes. Each member's delta is guarded by
 * its own monitor; a write that touches two members updates them one after the other, never holding both, so there is
 * no lock ordering to get wrong. Keeping actions on the same members from interleaving is the emulator's job (its
 * member locks, dissertation 5.2); this class only keeps each member's sets consistent.
 */
public final class GraphState {
    private static final VarHandle SLOTS = MethodHandles.arrayElementVarHandle(MemberState[].class);

    private final SocialGraph graph;
    final MemberState[] states;
    private final int commentsPerResource;
    private final int resourcesPerMember;
    final AtomicLong nextCommentId;
    /** Sequence of the next share; a share's id is sequence × accounts + account, unique across workers. */
    final AtomicLong nextShareSeq = new AtomicLong();
    /** Shares by account index, each list in id order; null until the account shares. */
    private final AtomicReferenceArray<List<Share>> shares;

    private final AtomicLong shareCount = new AtomicLong();

    /** @param commentIdBase first id this state hands to new comments; must not collide with another worker's. */
    public GraphState(SocialGraph graph, long commentIdBase) {
        this.graph = graph;
        this.states = new MemberState[graph.members()];
        this.commentsPerResource = graph.spec().commentsPerResource();
        this.resourcesPerMember = graph.spec().resourcesPerMember();
        this.nextCommentId = new AtomicLong(Math.max(commentIdBase, graph.firstFreeCommentId()));
        this.shares = new AtomicReferenceArray<>(graph.accounts());
    }

    public GraphState(SocialGraph graph) {
        this(graph, graph.firstFreeCommentId());
    }

    public SocialGraph graph() {
        return graph;
    }

    static final class MemberState {
        final DeltaSet friends = new DeltaSet();
        final DeltaSet inviters = new DeltaSet();
        final DeltaSet invitees = new DeltaSet();
        int friendCount;
        int pendingCount;
        Int2ObjectOpenHashMap<CommentDelta> comments;

        MemberState(int friendCount, int pendingCount) {
            this.friendCount = friendCount;
            this.pendingCount = pendingCount;
        }
    }

    static final class CommentDelta {
        IntOpenHashSet deletedInitial;
        LongArrayList added;

        int count(int initial) {
            return initial - (deletedInitial == null ? 0 : deletedInitial.size()) + (added == null ? 0 : added.size());
        }
    }

    MemberState peek(int index) {
        return (MemberState) SLOTS.getAcquire(states, index);
    }

    private MemberState state(int index) {
        MemberState s = peek(index);
        if (s == null) {
            MemberState fresh = new MemberState(graph.initialFriendCount(index), graph.initialPendingCount(index));
            s = (MemberState) SLOTS.compareAndExchangeRelease(states, index, null, fresh);
            if (s == null) {
                s = fresh;
            }
        }
        return s;
    }

    // ---- friendship queries ----

    /** Current relation of {@code a} to {@code b}. */
    public Relation relation(int a, int b) {
        Relation initial = graph.initialRelation(a, b);
        MemberState s = peek(a);
        if (s == null) {
            return initial;
        }
        synchronized (s) {
            if (s.friends.contains(b, initial == Relation.FRIENDS)) {
                return Relation.FRIENDS;
            }
            if (s.invitees.contains(b, initial == Relation.INVITED)) {
                return Relation.INVITED;
            }
            if (s.inviters.contains(b, initial == Relation.INVITED_BY)) {
                return Relation.INVITED_BY;
            }
            return Relation.NONE;
        }
    }

    public int friendCount(int index) {
        MemberState s = peek(index);
        if (s == null) {
            return graph.initialFriendCount(index);
        }
        synchronized (s) {
            return s.friendCount;
        }
    }

    /** Number of pending invitations {@code index} has received. */
    public int pendingCount(int index) {
        MemberState s = peek(index);
        if (s == null) {
            return graph.initialPendingCount(index);
        }
        synchronized (s) {
            return s.pendingCount;
        }
    }

    /** A friend of {@code index} chosen by {@code draw} (any int; reduced modulo the count), or -1 if none. */
    public int pickFriend(int index, int draw) {
        return pick(index, Relation.FRIENDS, draw);
    }

    /** A member whose invitation {@code index} has pending, chosen by {@code draw}, or -1 if none. */
    public int pickInviter(int index, int draw) {
        return pick(index, Relation.INVITED_BY, draw);
    }

    private int pick(int index, Relation kind, int draw) {
        MemberState s = peek(index);
        if (s == null) {
            int n = kind == Relation.FRIENDS ? graph.initialFriendCount(index) : graph.initialPendingCount(index);
            return n == 0 ? -1 : nthInitial(index, kind, null, Math.floorMod(draw, n));
        }
        synchronized (s) {
            int n = kind == Relation.FRIENDS ? s.friendCount : s.pendingCount;
            if (n == 0) {
                return -1;
            }
            DeltaSet set = kind == Relation.FRIENDS ? s.friends : s.inviters;
            int target = Math.floorMod(draw, n);
            int initialLeft = n - set.addedSize();
            if (target < initialLeft) {
                return nthInitial(index, kind, set, target);
            }
            return set.addedAt(target - initialLeft);
        }
    }

    private int nthInitial(int index, Relation kind, DeltaSet set, int n) {
        int[] box = {n, -1};
        graph.forEachNeighbour(index, kind, x -> {
            if (box[1] < 0 && (set == null || !set.isRemovedInitial(x)) && box[0]-- == 0) {
                box[1] = x;
            }
        });
        return box[1];
    }

    /** Current friends of {@code index}, sorted. */
    public int[] friends(int index) {
        return members(index, Relation.FRIENDS);
    }

    /** Members with a pending invitation to {@code index}, sorted. */
    public int[] inviters(int index) {
        return members(index, Relation.INVITED_BY);
    }

    /** Members {@code index} has invited and who have not answered, sorted. */
    public int[] invitees(int index) {
        return members(index, Relation.INVITED);
    }

    private int[] members(int index, Relation kind) {
        IntArrayList out = new IntArrayList();
        MemberState s = peek(index);
        if (s == null) {
            graph.forEachNeighbour(index, kind, out::add);
        } else {
            synchronized (s) {
                DeltaSet set = switch (kind) {
                    case FRIENDS -> s.friends;
                    case INVITED_BY -> s.inviters;
                    case INVITED -> s.invitees;
                    case NONE -> throw new IllegalArgumentException("kind");
                };
                graph.forEachNeighbour(index, kind, x -> {
                    if (!set.isRemovedInitial(x)) {
                        out.add(x);
                    }
                });
                set.forEachAdded((IntConsumer) out::add);
            }
        }
        int[] a = out.toIntArray();
        Arrays.sort(a);
        return a;
    }

    // ---- friendship writes (call only when valid; the emulator checks under its member locks) ----

    /** {@code inviter} invites {@code invitee}. */
    public void invite(int inviter, int invitee) {
        MemberState a = state(inviter);
        synchronized (a) {
            a.invitees.add(invitee, graph.initialRelation(inviter, invitee) == Relation.INVITED);
        }
        MemberState b = state(invitee);
        synchronized (b) {
            if (b.inviters.add(inviter, graph.initialRelation(invitee, inviter) == Relation.INVITED_BY)) {
                b.pendingCount++;
            }
        }
    }

    /** {@code invitee} accepts the pending invitation of {@code inviter}. */
    public void accept(int invitee, int inviter) {
        answer(invitee, inviter, true);
    }

    /** {@code invitee} rejects the pending invitation of {@code inviter}. */
    public void reject(int invitee, int inviter) {
        answer(invitee, inviter, false);
    }

    private void answer(int invitee, int inviter, boolean accept) {
        Relation initialFromInvitee = graph.initialRelation(invitee, inviter);
        MemberState b = state(invitee);
        synchronized (b) {
            if (b.inviters.remove(inviter, initialFromInvitee == Relation.INVITED_BY)) {
                b.pendingCount--;
            }
            if (accept && b.friends.add(inviter, initialFromInvitee == Relation.FRIENDS)) {
                b.friendCount++;
            }
        }
        MemberState a = state(inviter);
        synchronized (a) {
            a.invitees.remove(invitee, initialFromInvitee == Relation.INVITED_BY);
            if (accept && a.friends.add(invitee, initialFromInvitee == Relation.FRIENDS)) {
                a.friendCount++;
            }
        }
    }

    /** {@code a} and {@code b} stop being friends. */
    public void thaw(int a, int b) {
        boolean initiallyFriends = graph.initialRelation(a, b) == Relation.FRIENDS;
        MemberState sa = state(a);
        synchronized (sa) {
            if (sa.friends.remove(b, initiallyFriends)) {
                sa.friendCount--;
            }
        }
        MemberState sb = state(b);
        synchronized (sb) {
            if (sb.friends.remove(a, initiallyFriends)) {
                sb.friendCount--;
            }
        }
    }

    // ---- comments ----

    private int resourceSlot(long rid, int owner) {
        return (int) (rid - (long) owner * resourcesPerMember);
    }

    public int commentCount(long rid) {
        int owner = graph.resourceOwner(rid);
        MemberState s = peek(owner);
        if (s == null) {
            return commentsPerResource;
        }
        synchronized (s) {
            CommentDelta d = s.comments == null ? null : s.comments.get(resourceSlot(rid, owner));
            return d == null ? commentsPerResource : d.count(commentsPerResource);
        }
    }

    /** A fresh comment id; unique within this state (and across workers given disjoint bases). */
    public long newCommentId() {
        return nextCommentId.getAndIncrement();
    }

    public void postComment(long rid, long mid) {
        int owner = graph.resourceOwner(rid);
        MemberState s = state(owner);
        synchronized (s) {
            CommentDelta d = delta(s, resourceSlot(rid, owner));
            if (d.added == null) {
                d.added = new LongArrayList(2);
            }
            d.added.add(mid);
        }
    }

    public void deleteComment(long rid, long mid) {
        int owner = graph.resourceOwner(rid);
        MemberState s = state(owner);
        synchronized (s) {
            CommentDelta d = delta(s, resourceSlot(rid, owner));
            if (mid < graph.firstFreeCommentId()) {
                if (d.deletedInitial == null) {
                    d.deletedInitial = new IntOpenHashSet(2);
                }
                d.deletedInitial.add((int) (mid - rid * commentsPerResource));
            } else if (d.added != null) {
                d.added.rem(mid);
            }
        }
    }

    private static CommentDelta delta(MemberState s, int slot) {
        if (s.comments == null) {
            s.comments = new Int2ObjectOpenHashMap<>(4);
        }
        CommentDelta d = s.comments.get(slot);
        if (d == null) {
            d = new CommentDelta();
            s.comments.put(slot, d);
        }
        return d;
    }

    /** A comment on {@code rid} chosen by {@code draw}, or -1 if it has none. */
    public long pickComment(long rid, int draw) {
        long[] all = comments(rid);
        return all.length == 0 ? -1 : all[Math.floorMod(draw, all.length)];
    }

    /** A resource on {@code owner}'s wall that has comments, searched from a slot chosen by {@code draw}, or -1. */
    public long pickResourceWithComments(int owner, int draw) {
        if (resourcesPerMember == 0) {
            return -1;
        }
        int start = Math.floorMod(draw, resourcesPerMember);
        for (int i = 0; i < resourcesPerMember; i++) {
            long rid = graph.resourceId(owner, (start + i) % resourcesPerMember);
            if (commentCount(rid) > 0) {
                return rid;
            }
        }
        return -1;
    }

    /** Current comment ids on {@code rid}, sorted. */
    public long[] comments(long rid) {
        int owner = graph.resourceOwner(rid);
        MemberState s = peek(owner);
        CommentDelta d = null;
        LongArrayList out = new LongArrayList(commentsPerResource + 2);
        Object lock = s == null ? this : s;
        synchronized (lock) {
            if (s != null && s.comments != null) {
                d = s.comments.get(resourceSlot(rid, owner));
            }
            for (int k = 0; k < commentsPerResource; k++) {
                if (d == null || d.deletedInitial == null || !d.deletedInitial.contains(k)) {
                    out.add(graph.commentId(rid, k));
                }
            }
            if (d != null && d.added != null) {
                out.addAll(d.added);
            }
        }
        long[] a = out.toLongArray();
        Arrays.sort(a);
        return a;
    }

    // ---- shares and feeds (dissertation 3.2, 8.4) ----

    /**
     * A fresh share id for account {@code account}: ids grow with the order shares are issued in this state, and two
     * workers (owning disjoint accounts) never hand out the same id.
     */
    public long newShareId(int account) {
        return nextShareSeq.getAndIncrement() * graph.accounts() + account;
    }

    /** Records an acknowledged share. {@code recipients}: member indexes, or null for all friends or followers. */
    public void share(int account, long shareId, long resource, int[] recipients) {
        int[] sorted = recipients == null ? null : recipients.clone();
        if (sorted != null) {
            Arrays.sort(sorted);
        }
        Share sh = new Share(shareId, account, resource, sorted);
        if (account < states.length) {
            // A member who shared is touched: her state (her shares) differs from the generated graph's.
            state(account);
        }
        List<Share> list = shares.get(account);
        if (list == null) {
            shares.compareAndSet(account, null, new ArrayList<>(4));
            list = shares.get(account);
        }
        synchronized (list) {
            int at = list.size();
            while (at > 0 && list.get(at - 1).id() > shareId) {
                at--;
            }
            list.add(at, sh);
        }
        shareCount.incrementAndGet();
    }

    /** Shares of account {@code account}, oldest first. */
    public Share[] shares(int account) {
        List<Share> list = shares.get(account);
        if (list == null) {
            return new Share[0];
        }
        synchronized (list) {
            return list.toArray(new Share[0]);
        }
    }

    public long shareCount() {
        return shareCount.get();
    }

    /** Calls {@code action} with every share, by account then id. */
    public void forEachShare(Consumer<Share> action) {
        for (int a = 0; a < graph.accounts(); a++) {
            for (Share sh : shares(a)) {
                action.accept(sh);
            }
        }
    }

    /** Accounts member {@code index} sees shares of: her current friends and the pages she follows (account indexes). */
    public int[] producers(int index) {
        it.unimi.dsi.fastutil.ints.IntArrayList out = new it.unimi.dsi.fastutil.ints.IntArrayList(friends(index));
        graph.forEachFollowedPage(index, p -> out.add(graph.pageAccount(p)));
        return out.toIntArray();
    }

    /**
     * What View News Feed must show member {@code index} now: the {@code k} most recent shares (highest id first)
     * by her friends and followed pages that are public or list her.
     */
    public Share[] feed(int index, int k) {
        PriorityQueue<Share> top = new PriorityQueue<>(Comparator.comparingLong(Share::id));
        for (int producer : producers(index)) {
            Share[] of = shares(producer);
            for (int i = of.length - 1; i >= 0; i--) {
                Share sh = of[i];
                if (top.size() == k && sh.id() < top.peek().id()) {
                    break;
                }
                if (sh.visibleTo(index)) {
                    top.add(sh);
                    if (top.size() > k) {
                        top.poll();
                    }
                }
            }
        }
        Share[] out = top.toArray(new Share[0]);
        Arrays.sort(out, Comparator.comparingLong(Share::id).reversed());
        return out;
    }

    /** Whether any write changed the state: a member touched or a share made (by a member or a page). */
    public boolean changed() {
        return shareCount() > 0 || touchedMembers() > 0;
    }

    /** Members whose state differs from the generated graph (touched by a write); for reports and repair. */
    public int touchedMembers() {
        int n = 0;
        for (int i = 0; i < states.length; i++) {
            if (peek(i) != null) {
                n++;
            }
        }
        return n;
    }

    /** Calls {@code action} with each member touched by a write, in index order; for repair. */
    public void forEachTouched(IntConsumer action) {
        for (int i = 0; i < states.length; i++) {
            if (peek(i) != null) {
                action.accept(i);
            }
        }
    }

    /**
     * Writes the state (only what differs from the generated graph) so a later run can start where this one ended
     * (dissertation 5.2, dissertation 7.2). Call when no thread is changing the state. The format is {@link StateFile}'s.
     */
    public void writeTo(DataOutput out) throws IOException {
        StateFile.write(this, out);
    }

    /**
     * Reads a state written by {@link #writeTo}; refuses one written for another graph. A state that is cut short or
     * damaged is refused with a {@link StateFormatException} naming the part reading stopped in.
     */
    public static GraphState readFrom(SocialGraph graph, DataInput in) throws IOException {
        return StateFile.read(graph, in);
    }

    /** Whether {@code index} was ever touched by a write (its state may differ from the generated one). */
    public boolean isTouched(int index) {
        return peek(index) != null;
    }
}
