package org.bgbench.loader.repair;

import it.unimi.dsi.fastutil.ints.IntOpenHashSet;
import it.unimi.dsi.fastutil.longs.LongOpenHashSet;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.bgbench.model.generator.Relation;
import org.bgbench.model.generator.SocialGraph;
import org.bgbench.model.state.GraphState;
import org.bgbench.store.CommentList;
import org.bgbench.store.DataStore;
import org.bgbench.store.FeedList;
import org.bgbench.store.MemberList;
import org.bgbench.store.StoreException;
import org.bgbench.store.StoreSession;

/**
 * {@code bg verify --repair}: brings a store back to the generated graph when BG does not know what it holds (after an
 * interrupted run, a crash that lost commits, rows changed by hand), by reading every member back through the store's
 * own actions and fixing each difference with them.
 *
 * <p>Unlike {@link RepairDb}, which undoes the writes BG's expected state records and so trusts that state, this
 * trusts nothing but the generator: it reads every member's friends (LF) and pending invitations (VFR) and every
 * resource's comments (VCR), and for each pair of members whose relation differs from the generated one (a friendship
 * or an invitation too many or missing, one listed on one side only, listed twice) clears what the store holds (TF,
 * RFR) and recreates the generated relation (IF, then AFR); for each resource it deletes the comments that are not
 * generated, and deletes and posts again those that are missing or whose author, time or text differ (DCR, PCR with
 * the original id, author, time and text). The target is the generated graph because it is the one state BG can
 * recreate exactly: a comment a run posted has no text or time in BG's expected state, and after an interrupted run
 * BG does not know which writes reached the store.
 *
 * <p>What it cannot fix through actions it refuses, and says so ({@link Report#refused()}): a list naming a member id
 * outside the graph, and (found by the caller's read-back) anything actions cannot change — missing or extra members
 * or resources, changed profiles. The caller reads the whole store back afterwards and falls back to a reload.
 *
 * <p>With pages (feed following, dissertation 3.2 and 5.1) a run may have shared resources, which no action undoes
 * and BG may not know of: the repair always removes every share ({@link DataStore#clearShares()}) and then reads the
 * news feed of every member it repairs, which must be empty.
 */
public final class StoreRepair {
    private StoreRepair() {}

    /**
     * What the repair did.
     *
     * @param members       members read
     * @param relationships member pairs whose relation was restored
     * @param comments      comments deleted or posted again
     * @param storeCalls    write actions issued
     * @param refused       differences it could not fix through actions (empty: it fixed everything it found)
     * @param seconds       wall-clock time
     */
    public record Report(
            int members, long relationships, long comments, long storeCalls, List<String> refused, double seconds) {}

    /** What one member's lists show beyond or short of the generated graph (member indexes). */
    private record MemberDiff(
            int index,
            IntOpenHashSet extraFriends,
            IntOpenHashSet missingFriends,
            IntOpenHashSet extraInviters,
            IntOpenHashSet missingInviters,
            IntOpenHashSet dupFriends,
            IntOpenHashSet dupInviters) {
        boolean isEmpty() {
            return extraFriends.isEmpty()
                    && missingFriends.isEmpty()
                    && extraInviters.isEmpty()
                    && missingInviters.isEmpty()
                    && dupFriends.isEmpty()
                    && dupInviters.isEmpty();
        }
    }

    /** One resource's comment fixes: delete these ids, then post these generated ones again. */
    private record CommentFix(int owner, long rid, long[] delete, long[] post) {}

    /** Rounds of reading and fixing at most: a fix the store reported as failed, or one that met another, is redone. */
    private static final int ROUNDS = 4;

    /**
     * Reads {@code members} (indexes; null for all) and fixes every difference from the generated graph, with
     * {@code threads} sessions in parallel, then reads them again and fixes what is left, until a round finds nothing
     * (at most {@value #ROUNDS} rounds). A fix on rows BG never wrote may change them and still be reported as failed
     * by the store (a delete that met two rows where its action expects one): such failures are noted and the next
     * round's reading decides. Pairs never cross fragments, so a worker may repair its own share.
     */
    public static Report toGenerated(DataStore store, SocialGraph g, int threads, int[] members) {
        long t0 = System.nanoTime();
        long relationships = 0;
        long comments = 0;
        long calls = 0;
        List<String> refused = List.of();
        boolean feeds = g.pages() > 0;
        if (feeds) {
            // Not counted in storeCalls (write actions): a store without shares is left as it was.
            store.clearShares();
        }
        for (int round = 1; round <= ROUNDS; round++) {
            Round r = round(store, g, threads, members);
            refused = r.refused();
            if (r.pairs() == 0 && r.comments() == 0) {
                break;
            }
            if (round == ROUNDS) {
                List<String> left = new ArrayList<>(refused);
                left.add(r.pairs() + " relations and " + r.comments() + " comments still differ after " + ROUNDS
                        + " rounds"
                        + (r.errors().isEmpty()
                                ? ""
                                : "; the store refused: "
                                        + String.join(
                                                "; ",
                                                r.errors()
                                                        .subList(
                                                                0,
                                                                Math.min(
                                                                        3,
                                                                        r.errors()
                                                                                .size())))));
                refused = left;
                break;
            }
            // Counted once: a relation or comment fixed again in a later round is one the first round met.
            if (round == 1) {
                relationships = r.pairs();
                comments = r.comments();
            }
            calls += r.calls();
        }
        if (feeds) {
            List<String> left = new ArrayList<>(refused);
            left.addAll(nonEmptyFeeds(store, g, threads, members));
            refused = left;
        }
        return new Report(
                members == null ? g.members() : members.length,
                relationships,
                comments,
                calls,
                List.copyOf(refused),
                (System.nanoTime() - t0) / 1e9);
    }

    /** Members (of {@code members}, null for all) whose news feed still shows a share; at most 10 are named. */
    private static List<String> nonEmptyFeeds(DataStore store, SocialGraph g, int threads, int[] members) {
        int n = members == null ? g.members() : members.length;
        ConcurrentLinkedQueue<String> found = new ConcurrentLinkedQueue<>();
        AtomicInteger left = new AtomicInteger(10);
        ThreadLocal<FeedList> lists = ThreadLocal.withInitial(FeedList::new);
        RepairDb.runInParallel(store, threads, n, (s, x) -> {
            int id = g.memberId(members == null ? x : members[x]);
            FeedList f = lists.get();
            f.clear();
            s.viewNewsFeed(id, 1, f);
            if (f.size() > 0 && left.getAndDecrement() > 0) {
                found.add("member " + id + ": news feed shows share " + f.get(0).shareId
                        + " after the shares were cleared");
            }
        });
        return new ArrayList<>(found);
    }

    /** What one round found and did. */
    private record Round(long pairs, long comments, long calls, List<String> refused, List<String> errors) {}

    private static Round round(DataStore store, SocialGraph g, int threads, int[] members) {
        GraphState generated = new GraphState(g);
        int n = members == null ? g.members() : members.length;
        ConcurrentLinkedQueue<MemberDiff> diffs = new ConcurrentLinkedQueue<>();
        ConcurrentLinkedQueue<CommentFix> commentFixes = new ConcurrentLinkedQueue<>();
        ConcurrentLinkedQueue<String> refused = new ConcurrentLinkedQueue<>();
        ThreadLocal<MemberList> lists = ThreadLocal.withInitial(() -> new MemberList(g.attributeCount()));
        ThreadLocal<CommentList> commentLists = ThreadLocal.withInitial(CommentList::new);
        RepairDb.runInParallel(store, threads, n, (s, x) -> {
            int i = members == null ? x : members[x];
            int id = g.memberId(i);
            MemberList list = lists.get();
            list.clear();
            s.listFriends(id, id, list);
            int[] friends = indexes(g, list.sortedIds(), id, "LF", refused);
            list.clear();
            s.viewFriendRequests(id, list);
            int[] inviters = indexes(g, list.sortedIds(), id, "VFR", refused);
            MemberDiff d = new MemberDiff(
                    i,
                    new IntOpenHashSet(),
                    new IntOpenHashSet(),
                    new IntOpenHashSet(),
                    new IntOpenHashSet(),
                    new IntOpenHashSet(),
                    new IntOpenHashSet());
            compare(friends, generated.friends(i), d.extraFriends(), d.missingFriends(), d.dupFriends());
            compare(inviters, generated.inviters(i), d.extraInviters(), d.missingInviters(), d.dupInviters());
            if (!d.isEmpty()) {
                diffs.add(d);
            }
            CommentList comments = commentLists.get();
            for (int j = 0; j < g.resourcesPerMember(); j++) {
                long rid = g.resourceId(i, j);
                comments.clear();
                s.viewCommentsOnResource(id, id, rid, comments);
                CommentFix f = commentFix(g, i, rid, comments);
                if (f != null) {
                    commentFixes.add(f);
                }
            }
        });
        Map<Integer, MemberDiff> byMember = new HashMap<>();
        for (MemberDiff d : diffs) {
            byMember.put(d.index(), d);
        }
        // Every pair some member's lists disagree about, once.
        TreeSet<Long> pairs = new TreeSet<>();
        for (MemberDiff d : diffs) {
            for (IntOpenHashSet set : List.of(
                    d.extraFriends(),
                    d.missingFriends(),
                    d.extraInviters(),
                    d.missingInviters(),
                    d.dupFriends(),
                    d.dupInviters())) {
                set.forEach((int b) -> pairs.add(pairKey(d.index(), b)));
            }
        }
        long[] work = pairs.stream().mapToLong(Long::longValue).toArray();
        List<CommentFix> fixes = new ArrayList<>(commentFixes);
        fixes.sort(Comparator.comparingLong(CommentFix::rid));
        AtomicLong calls = new AtomicLong();
        ConcurrentLinkedQueue<String> errors = new ConcurrentLinkedQueue<>();
        RepairDb.runInParallel(store, threads, work.length + fixes.size(), (s, k) -> {
            try {
                if (k < work.length) {
                    calls.addAndGet(fixPair(s, g, (int) (work[k] >>> 32), (int) work[k], byMember));
                } else {
                    calls.addAndGet(fixComments(s, g, fixes.get(k - work.length)));
                }
            } catch (StoreException e) {
                errors.add(e.getMessage());
            }
        });
        List<String> why = new ArrayList<>(refused);
        why.sort(null);
        long commentChanges = fixes.stream()
                .mapToLong(f -> f.delete().length + f.post().length)
                .sum();
        return new Round(work.length, commentChanges, calls.get(), why, new ArrayList<>(errors));
    }

    private static long pairKey(int a, int b) {
        int lo = Math.min(a, b);
        int hi = Math.max(a, b);
        return ((long) lo << 32) | (hi & 0xffffffffL);
    }

    /** Member ids of a list as indexes; ids outside the graph are refused (no action can remove them for sure). */
    private static int[] indexes(
            SocialGraph g, int[] ids, int member, String action, ConcurrentLinkedQueue<String> refused) {
        int[] out = new int[ids.length];
        int k = 0;
        for (int id : ids) {
            if (g.isMember(id) && id != member) {
                out[k++] = g.memberIndex(id);
            } else {
                refused.add("member " + member + ": " + action + " lists " + id + ", which is not another member of "
                        + "the graph");
            }
        }
        return Arrays.copyOf(out, k);
    }

    /** Sorted {@code have} against sorted {@code want}: what is extra, missing, or listed more than once. */
    private static void compare(
            int[] have, int[] want, IntOpenHashSet extra, IntOpenHashSet missing, IntOpenHashSet dup) {
        int[] w = want.clone();
        Arrays.sort(w);
        for (int k = 0; k < have.length; k++) {
            if (k > 0 && have[k] == have[k - 1]) {
                dup.add(have[k]);
            } else if (Arrays.binarySearch(w, have[k]) < 0) {
                extra.add(have[k]);
            }
        }
        for (int x : w) {
            if (Arrays.binarySearch(have, x) < 0) {
                missing.add(x);
            }
        }
    }

    /** Whether {@code x}'s LF lists {@code y}, as read (or as generated when {@code x}'s lists showed no difference). */
    private static boolean friendListed(Seen v, int x, int y) {
        MemberDiff d = v.diffs().get(x);
        boolean gen = v.g().initialRelation(x, y) == Relation.FRIENDS;
        return d == null
                ? gen
                : (gen && !d.missingFriends().contains(y))
                        || d.extraFriends().contains(y)
                        || d.dupFriends().contains(y);
    }

    /** Whether {@code x}'s VFR lists {@code y}, i.e. the store holds an invitation from y to x. */
    private static boolean inviterListed(Seen v, int x, int y) {
        MemberDiff d = v.diffs().get(x);
        boolean gen = v.g().initialRelation(x, y) == Relation.INVITED_BY;
        return d == null
                ? gen
                : (gen && !d.missingInviters().contains(y))
                        || d.extraInviters().contains(y)
                        || d.dupInviters().contains(y);
    }

    /** The generator and the members whose lists differ from it: together, what the store's lists show. */
    private record Seen(SocialGraph g, Map<Integer, MemberDiff> diffs) {}

    private static boolean dup(Map<Integer, MemberDiff> diffs, int x, int y, boolean friends) {
        MemberDiff d = diffs.get(x);
        return d != null && (friends ? d.dupFriends() : d.dupInviters()).contains(y);
    }

    /** Clears what the store holds between a and b, beyond the generated relation, and recreates the generated one. */
    private static int fixPair(StoreSession s, SocialGraph g, int a, int b, Map<Integer, MemberDiff> diffs) {
        Seen v = new Seen(g, diffs);
        boolean ab = friendListed(v, a, b);
        boolean ba = friendListed(v, b, a);
        boolean aInvitedB = inviterListed(v, b, a);
        boolean bInvitedA = inviterListed(v, a, b);
        Relation want = g.initialRelation(a, b);
        int idA = g.memberId(a);
        int idB = g.memberId(b);
        int calls = 0;
        boolean friendsOk = want == Relation.FRIENDS && ab && ba && !dup(diffs, a, b, true) && !dup(diffs, b, a, true);
        if ((ab || ba) && !friendsOk) {
            s.thawFriendship(idA, idB);
            calls++;
        }
        boolean aInvOk = want == Relation.INVITED && aInvitedB && !dup(diffs, b, a, false);
        if (aInvitedB && !aInvOk) {
            s.rejectFriendRequest(idB, idA);
            calls++;
        }
        boolean bInvOk = want == Relation.INVITED_BY && bInvitedA && !dup(diffs, a, b, false);
        if (bInvitedA && !bInvOk) {
            s.rejectFriendRequest(idA, idB);
            calls++;
        }
        switch (want) {
            case FRIENDS -> {
                if (!friendsOk) {
                    s.inviteFriend(idA, idB);
                    s.acceptFriendRequest(idB, idA);
                    calls += 2;
                }
            }
            case INVITED -> {
                if (!aInvOk) {
                    s.inviteFriend(idA, idB);
                    calls++;
                }
            }
            case INVITED_BY -> {
                if (!bInvOk) {
                    s.inviteFriend(idB, idA);
                    calls++;
                }
            }
            case NONE -> {}
        }
        return calls;
    }

    /** The fix of one resource's comments, or null when they are exactly the generated ones. */
    private static CommentFix commentFix(SocialGraph g, int owner, long rid, CommentList list) {
        int per = g.spec().commentsPerResource();
        LongOpenHashSet generated = new LongOpenHashSet();
        for (int k = 0; k < per; k++) {
            generated.add(g.commentId(rid, k));
        }
        LongOpenHashSet seen = new LongOpenHashSet();
        LongOpenHashSet delete = new LongOpenHashSet();
        for (int r = 0; r < list.size(); r++) {
            CommentList.Row row = list.get(r);
            long mid = row.commentId;
            boolean again = !seen.add(mid);
            if (!generated.contains(mid) || again || !intact(g, owner, rid, row)) {
                delete.add(mid);
            }
        }
        LongOpenHashSet post = new LongOpenHashSet();
        generated.forEach((long mid) -> {
            if (!seen.contains(mid) || delete.contains(mid)) {
                post.add(mid);
            }
        });
        if (delete.isEmpty() && post.isEmpty()) {
            return null;
        }
        long[] d = delete.toLongArray();
        long[] p = post.toLongArray();
        Arrays.sort(d);
        Arrays.sort(p);
        return new CommentFix(owner, rid, d, p);
    }

    /** Whether a generated comment reads back as generated: its resource, author, time and text. */
    private static boolean intact(SocialGraph g, int owner, long rid, CommentList.Row row) {
        long mid = row.commentId;
        return row.resourceId == rid
                && row.modifierId == g.memberId(g.commentModifier(mid))
                && row.timestampMs == g.commentTimestamp(mid)
                && g.commentContent(mid).equals(row.content)
                && row.creatorId == g.memberId(owner);
    }

    private static int fixComments(StoreSession s, SocialGraph g, CommentFix f) {
        int owner = g.memberId(f.owner());
        for (long mid : f.delete()) {
            s.deleteCommentFromResource(owner, f.rid(), mid);
        }
        for (long mid : f.post()) {
            s.postCommentOnResource(
                    g.memberId(g.commentModifier(mid)),
                    owner,
                    f.rid(),
                    mid,
                    g.commentTimestamp(mid),
                    g.commentContent(mid));
        }
        return f.delete().length + f.post().length;
    }
}
