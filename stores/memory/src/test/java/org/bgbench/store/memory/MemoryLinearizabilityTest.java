package org.bgbench.store.memory;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.bgbench.model.GraphSpec;
import org.bgbench.model.generator.SocialGraph;
import org.bgbench.store.CommentList;
import org.bgbench.store.DataStore;
import org.bgbench.store.MemberList;
import org.bgbench.store.ProfileView;
import org.bgbench.store.StoreCounts;
import org.bgbench.store.StoreException;
import org.bgbench.store.StoreSession;
import org.bgbench.store.conformance.StoreConformanceSuite;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Concurrency checks that a store which is merely thread-safe (each member consistent, but a two-member write visible
 * on one side before the other, or a read torn by a write) would fail. Writers and readers overlap on few members.
 */
class MemoryLinearizabilityTest {
    private static final int WRITERS = 3;
    private static final int READERS = 3;

    private final String name = "lin-" + UUID.randomUUID();
    private final List<String> violations = new CopyOnWriteArrayList<>();

    @AfterEach
    void forget() {
        MemoryStoreProvider.discard(name);
    }

    /** A pending invitation (or friendship) from odd member {@code other} to even member {@code even}, by id. */
    private record Pair(int even, int other) {}

    /**
     * Only even members accept, only odd members' invitations are accepted. So an even member's friends + pending
     * never changes, and once either side shows the friendship (or the invitation gone), the other side must too.
     */
    @Test
    void acceptIsOneAtomicStepOnBothMembers() throws Exception {
        SocialGraph graph = new SocialGraph(GraphSpec.builder()
                .members(200)
                .memberIdOffset(50)
                .friendsPerMember(40)
                .resourcesPerMember(0)
                .confirmedFraction(0.0)
                .attributeCount(2)
                .attributeLength(4)
                .commentLength(10)
                .fragments(1)
                .seed(3)
                .build());
        List<Pair> pairs = new ArrayList<>();
        int[] sum = new int[graph.members()];
        for (int i = 0; i < graph.members(); i++) {
            int e = i;
            sum[i] = graph.initialPendingCount(i);
            if (i % 2 == 0) {
                graph.forEachInitialInviter(i, o -> {
                    if (o % 2 == 1) {
                        pairs.add(new Pair(graph.memberId(e), graph.memberId(o)));
                    }
                });
            }
        }
        try (DataStore store = MemoryStoreTest.open(name)) {
            StoreConformanceSuite.load(store, graph, 2);
            store.image().orElseThrow().save();
            for (int round = 0; round < 40; round++) {
                store.image().orElseThrow().restore();
                Collections.shuffle(pairs, new Random(round));
                runRound(store, pairs, (s, p) -> s.acceptFriendRequest(p.even, p.other), (s, rnd, views) -> {
                    Pair p = pairs.get(rnd.nextInt(pairs.size()));
                    switch (rnd.nextInt(5)) {
                        case 0 -> {
                            if (friends(s, p.even, p.other, views) && !friends(s, p.other, p.even, views)) {
                                violations.add("LF(" + p.even + ") shows " + p.other + ", a later LF of it does not");
                            }
                        }
                        case 1 -> {
                            if (friends(s, p.other, p.even, views) && !friends(s, p.even, p.other, views)) {
                                violations.add("LF(" + p.other + ") shows " + p.even + ", a later LF of it does not");
                            }
                        }
                        case 2 -> {
                            if (!invited(s, p.even, p.other, views) && !friends(s, p.other, p.even, views)) {
                                violations.add("invitation " + p.other + "->" + p.even + " gone but no friendship yet");
                            }
                        }
                        case 3 -> {
                            if (friends(s, p.other, p.even, views) && invited(s, p.even, p.other, views)) {
                                violations.add("friendship " + p.other + "-" + p.even + " seen, still pending");
                            }
                        }
                        default -> {
                            views.profile.clear();
                            s.viewProfile(p.even, p.even, views.profile);
                            int want = sum[graph.memberIndex(p.even)];
                            if (views.profile.friendCount + views.profile.pendingCount != want) {
                                violations.add("VP(" + p.even + ") friends " + views.profile.friendCount + " + pending "
                                        + views.profile.pendingCount + " != " + want);
                            }
                        }
                    }
                });
            }
            assertThat(violations).isEmpty();
            assertThat(store.counts().friendships()).isEqualTo(pairs.size());
        }
    }

    /** Only thaws: once one side no longer lists the other, a later read of the other side must not list it either. */
    @Test
    void thawIsOneAtomicStepOnBothMembers() throws Exception {
        SocialGraph graph = new SocialGraph(GraphSpec.builder()
                .members(200)
                .friendsPerMember(40)
                .resourcesPerMember(0)
                .attributeCount(2)
                .attributeLength(4)
                .commentLength(10)
                .fragments(1)
                .seed(3)
                .build());
        List<Pair> pairs = new ArrayList<>();
        for (int i = 0; i < graph.members(); i += 2) {
            int e = i;
            graph.forEachInitialFriend(i, o -> {
                if (o % 2 == 1) {
                    pairs.add(new Pair(graph.memberId(e), graph.memberId(o)));
                }
            });
        }
        try (DataStore store = MemoryStoreTest.open(name)) {
            StoreConformanceSuite.load(store, graph, 2);
            store.image().orElseThrow().save();
            long friendships = graph.totalFriendships();
            for (int round = 0; round < 40; round++) {
                store.image().orElseThrow().restore();
                Collections.shuffle(pairs, new Random(round));
                runRound(store, pairs, (s, p) -> s.thawFriendship(p.other, p.even), (s, rnd, views) -> {
                    Pair p = pairs.get(rnd.nextInt(pairs.size()));
                    boolean evenFirst = rnd.nextBoolean();
                    int first = evenFirst ? p.even : p.other;
                    int second = evenFirst ? p.other : p.even;
                    if (!friends(s, first, second, views) && friends(s, second, first, views)) {
                        violations.add("LF(" + first + ") lost " + second + ", a later LF of it still lists it");
                    }
                });
            }
            assertThat(violations).isEmpty();
            assertThat(store.counts().friendships()).isEqualTo(friendships - pairs.size());
        }
    }

    /**
     * Each writer always has one or two comments on a shared resource: it posts its next comment, then deletes the
     * previous one from the middle of the list, shifting the other writers' comments under the readers. Every view
     * must show each writer's one or two comments exactly once, whole, and every initial comment.
     */
    @Test
    void commentViewsAreSnapshots() throws Exception {
        SocialGraph graph = new SocialGraph(GraphSpec.builder()
                .members(50)
                .friendsPerMember(4)
                .resourcesPerMember(2)
                .commentsPerResource(6)
                .attributeCount(2)
                .attributeLength(4)
                .commentLength(10)
                .fragments(1)
                .seed(3)
                .build());
        try (DataStore store = MemoryStoreTest.open(name)) {
            StoreConformanceSuite.load(store, graph, 1);
            long rid = graph.resourceId(0, 1);
            int owner = graph.memberId(0);
            int initial = graph.spec().commentsPerResource();
            long firstFree = graph.firstFreeCommentId();
            AtomicLong nextId = new AtomicLong(firstFree);
            long[] seeded = new long[WRITERS];
            try (StoreSession s = store.openSession()) {
                for (int k = 0; k < WRITERS; k++) {
                    seeded[k] = nextId.getAndIncrement();
                    s.postCommentOnResource(owner, owner, rid, seeded[k], k, "w" + k + "/" + seeded[k]);
                }
            }
            AtomicInteger slots = new AtomicInteger();
            // Per writer thread: {slot, previous comment id}; the timestamp carries the slot.
            ThreadLocal<long[]> writer = ThreadLocal.withInitial(() -> {
                int k = slots.getAndIncrement();
                return new long[] {k, seeded[k]};
            });
            runRound(
                    store,
                    Collections.nCopies(30_000, 0),
                    (s, unused) -> {
                        long[] w = writer.get();
                        long mid = nextId.getAndIncrement();
                        s.postCommentOnResource(owner, owner, rid, mid, w[0], "w" + w[0] + "/" + mid);
                        s.deleteCommentFromResource(owner, rid, w[1]);
                        w[1] = mid;
                    },
                    (s, rnd, views) -> {
                        views.comments.clear();
                        s.viewCommentsOnResource(owner, owner, rid, views.comments);
                        int[] perWriter = new int[WRITERS];
                        int initialSeen = 0;
                        for (int i = 0; i < views.comments.size(); i++) {
                            CommentList.Row row = views.comments.get(i);
                            if (row.commentId < firstFree) {
                                initialSeen++;
                            } else {
                                perWriter[(int) row.timestampMs]++;
                                if (!row.content.equals("w" + row.timestampMs + "/" + row.commentId)) {
                                    violations.add("VCR row mixes comments: " + row.commentId + " " + row.content);
                                }
                            }
                        }
                        long[] ids = views.comments.sortedIds();
                        boolean writersOk = Arrays.stream(perWriter).allMatch(c -> c == 1 || c == 2);
                        if (initialSeen != initial
                                || !writersOk
                                || Arrays.stream(ids).distinct().count() != ids.length) {
                            violations.add(
                                    "VCR saw " + Arrays.toString(ids) + ", per writer " + Arrays.toString(perWriter));
                        }
                    });
            assertThat(violations).isEmpty();
            assertThat(store.counts().comments()).isEqualTo(graph.totalInitialComments() + WRITERS);
        }
    }

    /**
     * Random friendship writes, valid or not, by many threads on a handful of members. Invalid ones must fail without
     * effect; lists must never show a member twice; at the end the relation is symmetric and the counts agree.
     */
    @Test
    void churnOnFewMembersKeepsTheRelationConsistent() throws Exception {
        SocialGraph graph = new SocialGraph(GraphSpec.builder()
                .members(12)
                .memberIdOffset(100)
                .friendsPerMember(4)
                .resourcesPerMember(0)
                .confirmedFraction(0.5)
                .attributeCount(2)
                .attributeLength(4)
                .commentLength(10)
                .fragments(1)
                .seed(3)
                .build());
        int m = graph.members();
        AtomicInteger succeeded = new AtomicInteger();
        AtomicInteger refused = new AtomicInteger();
        try (DataStore store = MemoryStoreTest.open(name)) {
            StoreConformanceSuite.load(store, graph, 1);
            List<Pair> work = new ArrayList<>();
            for (int i = 0; i < 60_000; i++) {
                work.add(new Pair(i, 0));
            }
            runRound(
                    store,
                    work,
                    (s, w) -> {
                        SplittableRandom rnd = new SplittableRandom(w.even);
                        int a = graph.memberId(rnd.nextInt(m));
                        int b = graph.memberId(rnd.nextInt(m));
                        try {
                            switch (rnd.nextInt(4)) {
                                case 0 -> s.inviteFriend(a, b);
                                case 1 -> s.acceptFriendRequest(a, b);
                                case 2 -> s.rejectFriendRequest(a, b);
                                default -> s.thawFriendship(a, b);
                            }
                            succeeded.incrementAndGet();
                        } catch (StoreException e) {
                            refused.incrementAndGet();
                        }
                    },
                    (s, rnd, views) -> {
                        int a = graph.memberId(rnd.nextInt(m));
                        views.members.clear();
                        if (rnd.nextBoolean()) {
                            s.listFriends(a, a, views.members);
                        } else {
                            s.viewFriendRequests(a, views.members);
                        }
                        int[] ids = views.members.sortedIds();
                        if (Arrays.stream(ids).distinct().count() != ids.length || Arrays.binarySearch(ids, a) >= 0) {
                            violations.add("list of " + a + " is " + Arrays.toString(ids));
                        }
                    });
            assertThat(violations).isEmpty();
            assertThat(succeeded.get()).isGreaterThan(1000);
            assertThat(refused.get()).isGreaterThan(1000);

            long friendEnds = 0;
            long pending = 0;
            try (StoreSession s = store.openSession()) {
                MemberList list = new MemberList(2);
                int[][] friends = new int[m][];
                int[][] inviters = new int[m][];
                for (int i = 0; i < m; i++) {
                    list.clear();
                    s.listFriends(graph.memberId(i), graph.memberId(i), list);
                    friends[i] = list.sortedIds();
                    list.clear();
                    s.viewFriendRequests(graph.memberId(i), list);
                    inviters[i] = list.sortedIds();
                    friendEnds += friends[i].length;
                    pending += inviters[i].length;
                }
                for (int i = 0; i < m; i++) {
                    int a = graph.memberId(i);
                    for (int b : friends[i]) {
                        int j = graph.memberIndex(b);
                        assertThat(friends[j])
                                .as("friendship %d-%d is symmetric", a, b)
                                .contains(a);
                        assertThat(inviters[i])
                                .as("friend %d of %d is not also pending", b, a)
                                .doesNotContain(b);
                        assertThat(inviters[j]).doesNotContain(a);
                    }
                    for (int b : inviters[i]) {
                        assertThat(inviters[graph.memberIndex(b)])
                                .as("no invitations both ways %d, %d", a, b)
                                .doesNotContain(a);
                    }
                }
            }
            StoreCounts c = store.counts();
            assertThat(c.friendships()).isEqualTo(friendEnds / 2);
            assertThat(c.pending()).isEqualTo(pending);
        }
    }

    private interface Write<T> {
        void apply(StoreSession s, T item);
    }

    private interface Check {
        void run(StoreSession s, SplittableRandom rnd, Views views);
    }

    /** Reused output objects of one reader. */
    private static final class Views {
        final ProfileView profile = new ProfileView(2);
        final MemberList members = new MemberList(2);
        final CommentList comments = new CommentList();
    }

    private static boolean friends(StoreSession s, int of, int who, Views v) {
        v.members.clear();
        s.listFriends(of, of, v.members);
        return contains(v.members, who);
    }

    private static boolean invited(StoreSession s, int invitee, int inviter, Views v) {
        v.members.clear();
        s.viewFriendRequests(invitee, v.members);
        return contains(v.members, inviter);
    }

    private static boolean contains(MemberList list, int id) {
        for (int i = 0; i < list.size(); i++) {
            if (list.get(i).memberId == id) {
                return true;
            }
        }
        return false;
    }

    /** Writers share {@code items} (each applied once); readers check until the writers are done. */
    private <T> void runRound(DataStore store, List<T> items, Write<T> write, Check check) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(WRITERS + READERS);
        try {
            AtomicInteger next = new AtomicInteger();
            AtomicBoolean done = new AtomicBoolean();
            List<Callable<Void>> writers = new ArrayList<>();
            for (int t = 0; t < WRITERS; t++) {
                writers.add(() -> {
                    try (StoreSession s = store.openSession()) {
                        for (int i = next.getAndIncrement(); i < items.size(); i = next.getAndIncrement()) {
                            write.apply(s, items.get(i));
                        }
                    }
                    return null;
                });
            }
            List<Future<Void>> readers = new ArrayList<>();
            for (int t = 0; t < READERS; t++) {
                long seed = t;
                readers.add(pool.submit(() -> {
                    SplittableRandom rnd = new SplittableRandom(seed);
                    Views views = new Views();
                    try (StoreSession s = store.openSession()) {
                        while (!done.get()) {
                            check.run(s, rnd, views);
                        }
                    }
                    return null;
                }));
            }
            try {
                for (Future<Void> f : pool.invokeAll(writers)) {
                    f.get();
                }
            } finally {
                done.set(true);
            }
            for (Future<Void> f : readers) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
