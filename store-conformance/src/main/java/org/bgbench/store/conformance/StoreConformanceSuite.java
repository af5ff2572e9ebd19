package org.bgbench.store.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import org.bgbench.model.Action;
import org.bgbench.model.GraphSpec;
import org.bgbench.model.generator.SocialGraph;
import org.bgbench.model.state.GraphState;
import org.bgbench.loader.repair.RepairDb;
import org.bgbench.store.CommentList;
import org.bgbench.store.DataStore;
import org.bgbench.store.GraphLoader;
import org.bgbench.store.MemberList;
import org.bgbench.store.ProfileView;
import org.bgbench.store.ResourceList;
import org.bgbench.store.StoreCounts;
import org.bgbench.store.StoreSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The conformance suite every store must pass: a store module adds one subclass that opens its store, and gets every
 * check here. Each test starts from a freshly loaded small graph with images, pending invitations and comments, so
 * every action has something to act on; outputs and effects are checked against the generator and BG's expected
 * state, including after long random sequences and under many threads at once.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class StoreConformanceSuite {
    /** A fresh, empty store; the suite creates the schema and closes it at the end. */
    protected abstract DataStore openStore();

    /**
     * Another handle on the same contents as {@link #store} (the same file, database or named instance), opened
     * anew, so the suite can check that what a store records survives closing a handle and opening the store again;
     * null (the default) skips those checks. The suite closes it.
     */
    protected DataStore openAgain() {
        return null;
    }

    /**
     * The graph each test starts from; small but with every feature on: 12 pages, 4 in each of the 3 fragments, each
     * member following 3 of them (ι = 30), each page owning 3 resources.
     */
    protected GraphSpec spec() {
        return GraphSpec.builder().members(120).memberIdOffset(1000).friendsPerMember(10).resourcesPerMember(4)
                .commentsPerResource(2).confirmedFraction(0.7).images(true).thumbnailBytes(64)
                .profileImageBytes(256).attributeLength(12).commentLength(40).fragments(3).seed(42).build()
                .withFeed(new org.bgbench.model.FeedSpec(12, 3, 0, 3));
    }

    protected DataStore store;
    protected SocialGraph graph;

    /** Members of the suite's own graph ({@link #spec()}), for which the write counts of the tests were sized. */
    private static final int SIZED_FOR_MEMBERS = 120;

    /**
     * {@code writes} (a count of random writes, or a bound on writes done, sized for the suite's 120-member graph)
     * for this class's graph: the same writes per member on a smaller graph, unchanged on the suite's graph or a
     * larger one. A subclass that shrinks the graph because each action costs more on its store (MongoDB over
     * FerretDB: 60 members) otherwise ran twice the writes per member of every other store.
     */
    protected final int scaledToGraph(int writes) {
        return (int) Math.max(1, (long) writes * Math.min(graph.members(), SIZED_FOR_MEMBERS) / SIZED_FOR_MEMBERS);
    }

    @BeforeAll
    void open() {
        store = openStore();
        graph = new SocialGraph(spec());
    }

    @AfterAll
    void close() {
        if (store != null) {
            store.close();
        }
    }

    @BeforeEach
    void loadFreshGraph() {
        load(store, graph, 3);
    }

    /** Loads {@code graph} with {@code threads} loaders over disjoint member ranges, as {@code bg load} does. */
    public static void load(DataStore store, SocialGraph graph, int threads) {
        store.createSchema(graph.spec());
        assertThat(store.loadedGraph()).as("no graph is recorded before finishLoad").isEmpty();
        int m = graph.members();
        List<Thread> loaders = new ArrayList<>();
        List<Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
        AtomicLong rows = new AtomicLong();
        for (int t = 0; t < threads; t++) {
            int from = (int) ((long) m * t / threads);
            int to = (int) ((long) m * (t + 1) / threads);
            loaders.add(Thread.ofPlatform().start(() -> {
                try (GraphLoader loader = store.newLoader(graph)) {
                    loader.load(from, to, rows::addAndGet);
                } catch (Throwable e) {
                    failures.add(e);
                }
            }));
        }
        for (Thread t : loaders) {
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
        assertThat(failures).as("loader failures").isEmpty();
        List<Double> finished = java.util.Collections.synchronizedList(new ArrayList<>());
        store.finishLoad(graph, (fraction, step) -> finished.add(fraction));
        assertThat(rows.get()).as("loaders report progress").isPositive();
        if (!finished.isEmpty()) {
            // A store that tells how far its indexes got ends at all of it, never going back.
            assertThat(finished).as("shares done while finishing").isSorted().allMatch(f -> f >= 0 && f <= 1);
            assertThat(finished.get(finished.size() - 1)).as("the last share done").isCloseTo(1.0,
                    org.assertj.core.data.Offset.offset(1e-9));
        }
    }

    @Test
    void recordsTheLoadedGraph() {
        assertThat(store.loadedGraph()).contains(graph.spec().fingerprint());
    }

    @Test
    void aLoadSetsTheLoadedStateMark() {
        assertThat(store.stateMark()).contains(org.bgbench.store.StateMark.loaded(graph.spec().fingerprint()).text());
        store.writeStateMark("running:a run");
        // A new load replaces whatever a run left.
        load(store, graph, 2);
        assertThat(store.stateMark()).contains("loaded:" + graph.spec().fingerprint());
    }

    @Test
    void theStateMarkRoundTripsAndGoesWithTheSchema() {
        store.writeStateMark("running:3f2c started 2025-01-01T00:00:00Z");
        assertThat(store.stateMark()).contains("running:3f2c started 2025-01-01T00:00:00Z");
        store.writeStateMark("state:9a8b7c");
        assertThat(store.stateMark()).contains("state:9a8b7c");
        // Writing the mark changes nothing BG reads, and no read changes the mark.
        assertThat(StateComparison.differences(store, new GraphState(graph), 5)).isEmpty();
        assertThat(store.stateMark()).contains("state:9a8b7c");
        assertThat(store.loadedGraph()).contains(graph.spec().fingerprint());
        store.createSchema(graph.spec());
        assertThat(store.stateMark()).as("a new schema holds no state BG knows").isEmpty();
        store.dropSchema();
        assertThat(store.stateMark()).isEmpty();
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> store.writeStateMark("state:x"))
                .as("no schema, no mark").isInstanceOf(org.bgbench.store.StoreException.class);
    }

    @Test
    void theStateMarkSurvivesClosingAndReopeningTheStore() {
        store.writeStateMark("state:before-reopen");
        DataStore again = openAgain();
        org.junit.jupiter.api.Assumptions.assumeTrue(again != null,
                "the suite's store cannot be opened a second time (its contents live only as long as its handle)");
        try {
            assertThat(again.stateMark()).contains("state:before-reopen");
            again.writeStateMark("running:written by another handle");
        } finally {
            again.close();
        }
        DataStore third = openAgain();
        try {
            assertThat(third.stateMark()).contains("running:written by another handle");
            assertThat(third.loadedGraph()).contains(graph.spec().fingerprint());
        } finally {
            third.close();
        }
        assertThat(store.stateMark()).contains("running:written by another handle");
    }

    /** Handles racing for the mark in {@link #ofManyReplacingTheSameMarkAtTheSameInstantExactlyOneSucceeds}. */
    private static final int RACERS = 4;
    /** Rounds of that race: a store that checks and writes in two steps loses one of them. */
    private static final int RACE_ROUNDS = 6;

    /**
     * Two runs that start together both read the mark they may start from; the store's compare-and-set must let only
     * one of them write {@code running:}. Each racer has its own handle where the store can be opened again (its own
     * connections, as separate processes would), and all are released by one barrier in every round.
     */
    @Test
    void ofManyReplacingTheSameMarkAtTheSameInstantExactlyOneSucceeds() throws Exception {
        String loaded = org.bgbench.store.StateMark.loaded(graph.spec().fingerprint()).text();
        assertThat(store.replaceStateMark("state:another", "running:not this one"))
                .as("a mark other than the expected one is not replaced").isFalse();
        assertThat(store.stateMark()).contains(loaded);
        List<DataStore> handles = new ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(RACERS);
        try {
            for (int i = 0; i < RACERS; i++) {
                DataStore again = openAgain();
                handles.add(again == null ? store : again);
            }
            String expected = loaded;
            for (int round = 0; round < RACE_ROUNDS; round++) {
                java.util.concurrent.CyclicBarrier start = new java.util.concurrent.CyclicBarrier(RACERS);
                List<Future<Boolean>> won = new ArrayList<>();
                for (int i = 0; i < RACERS; i++) {
                    DataStore h = handles.get(i);
                    String from = expected;
                    String to = "running:round " + round + " racer " + i;
                    won.add(pool.submit(() -> {
                        start.await();
                        return h.replaceStateMark(from, to);
                    }));
                }
                List<Integer> winners = new ArrayList<>();
                for (int i = 0; i < RACERS; i++) {
                    if (won.get(i).get()) {
                        winners.add(i);
                    }
                }
                assertThat(winners).as("racers that replaced %s in round %d", expected, round).hasSize(1);
                expected = "running:round " + round + " racer " + winners.get(0);
                assertThat(store.stateMark()).as("the winner's mark, round %d", round).contains(expected);
            }
        } finally {
            pool.shutdownNow();
            for (DataStore h : handles) {
                if (h != store) {
                    h.close();
                }
            }
        }
        store.dropSchema();
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> store.replaceStateMark("loaded:x", "running:y"))
                .as("no schema, no mark").isInstanceOf(org.bgbench.store.StoreException.class);
    }

    @Test
    void anImageRestoreBringsBackTheMarkItWasSavedWith() {
        java.util.Optional<org.bgbench.store.StoreImage> image = store.image();
        org.junit.jupiter.api.Assumptions.assumeTrue(image.isPresent(), "the store has no database image");
        String loaded = "loaded:" + graph.spec().fingerprint();
        assertThat(store.stateMark()).contains(loaded);
        image.get().save();
        store.writeStateMark("running:an experiment");
        randomWrites(200, 15);
        assertThat(image.get().exists()).isTrue();
        image.get().restore();
        assertThat(store.stateMark()).contains(loaded);
        assertThat(StateComparison.differences(store, new GraphState(graph), 20)).isEmpty();
        // The image keeps the mark it was taken with, whatever the store's mark is when it is restored again.
        store.writeStateMark("state:after-restore");
        image.get().restore();
        assertThat(store.stateMark()).contains(loaded);
    }

    @Test
    void countsMatchTheGenerator() {
        assertThat(store.counts()).isEqualTo(new StoreCounts(graph.members(), graph.totalFriendships(),
                graph.totalPendingInvitations(), graph.totalResources(), graph.totalInitialComments(), graph.pages(),
                graph.totalFollows(), graph.totalPageResources(), 0));
        assertThat(graph.totalPendingInvitations()).as("the suite's graph has pending invitations").isPositive();
    }

    @Test
    void viewProfileShowsAttributesImageAndCounts() {
        GraphState state = new GraphState(graph);
        try (StoreSession s = store.openSession()) {
            ProfileView p = new ProfileView(graph.attributeCount());
            for (int i = 0; i < graph.members(); i++) {
                int id = graph.memberId(i);
                int other = graph.memberId((i + 7) % graph.members());
                p.clear();
                s.viewProfile(other, id, p);
                assertThat(p.memberId).isEqualTo(id);
                for (int a = 0; a < graph.attributeCount(); a++) {
                    assertThat(p.attributes.get(a)).as("attribute %d of %d", a, id).isEqualTo(graph.attribute(i, a));
                }
                assertThat(p.profileImage).as("profile image of %d", id).isEqualTo(graph.profileImage(i));
                assertThat(p.friendCount).as("friends of %d", id).isEqualTo(state.friendCount(i));
                assertThat(p.resourceCount).isEqualTo(graph.resourcesPerMember());
                assertThat(p.pendingCount).as("pending is shown only to the member herself").isEqualTo(-1);
                p.clear();
                s.viewProfile(id, id, p);
                assertThat(p.pendingCount).as("pending of %d", id).isEqualTo(state.pendingCount(i));
            }
        }
    }

    @Test
    void listFriendsAndFriendRequestsShowMembersWithThumbnails() {
        GraphState state = new GraphState(graph);
        try (StoreSession s = store.openSession()) {
            MemberList list = new MemberList(graph.attributeCount());
            for (int i = 0; i < graph.members(); i++) {
                int id = graph.memberId(i);
                list.clear();
                s.listFriends(graph.memberId(0), id, list);
                assertThat(list.sortedIds()).as("friends of %d", id).isEqualTo(ids(state.friends(i)));
                checkRows(list);
                list.clear();
                s.viewFriendRequests(id, list);
                assertThat(list.sortedIds()).as("inviters of %d", id).isEqualTo(ids(state.inviters(i)));
                checkRows(list);
            }
        }
    }

    private void checkRows(MemberList list) {
        for (int r = 0; r < list.size(); r++) {
            MemberList.Row row = list.get(r);
            int index = graph.memberIndex(row.memberId);
            for (int a = 0; a < graph.attributeCount(); a++) {
                assertThat(row.attributes.get(a)).isEqualTo(graph.attribute(index, a));
            }
            assertThat(row.thumbnail).as("thumbnail of %d", row.memberId).isEqualTo(graph.thumbnail(index));
        }
    }

    @Test
    void viewTopKResourcesShowsTheNewestResourcesOfTheWall() {
        try (StoreSession s = store.openSession()) {
            ResourceList list = new ResourceList();
            for (int i = 0; i < graph.members(); i += 5) {
                int id = graph.memberId(i);
                for (int k : new int[] {1, 3, graph.resourcesPerMember() + 2}) {
                    list.clear();
                    s.viewTopKResources(graph.memberId(1), id, k, list);
                    int expected = Math.min(k, graph.resourcesPerMember());
                    assertThat(list.size()).isEqualTo(expected);
                    for (int r = 0; r < expected; r++) {
                        long rid = graph.resourceId(i, graph.resourcesPerMember() - 1 - r);
                        ResourceList.Row row = list.get(r);
                        assertThat(row.resourceId).isEqualTo(rid);
                        assertThat(row.wallUserId).isEqualTo(id);
                        assertThat(row.creatorId).isEqualTo(id);
                        assertThat(row.type).isEqualTo(graph.resourceType(rid));
                        assertThat(row.body).isEqualTo(graph.resourceBody(rid));
                        assertThat(row.doc).isEqualTo(graph.resourceDoc(rid));
                    }
                }
            }
        }
    }

    @Test
    void commentsCanBeViewedPostedAndDeleted() {
        try (StoreSession s = store.openSession()) {
            CommentList list = new CommentList();
            int owner = 3;
            long rid = graph.resourceId(owner, 1);
            int ownerId = graph.memberId(owner);
            s.viewCommentsOnResource(graph.memberId(9), ownerId, rid, list);
            assertThat(list.sortedIds()).containsExactly(graph.commentId(rid, 0), graph.commentId(rid, 1));
            for (int r = 0; r < list.size(); r++) {
                CommentList.Row row = list.get(r);
                assertThat(row.resourceId).isEqualTo(rid);
                assertThat(row.creatorId).isEqualTo(ownerId);
                assertThat(row.modifierId).isEqualTo(graph.memberId(graph.commentModifier(row.commentId)));
                assertThat(row.timestampMs).isEqualTo(graph.commentTimestamp(row.commentId));
                assertThat(row.content).isEqualTo(graph.commentContent(row.commentId));
            }
            long mid = graph.firstFreeCommentId() + 5;
            s.postCommentOnResource(graph.memberId(9), ownerId, rid, mid, 1_700_000_000_123L, "hello there");
            list.clear();
            s.viewCommentsOnResource(ownerId, ownerId, rid, list);
            assertThat(list.size()).isEqualTo(3);
            CommentList.Row posted = null;
            for (int r = 0; r < list.size(); r++) {
                if (list.get(r).commentId == mid) {
                    posted = list.get(r);
                }
            }
            assertThat(posted).isNotNull();
            assertThat(posted.modifierId).isEqualTo(graph.memberId(9));
            assertThat(posted.creatorId).isEqualTo(ownerId);
            assertThat(posted.timestampMs).isEqualTo(1_700_000_000_123L);
            assertThat(posted.content).isEqualTo("hello there");
            s.deleteCommentFromResource(ownerId, rid, graph.commentId(rid, 0));
            s.deleteCommentFromResource(ownerId, rid, mid);
            list.clear();
            s.viewCommentsOnResource(ownerId, ownerId, rid, list);
            assertThat(list.sortedIds()).containsExactly(graph.commentId(rid, 1));
            list.clear();
            s.viewCommentsOnResource(ownerId, ownerId, graph.resourceId(owner, 2), list);
            assertThat(list.size()).as("other resources untouched").isEqualTo(2);
        }
    }

    @Test
    void friendshipWritesChangeWhatReadsShow() {
        GraphState state = new GraphState(graph);
        try (StoreSession s = store.openSession()) {
            int a = 10;
            int inviter = state.pickInviter(a, 0);
            assertThat(inviter).as("member %d has a pending invitation in the suite graph", a).isNotNegative();
            int aId = graph.memberId(a);
            ProfileView p = new ProfileView(graph.attributeCount());
            s.viewProfile(aId, aId, p);
            int friends = p.friendCount;
            int pending = p.pendingCount;
            s.acceptFriendRequest(aId, graph.memberId(inviter));
            p.clear();
            s.viewProfile(aId, aId, p);
            assertThat(p.friendCount).isEqualTo(friends + 1);
            assertThat(p.pendingCount).isEqualTo(pending - 1);
            p.clear();
            s.viewProfile(aId, graph.memberId(inviter), p);
            assertThat(p.friendCount).isEqualTo(state.friendCount(inviter) + 1);
            s.thawFriendship(graph.memberId(inviter), aId);
            p.clear();
            s.viewProfile(aId, aId, p);
            assertThat(p.friendCount).isEqualTo(friends);
            s.inviteFriend(aId, graph.memberId(inviter));
            p.clear();
            s.viewProfile(graph.memberId(inviter), graph.memberId(inviter), p);
            assertThat(p.pendingCount).isEqualTo(state.pendingCount(inviter) + 1);
            s.rejectFriendRequest(graph.memberId(inviter), aId);
            p.clear();
            s.viewProfile(graph.memberId(inviter), graph.memberId(inviter), p);
            assertThat(p.pendingCount).isEqualTo(state.pendingCount(inviter));
            assertThat(p.friendCount).isEqualTo(state.friendCount(inviter));
        }
    }

    @Test
    void longRandomSequenceOfValidActionsLeavesTheExpectedState() {
        GraphState state = new GraphState(graph);
        ValidActions actions = new ValidActions(state);
        SplittableRandom rnd = new SplittableRandom(7);
        Action[] writes = {Action.IF, Action.AFR, Action.RFR, Action.TF, Action.PCR, Action.DCR, Action.SR};
        int performed = 0;
        try (StoreSession s = store.openSession()) {
            MemberList list = new MemberList(graph.attributeCount());
            int steps = scaledToGraph(3000);
            int checkEvery = scaledToGraph(100);
            for (int step = 0; step < steps; step++) {
                Action action = writes[rnd.nextInt(writes.length)];
                int a = rnd.nextInt(graph.members());
                if (actions.perform(s, action, a, actions.partner(action, a, rnd), rnd)) {
                    performed++;
                }
                if (step % checkEvery == 0) {
                    list.clear();
                    s.listFriends(graph.memberId(a), graph.memberId(a), list);
                    assertThat(list.sortedIds()).as("friends of %d after step %d", a, step).isEqualTo(ids(state.friends(a)));
                }
            }
        }
        assertThat(performed).as("most random actions find a valid target").isGreaterThan(scaledToGraph(1500));
        assertThat(StateComparison.differences(store, state, 20)).isEmpty();
    }

    @Test
    void aFreshLoadHoldsExactlyTheGeneratedGraph() {
        assertThat(StateComparison.differences(store, new GraphState(graph), 20)).isEmpty();
    }

    /**
     * Random valid writes by {@code steps} actions ({@link #scaledToGraph scaled} to the graph), checked to have
     * changed the store.
     */
    private GraphState randomWrites(int steps, long seed) {
        steps = scaledToGraph(steps);
        GraphState state = new GraphState(graph);
        ValidActions actions = new ValidActions(state);
        SplittableRandom rnd = new SplittableRandom(seed);
        Action[] writes = {Action.IF, Action.AFR, Action.RFR, Action.TF, Action.PCR, Action.DCR, Action.SR};
        try (StoreSession s = store.openSession()) {
            for (int step = 0; step < steps; step++) {
                Action action = writes[rnd.nextInt(writes.length)];
                int a = rnd.nextInt(graph.members());
                actions.perform(s, action, a, actions.partner(action, a, rnd), rnd);
            }
        }
        assertThat(StateComparison.differences(store, new GraphState(graph), 1)).as("the writes changed the store")
                .isNotEmpty();
        return state;
    }

    @Test
    void repairDbUndoesEveryWriteExactly() {
        GraphState state = randomWrites(1500, 11);
        assertThat(state.touchedMembers()).isGreaterThan(graph.members() / 2);
        RepairDb.Report report = RepairDb.undo(store, state, 4);
        assertThat(report.mismatches()).isEmpty();
        assertThat(report.relationships()).isPositive();
        assertThat(report.comments()).isPositive();
        assertThat(StateComparison.differences(store, new GraphState(graph), 20)).isEmpty();
        // A second experiment after the repair starts from the generated graph and can be repaired again.
        GraphState again = randomWrites(500, 12);
        assertThat(RepairDb.undo(store, again, 2).verified()).isTrue();
        assertThat(StateComparison.differences(store, new GraphState(graph), 20)).isEmpty();
    }

    @Test
    void repairDbReportsAStoreThatDoesNotHoldTheExpectedState() {
        GraphState state = randomWrites(300, 13);
        // The store applies an invitation BG never learnt of (a write that "failed" after it committed): the undo
        // cannot know, and its read-back of the touched members must say so.
        int[] touched = new int[1];
        state.forEachTouched(i -> touched[0] = i);
        int b = touched[0];
        int a = -1;
        for (int i = 0; i < graph.members() && a < 0; i++) {
            if (i != b && state.relation(i, b) == org.bgbench.model.generator.Relation.NONE
                    && graph.initialRelation(i, b) == org.bgbench.model.generator.Relation.NONE) {
                a = i;
            }
        }
        try (StoreSession s = store.openSession()) {
            s.inviteFriend(graph.memberId(a), graph.memberId(b));
        }
        RepairDb.Report report = RepairDb.undo(store, state, 2);
        assertThat(report.verified()).isFalse();
        assertThat(report.mismatches()).anyMatch(m -> m.startsWith("member " + graph.memberId(b) + ":"));
    }

    @Test
    void aFullRepairBringsBackTheGeneratedGraphWithoutBgsState() {
        // BG's state of these writes is thrown away, as after an interrupted run: the repair reads everything back.
        randomWrites(1200, 21);
        org.bgbench.loader.repair.StoreRepair.Report r = org.bgbench.loader.repair.StoreRepair.toGenerated(store,
                graph, 4, null);
        assertThat(r.refused()).isEmpty();
        assertThat(r.relationships()).isPositive();
        assertThat(r.comments()).isPositive();
        assertThat(r.members()).isEqualTo(graph.members());
        assertThat(StateComparison.differences(store, new GraphState(graph), 20)).isEmpty();
        // Nothing left to do the second time.
        org.bgbench.loader.repair.StoreRepair.Report again = org.bgbench.loader.repair.StoreRepair.toGenerated(store,
                graph, 2, null);
        assertThat(again.storeCalls()).isZero();
    }

    @Test
    void theSampledCheckFindsAStoreThatLostAWrite() {
        GraphState state = randomWrites(400, 22);
        assertThat(StateComparison.expectedCounts(state)).isEqualTo(store.counts());
        assertThat(StateComparison.sampled(store, state, 50, 1, 10)).isEmpty();
        // The store applies a write BG never learnt of: its totals no longer agree, whichever members are drawn.
        int a = -1;
        int b = -1;
        for (int i = 0; i < graph.members() && a < 0; i++) {
            int[] friends = state.friends(i);
            if (friends.length > 0) {
                a = i;
                b = friends[0];
            }
        }
        try (StoreSession s = store.openSession()) {
            s.thawFriendship(graph.memberId(a), graph.memberId(b));
        }
        List<String> found = StateComparison.sampled(store, state, 5, 2, 10);
        assertThat(found).anyMatch(d -> d.startsWith("totals: friendships "));
        String member = "member " + graph.memberId(a) + ":";
        assertThat(StateComparison.sampled(store, state, graph.members(), 3, 10)).anyMatch(d -> d.startsWith(member));
    }

    @Test
    void aDatabaseImageBringsBackTheLoadedGraph() {
        java.util.Optional<org.bgbench.store.StoreImage> image = store.image();
        org.junit.jupiter.api.Assumptions.assumeTrue(image.isPresent(), "the store has no database image");
        image.get().save();
        randomWrites(800, 14);
        image.get().restore();
        assertThat(store.loadedGraph()).contains(graph.spec().fingerprint());
        assertThat(StateComparison.differences(store, new GraphState(graph), 20)).isEmpty();
    }

    @Test
    void manyThreadsAtOnceLeaveTheExpectedState() throws Exception {
        GraphState state = new GraphState(graph);
        ValidActions actions = new ValidActions(state);
        AtomicIntegerArray busy = new AtomicIntegerArray(graph.accounts());
        int threads = 8;
        int stepsPerThread = scaledToGraph(600);
        ExecutorService pool = Executors.newFixedThreadPool(threads + 2);
        List<Future<Integer>> writers = new ArrayList<>();
        Action[] writes = {Action.IF, Action.AFR, Action.RFR, Action.TF, Action.PCR, Action.DCR, Action.SR};
        for (int t = 0; t < threads; t++) {
            long seed = 100 + t;
            writers.add(pool.submit(() -> {
                SplittableRandom rnd = new SplittableRandom(seed);
                int done = 0;
                try (StoreSession s = store.openSession()) {
                    for (int step = 0; step < stepsPerThread; step++) {
                        Action action = writes[rnd.nextInt(writes.length)];
                        int a = rnd.nextInt(graph.members());
                        if (!busy.compareAndSet(a, 0, 1)) {
                            continue;
                        }
                        try {
                            int b = actions.partner(action, a, rnd);
                            if (b >= 0 && !busy.compareAndSet(b, 0, 1)) {
                                continue;
                            }
                            try {
                                if (actions.perform(s, action, a, b, rnd)) {
                                    done++;
                                }
                            } finally {
                                if (b >= 0) {
                                    busy.set(b, 0);
                                }
                            }
                        } finally {
                            busy.set(a, 0);
                        }
                    }
                }
                return done;
            }));
        }
        // Readers run alongside: every VP must show a count consistent with some state, never negative; every VNF at
        // most k shares, most recent first, each a share that exists with its own resource.
        List<Future<Integer>> readers = new ArrayList<>();
        for (int t = 0; t < 2; t++) {
            readers.add(pool.submit(() -> {
                int reads = 0;
                SplittableRandom rnd = new SplittableRandom(5);
                try (StoreSession s = store.openSession()) {
                    ProfileView p = new ProfileView(graph.attributeCount());
                    MemberList list = new MemberList(graph.attributeCount());
                    org.bgbench.store.FeedList feed = new org.bgbench.store.FeedList();
                    while (!writers.stream().allMatch(Future::isDone)) {
                        feed.clear();
                        s.viewNewsFeed(graph.memberId(rnd.nextInt(graph.members())), 5, feed);
                        assertThat(feed.size()).isLessThanOrEqualTo(5);
                        long[] got = feed.shareIds();
                        for (int r = 1; r < got.length; r++) {
                            assertThat(got[r]).as("most recent first").isLessThan(got[r - 1]);
                        }
                        for (int r = 0; r < feed.size(); r++) {
                            org.bgbench.store.FeedList.Row row = feed.get(r);
                            int account = (int) (row.shareId % graph.accounts());
                            assertThat(row.sharerId).as("share %d's sharer", row.shareId)
                                    .isEqualTo(graph.accountId(account));
                            assertThat(graph.resourceAccount(row.resourceId)).isEqualTo(account);
                        }
                        int id = graph.memberId(rnd.nextInt(graph.members()));
                        p.clear();
                        s.viewProfile(id, id, p);
                        assertThat(p.friendCount).isNotNegative();
                        assertThat(p.pendingCount).isNotNegative();
                        list.clear();
                        s.listFriends(id, id, list);
                        reads++;
                    }
                }
                return reads;
            }));
        }
        int total = 0;
        for (Future<Integer> f : writers) {
            total += f.get();
        }
        for (Future<Integer> f : readers) {
            f.get();
        }
        pool.shutdown();
        assertThat(total).as("writes performed").isGreaterThan(threads * scaledToGraph(200));
        assertThat(StateComparison.differences(store, state, 20)).isEmpty();
    }

    // ---- feed following (dissertation 3.2, 8.4) ----

    /** A member with a friend who is not her first neighbour's friend etc.: member 0's view of the world. */
    private int[] shareAll(StoreSession s, GraphState state, int account, int[] recipients) {
        long rid = graph.accountResourceId(account, 0);
        long id = state.newShareId(account);
        s.shareResource(graph.accountId(account), rid, id,
                recipients == null ? null : Arrays.stream(recipients).map(graph::memberId).toArray());
        state.share(account, id, rid, recipients);
        return recipients;
    }

    @Test
    void aFreshLoadHasEmptyFeedsAndTheGeneratedFollows() {
        assertThat(graph.pages()).as("the suite's graph has pages").isPositive();
        try (StoreSession s = store.openSession()) {
            org.bgbench.store.FeedList feed = new org.bgbench.store.FeedList();
            for (int i = 0; i < graph.members(); i++) {
                feed.clear();
                s.viewNewsFeed(graph.memberId(i), 10, feed);
                assertThat(feed.size()).as("feed of %d after a load", graph.memberId(i)).isZero();
            }
            // Each page's share reaches exactly its followers: the follows are the generated ones.
            GraphState state = new GraphState(graph);
            for (int p = 0; p < graph.pages(); p++) {
                shareAll(s, state, graph.pageAccount(p), null);
            }
            for (int i = 0; i < graph.members(); i++) {
                List<String> diffs = new ArrayList<>();
                StateComparison.feedDifferences(s, state, i, graph.pages(), feed, diffs);
                assertThat(diffs).isEmpty();
                assertThat(feed.size()).isEqualTo(graph.pagesPerMember());
            }
        }
    }

    @Test
    void viewNewsFeedShowsTheMostRecentSharesOfFriendsAndFollowedPages() {
        GraphState state = new GraphState(graph);
        int x = 0;
        int[] friends = state.friends(x);
        assertThat(friends.length).as("member 0 has friends").isGreaterThan(2);
        int f1 = friends[0];
        int f2 = friends[1];
        int stranger = -1;
        for (int i = 1; i < graph.members() && stranger < 0; i++) {
            if (state.relation(x, i) == org.bgbench.model.generator.Relation.NONE && graph.fragmentOf(i) == graph.fragmentOf(x)) {
                stranger = i;
            }
        }
        int[] followed = new int[1];
        graph.forEachFollowedPage(x, p -> followed[0] = p);
        int page = graph.pageAccount(followed[0]);
        try (StoreSession s = store.openSession()) {
            org.bgbench.store.FeedList feed = new org.bgbench.store.FeedList();
            shareAll(s, state, f1, null);                            // public, seen
            shareAll(s, state, stranger, null);                      // public but not a friend: not seen
            shareAll(s, state, f2, state.friends(f2).length > 1      // a list leaving x out: not seen
                    ? Arrays.stream(state.friends(f2)).filter(y -> y != x).toArray() : new int[0]);
            shareAll(s, state, page, null);                          // a followed page: seen
            shareAll(s, state, f2, new int[] {x});                   // a list naming x: seen
            shareAll(s, state, x, null);                             // her own: not in her feed
            for (int k : new int[] {1, 2, 3, 10}) {
                List<String> diffs = new ArrayList<>();
                StateComparison.feedDifferences(s, state, x, k, feed, diffs);
                assertThat(diffs).as("k=%d", k).isEmpty();
                assertThat(feed.size()).isEqualTo(Math.min(k, 3));
            }
            // A thaw hides the friend's shares from both sides, a new friendship shows the past ones.
            s.thawFriendship(graph.memberId(x), graph.memberId(f1));
            state.thaw(x, f1);
            checkFeeds(s, state, new int[] {x, f1, f2});
            s.inviteFriend(graph.memberId(stranger), graph.memberId(x));
            state.invite(stranger, x);
            s.acceptFriendRequest(graph.memberId(x), graph.memberId(stranger));
            state.accept(x, stranger);
            checkFeeds(s, state, new int[] {x, f1, stranger});
            feed.clear();
            s.viewNewsFeed(graph.memberId(x), 10, feed);
            assertThat(feed.shareIds()).as("the new friend's earlier public share now shows").hasSize(3);
        }
        assertThat(StateComparison.differences(store, state, 20)).isEmpty();
    }

    private void checkFeeds(StoreSession s, GraphState state, int[] members) {
        org.bgbench.store.FeedList feed = new org.bgbench.store.FeedList();
        for (int m : members) {
            List<String> diffs = new ArrayList<>();
            StateComparison.feedDifferences(s, state, m, 10, feed, diffs);
            assertThat(diffs).isEmpty();
        }
    }

    @Test
    void clearSharesEmptiesEveryFeed() {
        GraphState state = randomWrites(600, 31);
        assertThat(state.shareCount()).isPositive();
        assertThat(store.counts().shares()).isEqualTo(state.shareCount());
        store.clearShares();
        assertThat(store.counts().shares()).isZero();
        try (StoreSession s = store.openSession()) {
            org.bgbench.store.FeedList feed = new org.bgbench.store.FeedList();
            for (int i = 0; i < graph.members(); i++) {
                feed.clear();
                s.viewNewsFeed(graph.memberId(i), 10, feed);
                assertThat(feed.size()).isZero();
            }
        }
    }

    @Test
    void reusedViewsShowOnlyTheLatestCall() {
        try (StoreSession s = store.openSession()) {
            MemberList list = new MemberList(graph.attributeCount());
            int withMost = 0;
            int withFewest = 0;
            GraphState state = new GraphState(graph);
            for (int i = 0; i < graph.members(); i++) {
                if (state.friendCount(i) > state.friendCount(withMost)) {
                    withMost = i;
                }
                if (state.friendCount(i) < state.friendCount(withFewest)) {
                    withFewest = i;
                }
            }
            list.clear();
            s.listFriends(1000, graph.memberId(withMost), list);
            list.clear();
            s.listFriends(1000, graph.memberId(withFewest), list);
            assertThat(list.sortedIds()).isEqualTo(ids(state.friends(withFewest)));
        }
    }

    private int[] ids(int[] indexes) {
        int[] out = Arrays.stream(indexes).map(graph::memberId).toArray();
        Arrays.sort(out);
        return out;
    }
}
