package org.bgbench.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.BooleanSupplier;
import org.bgbench.model.GraphSpec;
import org.bgbench.model.generator.Relation;
import org.bgbench.model.generator.SocialGraph;
import org.bgbench.model.state.GraphState;
import org.bgbench.store.MemberList;
import org.bgbench.store.ProfileView;
import org.bgbench.store.StoreImage;
import org.bgbench.store.StoreSession;
import org.bgbench.store.conformance.StateComparison;
import org.bgbench.store.conformance.StoreConformanceSuite;
import org.bgbench.store.relational.PhysicalDesign;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The materialized-view design beyond the conformance suite, against one embedded PostgreSQL with a database per
 * test: stale VP counts with an interval refresh, fresh ones under concurrent synchronous writers, refresh failures,
 * images, and switching designs over one loaded database.
 */
@Tag("server")
class PostgresMatviewTest {
    private static final GraphSpec SPEC = GraphSpec.builder()
            .members(120)
            .friendsPerMember(10)
            .resourcesPerMember(4)
            .commentsPerResource(1)
            .confirmedFraction(0.6)
            .attributeLength(8)
            .commentLength(20)
            .fragments(2)
            .seed(9)
            .build();
    private static final SocialGraph GRAPH = new SocialGraph(SPEC);
    private static PostgresStore server;

    @BeforeAll
    static void start() {
        server = PostgresStore.open(PostgresConfig.embedded().pool(2).build());
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    /** A store on a new database of the embedded server. */
    private static PostgresStore open(String database, PostgresStore.Design design, Duration refresh) throws Exception {
        try (Connection c = DriverManager.getConnection(server.url(), "postgres", "");
                Statement st = c.createStatement()) {
            st.execute("DROP DATABASE IF EXISTS " + database);
            st.execute("CREATE DATABASE " + database);
        }
        return reopen(database, design, refresh);
    }

    private static PostgresStore reopen(String database, PostgresStore.Design design, Duration refresh) {
        return reopen(database, 1, design, refresh);
    }

    private static PostgresStore reopen(String database, int rows, PostgresStore.Design design, Duration refresh) {
        String url = "jdbc:postgresql://localhost:" + server.embeddedServer().port() + "/" + database;
        return PostgresStore.open(PostgresConfig.at(url)
                .user("postgres")
                .pool(8)
                .friendshipRows(rows)
                .design(design)
                .refresh(refresh)
                .build());
    }

    private static void sql(PostgresStore store, String statement) throws Exception {
        try (Connection c = DriverManager.getConnection(store.url(), "postgres", "");
                Statement st = c.createStatement()) {
            st.execute(statement);
        }
    }

    private static ProfileView ownProfile(StoreSession s, int index) {
        ProfileView p = new ProfileView(SPEC.attributeCount());
        int id = GRAPH.memberId(index);
        s.viewProfile(id, id, p);
        return p;
    }

    /** Waits up to {@code limit} for {@code condition}; the time it took. */
    private static Duration await(Duration limit, BooleanSupplier condition) throws InterruptedException {
        long start = System.nanoTime();
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime() - start).as("waited for the condition").isLessThan(limit.toNanos());
            Thread.sleep(5);
        }
        return Duration.ofNanos(System.nanoTime() - start);
    }

    /** A member with a pending invitation, and that inviter: {index, inviter}. */
    private static int[] memberWithInviter(GraphState state) {
        for (int i = 0; i < GRAPH.members(); i++) {
            int inviter = state.pickInviter(i, 0);
            if (inviter >= 0) {
                return new int[] {i, inviter};
            }
        }
        throw new AssertionError("the test graph has no pending invitation");
    }

    @Test
    void anIntervalRefreshShowsTheOldCountsUntilTheNextRefresh() throws Exception {
        Duration interval = Duration.ofSeconds(1);
        try (PostgresStore store = open("mv_interval", PostgresStore.Design.MATVIEW, interval);
                StoreSession s = openLoaded(store)) {
            GraphState state = new GraphState(GRAPH);
            int[] pair = memberWithInviter(state);
            int a = pair[0];
            int friends = state.friendCount(a);
            int pending = state.pendingCount(a);
            CountsView view = store.countsView();
            long before = view.refreshes();
            // Right after a background refresh the next one is about an interval away.
            await(Duration.ofSeconds(5), () -> view.refreshes() > before);
            long refreshed = view.refreshes();

            s.acceptFriendRequest(GRAPH.memberId(a), GRAPH.memberId(pair[1]));
            long written = System.nanoTime();
            ProfileView p = ownProfile(s, a);
            assertThat(p.friendCount)
                    .as("VP right after AFR: the view is not refreshed by writes")
                    .isEqualTo(friends);
            assertThat(p.pendingCount).isEqualTo(pending);
            MemberList list = new MemberList(SPEC.attributeCount());
            s.listFriends(GRAPH.memberId(a), GRAPH.memberId(a), list);
            assertThat(list.size())
                    .as("LF reads the table, which has the new friend")
                    .isEqualTo(friends + 1);

            await(interval.plusSeconds(2), () -> ownProfile(s, a).friendCount == friends + 1);
            Duration stale = Duration.ofNanos(System.nanoTime() - written);
            assertThat(view.refreshes())
                    .as("a background refresh brought the new count")
                    .isGreaterThan(refreshed);
            assertThat(ownProfile(s, a).pendingCount).isEqualTo(pending - 1);
            assertThat(stale)
                    .as("stale for about the rest of the interval")
                    .isGreaterThan(Duration.ofMillis(500))
                    .isLessThan(interval.plusSeconds(2));
            assertThat(view.failures()).isZero();
        }
    }

    private static StoreSession openLoaded(PostgresStore store) {
        StoreConformanceSuite.load(store, GRAPH, 2);
        return store.openSession();
    }

    @Test
    void aFailingRefreshIsLoggedOnceAndRetriedUntilItWorks() throws Exception {
        try (PostgresStore store = open("mv_failing", PostgresStore.Design.MATVIEW, Duration.ofMillis(200));
                StoreSession s = openLoaded(store)) {
            CountsView view = store.countsView();
            sql(store, "ALTER MATERIALIZED VIEW bg_profile_counts RENAME TO bg_profile_counts_away");
            await(Duration.ofSeconds(5), () -> view.failures() >= 3);
            assertThat(view.warnings())
                    .as("one warning for consecutive failures")
                    .isEqualTo(1);
            sql(store, "ALTER MATERIALIZED VIEW bg_profile_counts_away RENAME TO bg_profile_counts");

            GraphState state = new GraphState(GRAPH);
            int[] pair = memberWithInviter(state);
            // Read before the write: a refresh may complete between the write and any later read of the count.
            long refreshes = view.refreshes();
            s.acceptFriendRequest(GRAPH.memberId(pair[0]), GRAPH.memberId(pair[1]));
            await(Duration.ofSeconds(3), () -> ownProfile(s, pair[0]).friendCount == state.friendCount(pair[0]) + 1);
            // The refresher works again: it completes refreshes after the outage.
            await(Duration.ofSeconds(3), () -> view.refreshes() > refreshes);
            assertThat(view.warnings()).isEqualTo(1);
        }
    }

    @Test
    void synchronousRefreshShowsEveryWriteToReadsAfterItUnderConcurrentWriters() throws Exception {
        int threads = 4;
        try (PostgresStore store = open("mv_sync", PostgresStore.Design.MATVIEW, null)) {
            StoreConformanceSuite.load(store, GRAPH, 2);
            GraphState state = new GraphState(GRAPH);
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            List<Future<Integer>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                // Members i ≡ t (mod threads) belong to thread t alone, so its expected counts are its own business.
                List<int[]> pairs = new ArrayList<>();
                boolean[] used = new boolean[GRAPH.members()];
                for (int a = t; a < GRAPH.members(); a += threads) {
                    for (int b = t; b < GRAPH.members() && !used[a]; b += threads) {
                        if (a != b && !used[b] && state.relation(a, b) == Relation.NONE) {
                            pairs.add(new int[] {a, b});
                            used[a] = true;
                            used[b] = true;
                        }
                    }
                }
                assertThat(pairs).hasSizeGreaterThan(3);
                done.add(pool.submit(() -> {
                    int checked = 0;
                    try (StoreSession s = store.openSession()) {
                        for (int k = 0; k < 25; k++) {
                            int[] q = pairs.get(k % pairs.size());
                            int pending = state.pendingCount(q[1]);
                            s.inviteFriend(GRAPH.memberId(q[0]), GRAPH.memberId(q[1]));
                            assertThat(ownProfile(s, q[1]).pendingCount)
                                    .as("after IF %d→%d", q[0], q[1])
                                    .isEqualTo(pending + 1);
                            s.rejectFriendRequest(GRAPH.memberId(q[1]), GRAPH.memberId(q[0]));
                            assertThat(ownProfile(s, q[1]).pendingCount)
                                    .as("after RFR")
                                    .isEqualTo(pending);
                            checked += 2;
                        }
                    }
                    return checked;
                }));
            }
            int checked = 0;
            for (Future<Integer> f : done) {
                checked += f.get();
            }
            pool.shutdown();
            assertThat(checked).isEqualTo(threads * 50);
            assertThat(StateComparison.differences(store, state, 10)).isEmpty();
        }
    }

    @Test
    void twoRowsPerFriendshipAcceptAndRefreshInOneTransaction() throws Exception {
        // Odd φ and member ids from 0, like PostgresTwoRowsConformanceTest.
        SocialGraph graph = new SocialGraph(GraphSpec.builder()
                .members(200)
                .friendsPerMember(9)
                .resourcesPerMember(5)
                .commentsPerResource(1)
                .confirmedFraction(0.7)
                .attributeLength(8)
                .commentLength(20)
                .fragments(2)
                .seed(7)
                .build());
        open("mv_tworows", PostgresStore.Design.BASIC, null).close();
        try (PostgresStore store = reopen("mv_tworows", 2, PostgresStore.Design.MATVIEW, null)) {
            StoreConformanceSuite.load(store, graph, 2);
            GraphState state = new GraphState(graph);
            ProfileView p = new ProfileView(graph.attributeCount());
            int accepted = 0;
            try (StoreSession s = store.openSession()) {
                for (int a = 0; a < graph.members() && accepted < 12; a++) {
                    int inviter = state.pickInviter(a, 0);
                    if (inviter < 0) {
                        continue;
                    }
                    int aId = graph.memberId(a);
                    int bId = graph.memberId(inviter);
                    s.acceptFriendRequest(aId, bId);
                    state.accept(a, inviter);
                    accepted++;
                    p.clear();
                    s.viewProfile(aId, aId, p);
                    assertThat(p.friendCount).isEqualTo(state.friendCount(a));
                    assertThat(p.pendingCount).isEqualTo(state.pendingCount(a));
                    p.clear();
                    s.viewProfile(aId, bId, p);
                    assertThat(p.friendCount)
                            .as("the inviter's count, from the mirror row")
                            .isEqualTo(state.friendCount(inviter));
                    if (accepted % 2 == 0) {
                        s.thawFriendship(bId, aId);
                        state.thaw(inviter, a);
                        p.clear();
                        s.viewProfile(bId, bId, p);
                        assertThat(p.friendCount).isEqualTo(state.friendCount(inviter));
                    }
                }
                int a = 0;
                int inviter = state.pickInviter(a, 0);
                if (inviter >= 0) {
                    // A repeated accept changes no row: the transaction, refresh included, is rolled back.
                    s.acceptFriendRequest(graph.memberId(a), graph.memberId(inviter));
                    state.accept(a, inviter);
                    assertThatThrownBy(() -> s.acceptFriendRequest(graph.memberId(a), graph.memberId(inviter)))
                            .hasMessageContaining("AFR changed 0 rows");
                }
            }
            assertThat(accepted).isEqualTo(12);
            assertThat(StateComparison.differences(store, state, 10)).isEmpty();
        }
    }

    @Test
    void theViewCountsTwoFriendshipTables() throws Exception {
        open("mv_twotables", PostgresStore.Design.BASIC, null).close();
        String url = "jdbc:postgresql://localhost:" + server.embeddedServer().port() + "/mv_twotables";
        try (PostgresStore store = PostgresStore.open(PostgresConfig.at(url)
                .user("postgres")
                .pool(8)
                .design(PostgresStore.Design.MATVIEW)
                .physical(new PhysicalDesign(2, false, false, null))
                .build())) {
            StoreConformanceSuite.load(store, GRAPH, 2);
            GraphState state = new GraphState(GRAPH);
            try (StoreSession s = store.openSession()) {
                int[] pair = memberWithInviter(state);
                int a = pair[0];
                int inviter = pair[1];
                assertThat(ownProfile(s, a).pendingCount)
                        .isEqualTo(state.pendingCount(a))
                        .isPositive();
                assertThat(ownProfile(s, a).friendCount).isEqualTo(state.friendCount(a));
                // AFR moves the invitation from pending to friends; the synchronous refresh shows both counts.
                s.acceptFriendRequest(GRAPH.memberId(a), GRAPH.memberId(inviter));
                state.accept(a, inviter);
                assertThat(ownProfile(s, a).pendingCount).isEqualTo(state.pendingCount(a));
                assertThat(ownProfile(s, a).friendCount).isEqualTo(state.friendCount(a));
                assertThat(ownProfile(s, inviter).friendCount).isEqualTo(state.friendCount(inviter));
                s.thawFriendship(GRAPH.memberId(inviter), GRAPH.memberId(a));
                state.thaw(inviter, a);
                assertThat(ownProfile(s, a).friendCount).isEqualTo(state.friendCount(a));
            }
            assertThat(StateComparison.differences(store, state, 10)).isEmpty();
        }
    }

    @Test
    void anImageRestoreRefreshesTheView() throws Exception {
        try (PostgresStore store = open("mv_image", PostgresStore.Design.MATVIEW, Duration.ofSeconds(1))) {
            StoreConformanceSuite.load(store, GRAPH, 2);
            CountsView view = store.countsView();
            long before = view.refreshes();
            await(Duration.ofSeconds(5), () -> view.refreshes() > before);
            StoreImage image = store.image().orElseThrow();
            image.save();
            assertThat(image.exists())
                    .as("saved while the refresher was connected")
                    .isTrue();

            GraphState state = new GraphState(GRAPH);
            int[] pair = memberWithInviter(state);
            int a = pair[0];
            CountsView.Paused paused = store.pauseRefresher();
            try {
                try (StoreSession s = store.openSession()) {
                    s.acceptFriendRequest(GRAPH.memberId(a), GRAPH.memberId(pair[1]));
                    assertThat(ownProfile(s, a).friendCount).isEqualTo(state.friendCount(a));
                }
                // The image now holds the new friendship and a view without it.
                image.save();
            } finally {
                paused.close();
            }
            state.accept(a, pair[1]);
            try (StoreSession s = store.openSession()) {
                await(Duration.ofSeconds(3), () -> ownProfile(s, a).friendCount == state.friendCount(a));
                s.thawFriendship(GRAPH.memberId(a), GRAPH.memberId(pair[1]));
            }
            image.restore();
            try (StoreSession s = store.openSession()) {
                assertThat(ownProfile(s, a).friendCount)
                        .as("the image's stale view was refreshed on restore")
                        .isEqualTo(state.friendCount(a));
            }
            assertThat(StateComparison.differences(store, state, 10)).isEmpty();
            assertThat(store.counts().friendships()).isEqualTo(GRAPH.totalFriendships() + 1);
        }
    }

    @Test
    void theDesignsCanTakeTurnsOnOneLoadedDatabase() throws Exception {
        GraphState state = new GraphState(GRAPH);
        int[] pair = memberWithInviter(state);
        int a = pair[0];
        try (PostgresStore basic = open("mv_switch", PostgresStore.Design.BASIC, null)) {
            StoreConformanceSuite.load(basic, GRAPH, 2);
        }
        try (PostgresStore matview = reopen("mv_switch", PostgresStore.Design.MATVIEW, null)) {
            assertThat(matview.loadedGraph())
                    .as("the view is derived: a basic load serves")
                    .contains(SPEC.fingerprint());
            assertThat(StateComparison.differences(matview, state, 10))
                    .as("its first session built the view")
                    .isEmpty();
        }
        try (PostgresStore basic = reopen("mv_switch", PostgresStore.Design.BASIC, null);
                StoreSession s = basic.openSession()) {
            // Writes under the basic design leave the view stale.
            s.acceptFriendRequest(GRAPH.memberId(a), GRAPH.memberId(pair[1]));
            state.accept(a, pair[1]);
        }
        try (PostgresStore matview = reopen("mv_switch", PostgresStore.Design.MATVIEW, Duration.ofHours(1))) {
            assertThat(StateComparison.differences(matview, state, 10))
                    .as("refreshed before its first session")
                    .isEmpty();
        }
        try (PostgresStore basic = reopen("mv_switch", PostgresStore.Design.BASIC, null)) {
            StoreConformanceSuite.load(basic, GRAPH, 2);
            assertThat(StateComparison.differences(basic, new GraphState(GRAPH), 10))
                    .as("a basic load replaces a database that has the view")
                    .isEmpty();
            basic.dropSchema();
            assertThat(basic.loadedGraph()).isEmpty();
        }
    }
}
