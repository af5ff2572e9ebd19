package org.bgbench.store.casql;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;
import org.bgbench.model.state.GraphState;
import org.bgbench.store.CommentList;
import org.bgbench.store.MemberList;
import org.bgbench.store.ProfileView;
import org.bgbench.store.StoreSession;
import org.bgbench.store.conformance.StoreConformanceSuite;
import org.junit.jupiter.api.Test;

/**
 * The lease protocol of the cache (CIKM section F), against one real cache and one embedded PostgreSQL per class: a
 * write racing a reader's miss, query and fill at each step in turn, a reader finding another's lease, and many readers
 * racing writers under real concurrency, the cache left equal to the database. Subclasses name the cache, through
 * {@link CasqlBehaviour}.
 */
abstract class CasqlLeaseBehaviour extends CasqlFeedBehaviour {
    // ---- the lease protocol, interleaved deterministically

    @Test
    void aWriteBetweenAMissAndItsQueryIsSeenByTheReader() {
        raceEveryRead(CasqlStore.Stage.MISSED);
    }

    @Test
    void aWriteBetweenAReadersQueryAndItsFillLeavesNoStaleEntry() {
        raceEveryRead(CasqlStore.Stage.QUERIED);
    }

    /**
     * For each read that a write affects, runs the write on another session at {@code stage} of the read's miss.
     * The reader may return the value before the write (its query ran first) but the cache must not keep it.
     */
    private void raceEveryRead(CasqlStore.Stage stage) {
        try (CasqlStore store = open("invalidate")) {
            StoreConformanceSuite.load(store, graph, 3);
            GraphState state = new GraphState(graph);
            int[] pair = unrelatedPair(state, 0);
            int x = pair[0];
            int y = pair[1];
            long r = graph.resourceId(x, 2);
            long mid = graph.firstFreeCommentId() + 7;
            try (StoreSession reader = store.openSession();
                    StoreSession writer = store.openSession();
                    StoreSession direct = store.database().openSession()) {
                // VP of the invitee against IF; VFR against IF; LF against AFR; VP of both against TF; VCR against PCR.
                race(
                        store,
                        stage,
                        "vp:" + id(y),
                        profile(reader, y),
                        profile(direct, y),
                        () -> writer.inviteFriend(id(x), id(y)));
                race(
                        store,
                        stage,
                        "lf:" + id(x),
                        friends(reader, x),
                        friends(direct, x),
                        () -> writer.acceptFriendRequest(id(y), id(x)));
                race(
                        store,
                        stage,
                        "vp:" + id(x),
                        profile(reader, x),
                        profile(direct, x),
                        () -> writer.thawFriendship(id(y), id(x)));
                race(
                        store,
                        stage,
                        "vfr:" + id(y),
                        requests(reader, y),
                        requests(direct, y),
                        () -> writer.inviteFriend(id(x), id(y)));
                race(
                        store,
                        stage,
                        "vfr:" + id(y),
                        requests(reader, y),
                        requests(direct, y),
                        () -> writer.rejectFriendRequest(id(y), id(x)));
                race(
                        store,
                        stage,
                        "vcr:" + r,
                        comments(reader, r),
                        comments(direct, r),
                        () -> writer.postCommentOnResource(id(y), id(x), r, mid, 1_700_000_000_000L, "racing"));
                race(
                        store,
                        stage,
                        "vcr:" + r,
                        comments(reader, r),
                        comments(direct, r),
                        () -> writer.deleteCommentFromResource(id(x), r, mid));
                // VNF of x against a friend's share, then against the TF that hides it.
                int fx = state.friends(x)[0];
                race(
                        store,
                        stage,
                        "vnf:" + id(x),
                        feed(reader, graph, x, K),
                        feed(direct, graph, x, K),
                        () -> writer.shareResource(id(fx), graph.resourceId(fx, 0), 10 + stage.ordinal(), null));
                race(
                        store,
                        stage,
                        "vnf:" + id(x),
                        feed(reader, graph, x, K),
                        feed(direct, graph, x, K),
                        () -> writer.thawFriendship(id(x), id(fx)));
            }
        }
    }

    private void race(
            CasqlStore store,
            CasqlStore.Stage stage,
            String key,
            Supplier<String> read,
            Supplier<String> database,
            Runnable write) {
        CacheBackend.Ops ops = store.cache().ops();
        ops.delete(key);
        String before = database.get();
        AtomicBoolean fired = new AtomicBoolean();
        store.hook((st, k) -> {
            if (st == stage && k.equals(key) && fired.compareAndSet(false, true)) {
                write.run();
            }
        });
        String seen;
        try {
            seen = read.get();
        } finally {
            store.hook(null);
        }
        assertThat(fired).as("the write ran inside the read of %s", key).isTrue();
        String after = database.get();
        assertThat(after).as("the write changed what %s shows", key).isNotEqualTo(before);
        if (stage == CasqlStore.Stage.MISSED) {
            assertThat(seen).as("a read whose query follows the write sees it").isEqualTo(after);
            assertThat(isEntry(ops.get(key))).as("and caches it").isTrue();
        } else {
            assertThat(seen)
                    .as("a read whose query preceded the write returns the old value")
                    .isEqualTo(before);
            assertThat(ops.get(key))
                    .as("but its fill is refused: the write deleted its lease")
                    .isNull();
        }
        assertThat(read.get()).as("%s after the race (miss or hit)", key).isEqualTo(after);
        assertThat(isEntry(ops.get(key))).isTrue();
        assertThat(read.get()).as("%s from the cache", key).isEqualTo(after);
    }

    @Test
    void aReaderThatFindsAnotherReadersLeaseQueriesWithoutCaching() {
        try (CasqlStore store = open("invalidate")) {
            StoreConformanceSuite.load(store, graph, 3);
            int m = 5;
            String key = "vp:" + id(m);
            CacheBackend.Ops ops = store.cache().ops();
            try (StoreSession first = store.openSession();
                    StoreSession second = store.openSession();
                    StoreSession direct = store.database().openSession()) {
                String expected = profile(direct, m).get();
                List<String> seenInside = new ArrayList<>();
                AtomicBoolean fired = new AtomicBoolean();
                store.hook((st, k) -> {
                    if (st == CasqlStore.Stage.QUERIED && k.equals(key) && fired.compareAndSet(false, true)) {
                        assertThat(ops.get(key)).as("the first reader's lease").isSameAs(CacheBackend.LEASED);
                        seenInside.add(profile(second, m).get());
                        assertThat(ops.get(key))
                                .as("the second reader left the lease alone")
                                .isSameAs(CacheBackend.LEASED);
                    }
                });
                String seen;
                try {
                    seen = profile(first, m).get();
                } finally {
                    store.hook(null);
                }
                assertThat(seenInside).containsExactly(expected);
                assertThat(seen).isEqualTo(expected);
                assertThat(isEntry(ops.get(key)))
                        .as("the lease holder filled the key")
                        .isTrue();
            }
        }
    }

    // ---- heavy real concurrency

    @Test
    void manyReadersRacingWritersLeaveTheCacheEqualToTheDatabase() throws Exception {
        try (CasqlStore store = open("invalidate")) {
            StoreConformanceSuite.load(store, graph, 3);
            GraphState state = new GraphState(graph);
            int pairs = 6;
            int[][] pair = new int[pairs][];
            Set<Integer> used = new HashSet<>();
            for (int p = 0, from = 0; p < pairs; p++) {
                int[] candidate;
                do {
                    candidate = unrelatedPair(state, from++);
                } while (used.contains(candidate[0]) || used.contains(candidate[1]));
                used.add(candidate[0]);
                used.add(candidate[1]);
                pair[p] = candidate;
            }
            // Widen the window between a reader's query and its fill so writes land inside it often.
            store.hook((st, k) -> {
                if (st == CasqlStore.Stage.QUERIED
                        && ThreadLocalRandom.current().nextBoolean()) {
                    LockSupport.parkNanos(ThreadLocalRandom.current().nextLong(1_000_000));
                }
            });
            AtomicBoolean stop = new AtomicBoolean();
            ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
            AtomicInteger writes = new AtomicInteger();
            AtomicIntegerArray cycles = new AtomicIntegerArray(pairs);
            AtomicInteger reads = new AtomicInteger();
            List<Thread> threads = new ArrayList<>();
            for (int p = 0; p < pairs; p++) {
                int writer = p;
                int a = pair[p][0];
                int b = pair[p][1];
                long r = graph.resourceId(a, 0);
                long firstMid = graph.firstFreeCommentId() + 1_000_000L * (p + 1);
                threads.add(Thread.ofVirtual().unstarted(() -> {
                    long mid = firstMid;
                    try (StoreSession s = store.openSession();
                            StoreSession cached = store.openSession();
                            StoreSession direct = store.database().openSession()) {
                        // A cycle that returns the pair to no relation and the resource to its comments. Only this
                        // thread changes what the pair's keys show, so once a write returned, the cache must agree
                        // with PostgreSQL until its next write, whatever readers were doing meanwhile.
                        while (!stop.get()) {
                            long m = mid++;
                            List<Runnable> cycle = List.of(
                                    () -> s.inviteFriend(id(a), id(b)),
                                    () -> s.acceptFriendRequest(id(b), id(a)),
                                    () -> s.thawFriendship(id(a), id(b)),
                                    () -> s.inviteFriend(id(b), id(a)),
                                    () -> s.rejectFriendRequest(id(a), id(b)),
                                    () -> s.postCommentOnResource(id(b), id(a), r, m, 1_700_000_000_000L, "c" + m),
                                    () -> s.deleteCommentFromResource(id(a), r, m));
                            for (Runnable write : cycle) {
                                write.run();
                                writes.incrementAndGet();
                                // Let readers that raced the write finish, then look at what the cache serves.
                                LockSupport.parkNanos(
                                        ThreadLocalRandom.current().nextLong(3_000_000));
                                String stale = mismatch(cached, direct, a, b, r);
                                if (stale != null) {
                                    failures.add(new AssertionError("after a write, " + stale));
                                    stop.set(true);
                                }
                            }
                            cycles.incrementAndGet(writer);
                        }
                    } catch (Throwable e) {
                        failures.add(e);
                        stop.set(true);
                    }
                }));
            }
            int[] members = used.stream().mapToInt(Integer::intValue).toArray();
            for (int t = 0; t < 12; t++) {
                threads.add(Thread.ofVirtual().unstarted(() -> {
                    ThreadLocalRandom rnd = ThreadLocalRandom.current();
                    ProfileView p = new ProfileView(graph.attributeCount());
                    MemberList list = new MemberList(graph.attributeCount());
                    CommentList comments = new CommentList();
                    try (StoreSession s = store.openSession()) {
                        while (!stop.get()) {
                            int m = members[rnd.nextInt(members.length)];
                            switch (rnd.nextInt(4)) {
                                case 0 -> {
                                    s.viewProfile(id(m), id(m), p);
                                    assertThat(p.friendCount).isNotNegative();
                                    assertThat(p.pendingCount).isNotNegative();
                                }
                                case 1 -> s.listFriends(id(m), id(m), list);
                                case 2 -> s.viewFriendRequests(id(m), list);
                                default -> s.viewCommentsOnResource(id(m), id(m), graph.resourceId(m, 0), comments);
                            }
                            reads.incrementAndGet();
                            // Hits on the in-process cache never block, and a yielding loop would keep the unparked
                            // writers off the carrier threads: pause as a member between clicks would.
                            LockSupport.parkNanos(rnd.nextLong(200_000));
                        }
                    } catch (Throwable e) {
                        failures.add(e);
                        stop.set(true);
                    }
                }));
            }
            threads.forEach(Thread::start);
            // At least 2 s, and until every writer went through its cycle a few times (the machine may be busy).
            long started = System.nanoTime();
            while (!stop.get()) {
                Thread.sleep(100);
                boolean enough = true;
                for (int p = 0; p < pairs; p++) {
                    enough &= cycles.get(p) >= MIN_CYCLES;
                }
                long elapsed = System.nanoTime() - started;
                if (elapsed > TimeUnit.SECONDS.toNanos(60) || enough && elapsed > TimeUnit.SECONDS.toNanos(2)) {
                    stop.set(true);
                }
            }
            for (Thread t : threads) {
                assertThat(t.join(Duration.ofSeconds(30))).as("thread finished").isTrue();
            }
            store.hook(null);
            assertThat(failures).isEmpty();
            for (int p = 0; p < pairs; p++) {
                assertThat(cycles.get(p)).as("write cycles of pair %d", p).isGreaterThanOrEqualTo(MIN_CYCLES);
            }
            assertThat(writes.get()).as("writes performed").isGreaterThanOrEqualTo(pairs * 7 * MIN_CYCLES);
            assertThat(reads.get()).as("reads performed").isGreaterThan(100);
            long[] resources = Arrays.stream(members)
                    .mapToLong(m -> graph.resourceId(m, 0))
                    .toArray();
            assertCacheMatchesDatabase(store, members, resources);
        }
    }

    /** The first read of the pair's keys where the cache and PostgreSQL differ, or null. */
    private String mismatch(StoreSession cached, StoreSession direct, int a, int b, long r) {
        for (int m : new int[] {a, b}) {
            String c = profile(cached, m).get();
            String d = profile(direct, m).get();
            if (!c.equals(d)) {
                return "VP of " + id(m) + " from the cache: " + c + ", PostgreSQL: " + d;
            }
            c = friends(cached, m).get();
            d = friends(direct, m).get();
            if (!c.equals(d)) {
                return "LF of " + id(m) + " from the cache: " + c + ", PostgreSQL: " + d;
            }
            c = requests(cached, m).get();
            d = requests(direct, m).get();
            if (!c.equals(d)) {
                return "VFR of " + id(m) + " from the cache: " + c + ", PostgreSQL: " + d;
            }
        }
        String c = comments(cached, r).get();
        String d = comments(direct, r).get();
        return c.equals(d) ? null : "VCR of " + r + " from the cache: " + c + ", PostgreSQL: " + d;
    }

    /** Every read of these members and resources, through the cache (twice: fill, then hit), equals PostgreSQL's. */
    void assertCacheMatchesDatabase(CasqlStore store, int[] members, long[] resources) {
        try (StoreSession cached = store.openSession();
                StoreSession direct = store.database().openSession()) {
            for (int round = 0; round < 2; round++) {
                for (int m : members) {
                    assertThat(profile(cached, m).get())
                            .as("VP of %d", id(m))
                            .isEqualTo(profile(direct, m).get());
                    assertThat(friends(cached, m).get())
                            .as("LF of %d", id(m))
                            .isEqualTo(friends(direct, m).get());
                    assertThat(requests(cached, m).get())
                            .as("VFR of %d", id(m))
                            .isEqualTo(requests(direct, m).get());
                    assertThat(top(cached, m).get())
                            .as("VTR of %d", id(m))
                            .isEqualTo(top(direct, m).get());
                }
                for (long r : resources) {
                    assertThat(comments(cached, r).get())
                            .as("VCR of %d", r)
                            .isEqualTo(comments(direct, r).get());
                }
            }
        }
    }
}
