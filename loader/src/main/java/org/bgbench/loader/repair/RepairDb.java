package org.bgbench.loader.repair;

import it.unimi.dsi.fastutil.ints.IntOpenHashSet;
import it.unimi.dsi.fastutil.longs.LongArrayList;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.bgbench.model.generator.Relation;
import org.bgbench.model.generator.SocialGraph;
import org.bgbench.model.state.GraphState;
import org.bgbench.store.CommentList;
import org.bgbench.store.DataStore;
import org.bgbench.store.FeedList;
import org.bgbench.store.ProfileView;
import org.bgbench.store.StoreException;
import org.bgbench.store.StoreSession;

/**
 * RepairDB (dissertation 7.2): brings a store back to the generated graph by undoing what an experiment's writes
 * changed, through the store's own actions, so it works for every store without a restore feature of its own.
 *
 * <p>BG's expected state already holds the net effect of every write (it is the write log folded per member), so the
 * undo is computed from it rather than by replaying the log backwards: for each pair of members whose relation
 * differs from the generated one, TF or RFR clears it and IF (then AFR) recreates the generated one; comments posted
 * during the run are deleted with DCR and deleted generated comments are posted again with PCR under their original
 * id, time and text. The cost is a few store calls per changed relationship or comment, so it beats a reload when an
 * experiment wrote little (the dissertation's table 7.1) and loses to a database image when it wrote much.
 *
 * <p>It is only sound when the store holds exactly the expected state: an experiment that counted errors (a write may
 * have failed after it changed the store) must be followed by an image restore or a reload instead. Every member and
 * resource the repair touched is read back afterwards (VP counts and VCR), and a mismatch is reported so the caller
 * can fall back.
 *
 * <p>Shares (SR, dissertation 3.2) have no undo action, and the generated graph has none: when the expected state
 * holds shares the repair removes them all with {@link DataStore#clearShares()} and reads back the news feeds of
 * the members who could have seen them (VNF must be empty).
 */
public final class RepairDb {
    private RepairDb() {}

    /**
     * What a repair did.
     *
     * @param relationships member pairs whose relation was restored
     * @param comments      comments deleted or posted again
     * @param storeCalls    write actions issued
     * @param seconds       wall-clock time, verification included
     * @param mismatches    what the read-back found wrong (empty: the store is back to the generated graph)
     */
    public record Report(long relationships, long comments, long storeCalls, double seconds, List<String> mismatches) {
        public boolean verified() {
            return mismatches.isEmpty();
        }
    }

    /** One unit of undo work: a pair of members, or one resource's comments. */
    private record Pair(int a, int b, Relation current, Relation initial) {}

    private record Comments(int owner, long rid, long[] delete, long[] restore) {}

    /**
     * Undoes every change {@code state} records, with {@code threads} sessions in parallel, then verifies it.
     * {@code state} is not modified; the caller starts a fresh {@link GraphState} when the report is verified.
     */
    public static Report undo(DataStore store, GraphState state, int threads) {
        long t0 = System.nanoTime();
        SocialGraph g = state.graph();
        List<Pair> pairs = new ArrayList<>();
        List<Comments> comments = new ArrayList<>();
        IntOpenHashSet touched = new IntOpenHashSet();
        state.forEachTouched(a -> {
            touched.add(a);
            IntOpenHashSet others = new IntOpenHashSet();
            addAll(others, state.friends(a));
            addAll(others, state.inviters(a));
            addAll(others, state.invitees(a));
            for (Relation r : List.of(Relation.FRIENDS, Relation.INVITED, Relation.INVITED_BY)) {
                g.forEachNeighbour(a, r, others::add);
            }
            others.forEach((int b) -> {
                if (a < b) {
                    Relation current = state.relation(a, b);
                    Relation initial = g.initialRelation(a, b);
                    if (current != initial) {
                        pairs.add(new Pair(a, b, current, initial));
                    }
                }
            });
            for (int j = 0; j < g.resourcesPerMember(); j++) {
                long rid = g.resourceId(a, j);
                long[] now = state.comments(rid);
                long[] generated = new long[g.spec().commentsPerResource()];
                for (int k = 0; k < generated.length; k++) {
                    generated[k] = g.commentId(rid, k);
                }
                if (!Arrays.equals(now, generated)) {
                    comments.add(new Comments(a, rid, minus(now, generated), minus(generated, now)));
                }
            }
        });
        AtomicLong calls = new AtomicLong();
        boolean shares = state.shareCount() > 0;
        if (shares) {
            // Not an action, so not counted in storeCalls.
            store.clearShares();
        }
        runInParallel(store, threads, pairs.size() + comments.size(), (s, i) -> {
            if (i < pairs.size()) {
                calls.addAndGet(undo(s, g, pairs.get(i)));
            } else {
                calls.addAndGet(undo(s, g, comments.get(i - pairs.size())));
            }
        });
        List<String> mismatches = verify(store, g, touched, comments, threads);
        if (shares) {
            mismatches.addAll(verifyFeeds(store, state, threads));
        }
        long commentChanges = comments.stream()
                .mapToLong(c -> c.delete().length + c.restore().length)
                .sum();
        return new Report(
                pairs.size(), commentChanges, calls.get(), (System.nanoTime() - t0) / 1e9, List.copyOf(mismatches));
    }

    private static int undo(StoreSession s, SocialGraph g, Pair p) {
        int a = g.memberId(p.a());
        int b = g.memberId(p.b());
        int calls = 0;
        switch (p.current()) {
            case FRIENDS -> s.thawFriendship(a, b);
            case INVITED -> s.rejectFriendRequest(b, a);
            case INVITED_BY -> s.rejectFriendRequest(a, b);
            case NONE -> calls--;
        }
        calls++;
        switch (p.initial()) {
            case FRIENDS -> {
                s.inviteFriend(a, b);
                s.acceptFriendRequest(b, a);
                calls += 2;
            }
            case INVITED -> {
                s.inviteFriend(a, b);
                calls++;
            }
            case INVITED_BY -> {
                s.inviteFriend(b, a);
                calls++;
            }
            case NONE -> {}
        }
        return calls;
    }

    private static int undo(StoreSession s, SocialGraph g, Comments c) {
        int owner = g.memberId(c.owner());
        for (long mid : c.delete()) {
            s.deleteCommentFromResource(owner, c.rid(), mid);
        }
        for (long mid : c.restore()) {
            s.postCommentOnResource(
                    g.memberId(g.commentModifier(mid)),
                    owner,
                    c.rid(),
                    mid,
                    g.commentTimestamp(mid),
                    g.commentContent(mid));
        }
        return c.delete().length + c.restore().length;
    }

    /** Reads back every touched member's counts and every repaired resource's comments. */
    private static List<String> verify(
            DataStore store, SocialGraph g, IntOpenHashSet touched, List<Comments> comments, int threads) {
        int[] members = touched.toIntArray();
        ConcurrentLinkedQueue<String> found = new ConcurrentLinkedQueue<>();
        AtomicInteger left = new AtomicInteger(20);
        ThreadLocal<ProfileView> profiles = ThreadLocal.withInitial(() -> new ProfileView(g.attributeCount()));
        ThreadLocal<CommentList> lists = ThreadLocal.withInitial(CommentList::new);
        runInParallel(store, threads, members.length + comments.size(), (s, i) -> {
            if (i < members.length) {
                int index = members[i];
                int id = g.memberId(index);
                ProfileView v = profiles.get();
                v.clear();
                s.viewProfile(id, id, v);
                if (v.friendCount != g.initialFriendCount(index) || v.pendingCount != g.initialPendingCount(index)) {
                    if (left.getAndDecrement() > 0) {
                        found.add("member " + id + ": " + v.friendCount + " friends and " + v.pendingCount
                                + " pending after repair, generated " + g.initialFriendCount(index) + " and "
                                + g.initialPendingCount(index));
                    }
                }
            } else {
                Comments c = comments.get(i - members.length);
                CommentList l = lists.get();
                l.clear();
                s.viewCommentsOnResource(g.memberId(c.owner()), g.memberId(c.owner()), c.rid(), l);
                long[] want = new long[g.spec().commentsPerResource()];
                for (int k = 0; k < want.length; k++) {
                    want[k] = g.commentId(c.rid(), k);
                }
                if (!Arrays.equals(l.sortedIds(), want) && left.getAndDecrement() > 0) {
                    found.add("resource " + c.rid() + ": comments " + Arrays.toString(l.sortedIds())
                            + " after repair, generated " + Arrays.toString(want));
                }
            }
        });
        return new ArrayList<>(found);
    }

    /**
     * Reads back the news feeds of up to {@value #FEED_READS} members who could have seen a share: a few friends or
     * followers (as generated) of every account that shared, and each member listed as a recipient.
     */
    private static List<String> verifyFeeds(DataStore store, GraphState state, int threads) {
        SocialGraph g = state.graph();
        IntOpenHashSet readers = new IntOpenHashSet();
        state.forEachShare(sh -> {
            if (readers.size() >= FEED_READS) {
                return;
            }
            int[] few = {0};
            if (g.isPageAccount(sh.account())) {
                g.forEachFollower(sh.account() - g.members(), m -> {
                    if (few[0]++ < 4) {
                        readers.add(m);
                    }
                });
            } else {
                g.forEachNeighbour(sh.account(), Relation.FRIENDS, m -> {
                    if (few[0]++ < 4) {
                        readers.add(m);
                    }
                });
            }
            if (sh.recipients() != null) {
                for (int r : sh.recipients()) {
                    if (few[0]++ < 8) {
                        readers.add(r);
                    }
                }
            }
        });
        int[] members = readers.toIntArray();
        ConcurrentLinkedQueue<String> found = new ConcurrentLinkedQueue<>();
        AtomicInteger left = new AtomicInteger(20);
        ThreadLocal<FeedList> feeds = ThreadLocal.withInitial(FeedList::new);
        runInParallel(store, threads, members.length, (s, i) -> {
            FeedList f = feeds.get();
            f.clear();
            int id = g.memberId(members[i]);
            s.viewNewsFeed(id, 10, f);
            if (f.size() > 0 && left.getAndDecrement() > 0) {
                found.add("member " + id + ": news feed shows " + f.size() + " shares after repair (first "
                        + f.get(0).shareId + "), generated none");
            }
        });
        return new ArrayList<>(found);
    }

    private static final int FEED_READS = 2000;

    @FunctionalInterface
    interface Work {
        void run(StoreSession session, int item);
    }

    /** Items 0..n−1 handed out to {@code threads} sessions by an atomic counter (cheap items, uneven costs). */
    static void runInParallel(DataStore store, int threads, int n, Work work) {
        if (n == 0) {
            return;
        }
        int t = Math.max(1, Math.min(threads, n));
        AtomicInteger next = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(t, r -> {
            Thread th = new Thread(r, "bg-repair");
            th.setDaemon(true);
            return th;
        });
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int k = 0; k < t; k++) {
                futures.add(pool.submit(() -> {
                    try (StoreSession s = store.openConsistentSession()) {
                        for (int i = next.getAndIncrement(); i < n; i = next.getAndIncrement()) {
                            work.run(s, i);
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : futures) {
                f.get();
            }
        } catch (ExecutionException e) {
            next.set(n);
            Throwable c = e.getCause();
            throw c instanceof StoreException se ? se : new StoreException("repair failed: " + c.getMessage(), c);
        } catch (InterruptedException e) {
            next.set(n);
            Thread.currentThread().interrupt();
            throw new StoreException("repair interrupted", e);
        } finally {
            pool.shutdownNow();
        }
    }

    private static void addAll(IntOpenHashSet set, int[] values) {
        for (int v : values) {
            set.add(v);
        }
    }

    /** Elements of sorted {@code a} not in sorted {@code b}. */
    private static long[] minus(long[] a, long[] b) {
        LongArrayList out = new LongArrayList();
        int j = 0;
        for (long x : a) {
            while (j < b.length && b[j] < x) {
                j++;
            }
            if (j >= b.length || b[j] != x) {
                out.add(x);
            }
        }
        return out.toLongArray();
    }
}
