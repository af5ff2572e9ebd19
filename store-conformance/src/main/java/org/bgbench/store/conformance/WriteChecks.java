package org.bgbench.store.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.bgbench.model.Action;
import org.bgbench.model.state.GraphState;
import org.bgbench.store.FeedList;
import org.bgbench.store.MemberList;
import org.bgbench.store.ProfileView;
import org.bgbench.store.StoreSession;

/** The write actions' checks: single writes seen by reads, long random sequences and many threads at once. */
final class WriteChecks extends FixtureChecks {
    WriteChecks(ConformanceFixture fixture) {
        super(fixture);
    }

    void friendshipWritesChangeWhatReadsShow() {
        GraphState state = new GraphState(graph);
        try (StoreSession s = store.openSession()) {
            int a = 10;
            int inviter = state.pickInviter(a, 0);
            assertThat(inviter)
                    .as("member %d has a pending invitation in the suite graph", a)
                    .isNotNegative();
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
                    assertThat(list.sortedIds())
                            .as("friends of %d after step %d", a, step)
                            .isEqualTo(ids(state.friends(a)));
                }
            }
        }
        assertThat(performed).as("most random actions find a valid target").isGreaterThan(scaledToGraph(1500));
        assertThat(StateComparison.differences(store, state, 20)).isEmpty();
    }

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
                    FeedList feed = new FeedList();
                    while (!writers.stream().allMatch(Future::isDone)) {
                        feed.clear();
                        s.viewNewsFeed(graph.memberId(rnd.nextInt(graph.members())), 5, feed);
                        assertThat(feed.size()).isLessThanOrEqualTo(5);
                        long[] got = feed.shareIds();
                        for (int r = 1; r < got.length; r++) {
                            assertThat(got[r]).as("most recent first").isLessThan(got[r - 1]);
                        }
                        for (int r = 0; r < feed.size(); r++) {
                            FeedList.Row row = feed.get(r);
                            int account = (int) (row.shareId % graph.accounts());
                            assertThat(row.sharerId)
                                    .as("share %d's sharer", row.shareId)
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
}
