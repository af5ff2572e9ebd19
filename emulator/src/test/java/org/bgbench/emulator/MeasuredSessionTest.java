package org.bgbench.emulator;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.bgbench.model.Action;
import org.bgbench.model.FeedSpec;
import org.bgbench.model.GraphSpec;
import org.bgbench.model.generator.Relation;
import org.bgbench.model.generator.SocialGraph;
import org.bgbench.model.log.ValidationLog;
import org.bgbench.model.state.GraphState;
import org.bgbench.store.DataStore;
import org.bgbench.store.StoreSession;
import org.bgbench.store.StoreSettings;
import org.bgbench.store.conformance.StoreConformanceSuite;
import org.bgbench.store.memory.MemoryStoreProvider;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The decorator against the real in-memory store (which refuses any invalid action): what it records, what it logs
 * for validation and what it tells the emulator.
 */
class MeasuredSessionTest {
    private static final SocialGraph GRAPH = new SocialGraph(GraphSpec.builder()
            .members(200)
            .friendsPerMember(10)
            .resourcesPerMember(5)
            .commentsPerResource(2)
            .confirmedFraction(0.7)
            .attributeCount(4)
            .attributeLength(6)
            .commentLength(20)
            .fragments(2)
            .seed(3)
            .build()
            .withFeed(new FeedSpec(10, 2, 0, 2)));

    /** One logged record; the test's log may allocate. */
    record Entry(boolean read, int action, byte item, long id, long start, long end, long value) {}

    static final class ListLog implements ValidationLog {
        final List<Entry> entries = new ArrayList<>();
        int kept = 1;
        /** Reads given while they were dropped: the session gives the warm-up's reads too. */
        int dropped;

        @Override
        public void read(byte action, byte item, long id, long startNanos, long endNanos, long observed) {
            if (kept == 1) {
                entries.add(new Entry(true, action, item, id, startNanos, endNanos, observed));
            } else {
                dropped++;
            }
        }

        @Override
        public void keepReads(int kept) {
            this.kept = kept;
        }

        @Override
        public void delta(byte action, byte item, long id, long startNanos, long endNanos, long delta) {
            entries.add(new Entry(false, action, item, id, startNanos, endNanos, delta));
        }

        final List<String> feedRecords = new ArrayList<>();

        @Override
        public void feedRead(byte action, int member, int k, long startNanos, long endNanos, long[] shareIds, int n) {
            if (kept == 0) {
                dropped++;
                return;
            }
            feedRecords.add("read " + member + " " + Arrays.toString(Arrays.copyOf(shareIds, n)));
        }

        @Override
        public void share(
                byte action,
                int account,
                long shareId,
                long resource,
                long startNanos,
                long endNanos,
                int[] recipients) {
            feedRecords.add("share " + account + " " + shareId + " " + resource + " " + Arrays.toString(recipients));
        }

        @Override
        public void friendship(byte action, int a, int b, long startNanos, long endNanos, boolean began) {
            feedRecords.add((began ? "friends " : "thawed ") + a + " " + b);
        }
    }

    private DataStore store;
    private StoreSession session;
    private final GraphState state = new GraphState(GRAPH);
    private final CountingRecorder rec = new CountingRecorder();
    private final ListLog log = new ListLog();
    private final List<String> aborts = new ArrayList<>();
    private final StoreErrors errors = new StoreErrors(3, aborts::add);
    private MeasuredSession s;

    @BeforeEach
    void open() {
        store = new MemoryStoreProvider().open(StoreSettings.of(Map.of("memory.name", "measured-session")));
        StoreConformanceSuite.load(store, GRAPH, 2);
        session = store.openSession();
        s = new MeasuredSession(session, GRAPH, rec, log, errors, 5);
    }

    @AfterEach
    void close() {
        session.close();
        store.close();
    }

    /** A member with a pending invitation and a friend. */
    private int busyMember() {
        for (int m = 0; m < GRAPH.members(); m++) {
            if (state.pendingCount(m) > 0 && state.friendCount(m) > 0) {
                return m;
            }
        }
        throw new AssertionError("the graph has no member with both an invitation and a friend");
    }

    private int unrelatedTo(int a) {
        for (int b = 0; b < GRAPH.members(); b++) {
            if (b != a && state.relation(a, b) == Relation.NONE && state.relation(b, a) == Relation.NONE) {
                return b;
            }
        }
        throw new AssertionError("no member unrelated to " + a);
    }

    @Test
    void sharesFeedsAndFriendshipChangesAreLoggedForFeedValidation() {
        int a = busyMember();
        int f = state.pickFriend(a, 0);
        int[] pages = new int[1];
        GRAPH.forEachFollowedPage(f, p -> pages[0] = p);
        int page = GRAPH.pageAccount(pages[0]);
        long s1 = state.newShareId(a);
        assertThat(s.shareResource(a, GRAPH.resourceId(a, 1), s1, new int[] {f}))
                .isTrue();
        state.share(a, s1, GRAPH.resourceId(a, 1), new int[] {f});
        long s2 = state.newShareId(page);
        assertThat(s.shareResource(page, GRAPH.pageResourceId(pages[0], 0), s2, null))
                .isTrue();
        state.share(page, s2, GRAPH.pageResourceId(pages[0], 0), null);
        s.logReads(false);
        assertThat(s.viewNewsFeed(f, 10)).isTrue();
        s.logReads(true);
        assertThat(s.viewNewsFeed(f, 10)).isTrue();
        assertThat(s.thawFriendship(a, f)).isTrue();
        assertThat(log.feedRecords)
                .containsExactly(
                        "share " + a + " " + s1 + " " + GRAPH.resourceId(a, 1) + " [" + f + "]",
                        "share " + page + " " + s2 + " " + GRAPH.pageResourceId(pages[0], 0) + " null",
                        // Only the measured VNF is logged: the page's share is the more recent one.
                        "read " + f + " [" + s2 + ", " + s1 + "]",
                        "thawed " + a + " " + f);
        assertThat(rec.ok.get(Action.SR.index())).isEqualTo(2);
        assertThat(rec.ok.get(Action.VNF.index())).isEqualTo(2);
    }

    @Test
    void readsAreRecordedAndLoggedOnlyWhenAsked() {
        int a = busyMember();
        int b = state.pickFriend(a, 0);
        long rid = GRAPH.resourceId(b, 0);

        s.logReads(false);
        assertThat(s.viewProfile(a, a)).isTrue();
        assertThat(rec.ok.get(Action.VP.index())).isEqualTo(1);
        assertThat(log.entries).as("warm-up reads are not logged").isEmpty();
        assertThat(log.dropped).as("but given to the log, which drops them").isEqualTo(2);

        s.logReads(true);
        assertThat(s.viewProfile(a, a)).isTrue();
        assertThat(s.viewProfile(a, b)).isTrue();
        assertThat(s.listFriends(a, b)).isTrue();
        assertThat(s.viewFriendRequests(a)).isTrue();
        assertThat(s.viewTopKResources(a, b)).isTrue();
        assertThat(s.viewComments(a, rid)).isTrue();

        int vp = Action.VP.index();
        assertThat(log.entries)
                .containsExactly(
                        new Entry(true, vp, ValidationLog.FRIENDS, a, at(0), end(0), state.friendCount(a)),
                        new Entry(true, vp, ValidationLog.PENDING, a, at(0), end(0), state.pendingCount(a)),
                        // Another member's profile shows no pending count, so only her friends are logged.
                        new Entry(true, vp, ValidationLog.FRIENDS, b, at(2), end(2), state.friendCount(b)),
                        new Entry(
                                true, Action.LF.index(), ValidationLog.FRIENDS, b, at(3), end(3), state.friendCount(b)),
                        new Entry(
                                true,
                                Action.VFR.index(),
                                ValidationLog.PENDING,
                                a,
                                at(4),
                                end(4),
                                state.pendingCount(a)),
                        new Entry(
                                true,
                                Action.VCR.index(),
                                ValidationLog.COMMENTS,
                                rid,
                                at(5),
                                end(5),
                                state.commentCount(rid)));
        for (Entry e : log.entries) {
            assertThat(e.end()).isGreaterThanOrEqualTo(e.start());
        }
        assertThat(rec.ok.get(vp)).isEqualTo(3);
        for (Action read : List.of(Action.LF, Action.VFR, Action.VTR, Action.VCR)) {
            assertThat(rec.ok.get(read.index())).as(read.code()).isEqualTo(1);
        }
        assertThat(rec.nanos.get(vp)).as("latencies are recorded").isPositive();
        assertThat(rec.total(rec.errors)).isZero();
    }

    @Test
    void writesLogTheirDeltasEvenBeforeTheMeasuredPeriod() {
        s.logReads(false);
        int a = busyMember();
        int inviter = state.pickInviter(a, 0);
        int friend = state.pickFriend(a, 0);
        int stranger = unrelatedTo(a);
        long rid = GRAPH.resourceId(a, 1);
        long mid = state.newCommentId();

        assertThat(s.inviteFriend(a, stranger)).isTrue();
        assertThat(s.acceptFriendRequest(a, inviter)).isTrue();
        assertThat(s.thawFriendship(a, friend)).isTrue();
        assertThat(s.postComment(a, rid, mid, "hello")).isTrue();
        assertThat(s.deleteComment(a, rid, mid)).isTrue();

        assertThat(log.entries)
                .extracting(e -> List.of(e.action(), (int) e.item(), e.id(), e.value()))
                .containsExactly(
                        List.of(Action.IF.index(), (int) ValidationLog.PENDING, (long) stranger, 1L),
                        List.of(Action.AFR.index(), (int) ValidationLog.PENDING, (long) a, -1L),
                        List.of(Action.AFR.index(), (int) ValidationLog.FRIENDS, (long) a, 1L),
                        List.of(Action.AFR.index(), (int) ValidationLog.FRIENDS, (long) inviter, 1L),
                        List.of(Action.TF.index(), (int) ValidationLog.FRIENDS, (long) a, -1L),
                        List.of(Action.TF.index(), (int) ValidationLog.FRIENDS, (long) friend, -1L),
                        List.of(Action.PCR.index(), (int) ValidationLog.COMMENTS, rid, 1L),
                        List.of(Action.DCR.index(), (int) ValidationLog.COMMENTS, rid, -1L));
        assertThat(log.entries).noneMatch(Entry::read);
        for (Action w : List.of(Action.IF, Action.AFR, Action.TF, Action.PCR, Action.DCR)) {
            assertThat(rec.ok.get(w.index())).as(w.code()).isEqualTo(1);
        }

        // RFR of the invitation just sent, seen from the other side.
        assertThat(s.rejectFriendRequest(stranger, a)).isTrue();
        assertThat(log.entries.getLast())
                .extracting(Entry::action, Entry::item, Entry::id, Entry::value)
                .containsExactly(Action.RFR.index(), ValidationLog.PENDING, (long) stranger, -1L);
    }

    @Test
    void aRefusedActionIsAnErrorNotLoggedAndEndsTheRunAfterTooManyInARow() {
        s.logReads(true);
        int a = busyMember();
        int stranger = unrelatedTo(a);

        // No invitation from a stranger: the memory store refuses it.
        assertThat(s.acceptFriendRequest(a, stranger)).isFalse();
        assertThat(rec.errors.get(Action.AFR.index())).isEqualTo(1);
        assertThat(rec.ok.get(Action.AFR.index())).isZero();
        assertThat(log.entries).isEmpty();
        assertThat(errors.samples()).singleElement().asString().startsWith("AFR: ");

        assertThat(s.thawFriendship(a, stranger)).isFalse();
        assertThat(s.viewProfile(a, a)).as("a success starts the count over").isTrue();
        assertThat(s.thawFriendship(a, stranger)).isFalse();
        assertThat(s.rejectFriendRequest(a, stranger)).isFalse();
        assertThat(aborts).isEmpty();
        assertThat(s.acceptFriendRequest(a, stranger)).isFalse();
        assertThat(aborts).singleElement().asString().startsWith("the store failed 3 actions in a row");
        assertThat(errors.samples())
                .extracting(x -> x.substring(0, x.indexOf(':')))
                .containsExactly("AFR", "RFR", "TF");
        assertThat(rec.total(rec.errors)).isEqualTo(5);
        assertThat(rec.nanos.get(Action.TF.index()))
                .as("an error's time is recorded")
                .isPositive();
    }

    @Test
    void withoutALogNothingIsLogged() {
        MeasuredSession quiet = new MeasuredSession(session, GRAPH, rec, null, errors, 5);
        quiet.logReads(true);
        int a = busyMember();
        assertThat(quiet.viewProfile(a, a)).isTrue();
        assertThat(quiet.inviteFriend(a, unrelatedTo(a))).isTrue();
        assertThat(rec.ok.get(Action.VP.index())).isEqualTo(1);
        assertThat(rec.ok.get(Action.IF.index())).isEqualTo(1);
    }

    @Test
    void oneCallInEightIsSampledForBgsCpuWhetherItCompletesOrFails() throws Exception {
        assumeThreadCpuClock();
        int a = busyMember();
        int stranger = unrelatedTo(a);
        int vp = Action.VP.index();
        for (int i = 0; i < 8 * MeasuredSession.CPU_EVERY; i++) {
            assertThat(s.viewProfile(a, a)).isTrue();
        }
        assertThat(rec.cpuSamples.get(vp)).isEqualTo(8);
        // The thread's CPU clock counts in ns: a call into the store costs more than nothing, and far less than 0.1 s.
        assertThat(rec.cpuMeanUs(vp)).isGreaterThan(0.0).isLessThan(100_000.0);
        // Refused by the store: sampled all the same (the call cost BG's thread CPU too).
        for (int i = 0; i < MeasuredSession.CPU_EVERY; i++) {
            assertThat(s.acceptFriendRequest(a, stranger)).isFalse();
        }
        assertThat(rec.cpuSamples.get(Action.AFR.index())).isEqualTo(1);
        assertThat(rec.cpuNanos.get(Action.AFR.index())).isPositive();
        assertThat(rec.total(rec.cpuSamples)).isEqualTo(9);

        // A virtual thread has no CPU clock of its own: its calls record nothing.
        Thread.ofVirtual()
                .start(() -> {
                    for (int i = 0; i < 4 * MeasuredSession.CPU_EVERY; i++) {
                        s.viewProfile(a, a);
                    }
                })
                .join();
        assertThat(rec.ok.get(vp)).isEqualTo(12 * MeasuredSession.CPU_EVERY);
        assertThat(rec.total(rec.cpuSamples)).isEqualTo(9);
    }

    static void assumeThreadCpuClock() {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        Assumptions.assumeTrue(
                threads.isCurrentThreadCpuTimeSupported() && threads.isThreadCpuTimeEnabled(),
                "this JVM has no thread CPU clock");
    }

    private long at(int i) {
        return log.entries.get(i).start();
    }

    private long end(int i) {
        return log.entries.get(i).end();
    }
}
