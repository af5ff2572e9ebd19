package org.bgbench.store.conformance;

import org.bgbench.model.GraphSpec;
import org.bgbench.model.generator.SocialGraph;
import org.bgbench.store.DataStore;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The conformance suite every store must pass, as a class: a store module adds one subclass that opens its store, and
 * gets every check (a store with several variants can instead list them in one {@link ConformanceMatrix}). Each test
 * starts from a freshly loaded small graph with images, pending invitations and comments, so every action has something
 * to act on (loaded again unless the test before only read it and passed); outputs and effects are checked against the
 * generator and BG's expected state, including after long random sequences and under many threads at once. The checks
 * themselves live in {@link MarkChecks}, {@link ReadChecks}, {@link WriteChecks}, {@link RepairChecks} and {@link
 * FeedChecks}.
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

    /** The graph each test starts from: {@link ConformanceTarget#suiteGraph()} unless a store needs another. */
    protected GraphSpec spec() {
        return ConformanceTarget.suiteGraph();
    }

    protected DataStore store;
    protected SocialGraph graph;
    private ConformanceFixture fixture;

    /** {@code writes} sized for the suite's 120-member graph, scaled to this class's graph (see the fixture). */
    protected final int scaledToGraph(int writes) {
        return fixture.scaledToGraph(writes);
    }

    @BeforeAll
    void open() {
        store = openStore();
        graph = new SocialGraph(spec());
        fixture = new ConformanceFixture(store, graph, this::openAgain);
    }

    @AfterAll
    void close() {
        if (store != null) {
            store.close();
        }
    }

    @BeforeEach
    void loadFreshGraph() {
        fixture.loadFresh();
    }

    /** Loads {@code graph} with {@code threads} loaders over disjoint member ranges, as {@code bg load} does. */
    public static void load(DataStore store, SocialGraph graph, int threads) {
        GraphLoads.load(store, graph, threads);
    }

    @Test
    void recordsTheLoadedGraph() {
        new MarkChecks(fixture).recordsTheLoadedGraph();
    }

    @Test
    void aLoadSetsTheLoadedStateMark() {
        new MarkChecks(fixture).aLoadSetsTheLoadedStateMark();
    }

    @Test
    void theStateMarkRoundTripsAndGoesWithTheSchema() {
        new MarkChecks(fixture).theStateMarkRoundTripsAndGoesWithTheSchema();
    }

    @Test
    void theStateMarkSurvivesClosingAndReopeningTheStore() {
        new MarkChecks(fixture).theStateMarkSurvivesClosingAndReopeningTheStore();
    }

    @Test
    void ofManyReplacingTheSameMarkAtTheSameInstantExactlyOneSucceeds() throws Exception {
        new MarkChecks(fixture).ofManyReplacingTheSameMarkAtTheSameInstantExactlyOneSucceeds();
    }

    @Test
    void anImageRestoreBringsBackTheMarkItWasSavedWith() {
        new MarkChecks(fixture).anImageRestoreBringsBackTheMarkItWasSavedWith();
    }

    @Test
    void countsMatchTheGenerator() {
        new ReadChecks(fixture).countsMatchTheGenerator();
    }

    @Test
    void viewProfileShowsAttributesImageAndCounts() {
        new ReadChecks(fixture).viewProfileShowsAttributesImageAndCounts();
    }

    @Test
    void listFriendsAndFriendRequestsShowMembersWithThumbnails() {
        new ReadChecks(fixture).listFriendsAndFriendRequestsShowMembersWithThumbnails();
    }

    @Test
    void viewTopKResourcesShowsTheNewestResourcesOfTheWall() {
        new ReadChecks(fixture).viewTopKResourcesShowsTheNewestResourcesOfTheWall();
    }

    @Test
    void commentsCanBeViewedPostedAndDeleted() {
        new ReadChecks(fixture).commentsCanBeViewedPostedAndDeleted();
    }

    @Test
    void friendshipWritesChangeWhatReadsShow() {
        new WriteChecks(fixture).friendshipWritesChangeWhatReadsShow();
    }

    @Test
    void longRandomSequenceOfValidActionsLeavesTheExpectedState() {
        new WriteChecks(fixture).longRandomSequenceOfValidActionsLeavesTheExpectedState();
    }

    @Test
    void aFreshLoadHoldsExactlyTheGeneratedGraph() {
        new ReadChecks(fixture).aFreshLoadHoldsExactlyTheGeneratedGraph();
    }

    @Test
    void repairDbUndoesEveryWriteExactly() {
        new RepairChecks(fixture).repairDbUndoesEveryWriteExactly();
    }

    @Test
    void repairDbReportsAStoreThatDoesNotHoldTheExpectedState() {
        new RepairChecks(fixture).repairDbReportsAStoreThatDoesNotHoldTheExpectedState();
    }

    @Test
    void aFullRepairBringsBackTheGeneratedGraphWithoutBgsState() {
        new RepairChecks(fixture).aFullRepairBringsBackTheGeneratedGraphWithoutBgsState();
    }

    @Test
    void theSampledCheckFindsAStoreThatLostAWrite() {
        new RepairChecks(fixture).theSampledCheckFindsAStoreThatLostAWrite();
    }

    @Test
    void aDatabaseImageBringsBackTheLoadedGraph() {
        new RepairChecks(fixture).aDatabaseImageBringsBackTheLoadedGraph();
    }

    @Test
    void manyThreadsAtOnceLeaveTheExpectedState() throws Exception {
        new WriteChecks(fixture).manyThreadsAtOnceLeaveTheExpectedState();
    }

    @Test
    void aFreshLoadHasEmptyFeedsAndTheGeneratedFollows() {
        new FeedChecks(fixture).aFreshLoadHasEmptyFeedsAndTheGeneratedFollows();
    }

    @Test
    void viewNewsFeedShowsTheMostRecentSharesOfFriendsAndFollowedPages() {
        new FeedChecks(fixture).viewNewsFeedShowsTheMostRecentSharesOfFriendsAndFollowedPages();
    }

    @Test
    void clearSharesEmptiesEveryFeed() {
        new FeedChecks(fixture).clearSharesEmptiesEveryFeed();
    }

    @Test
    void reusedViewsShowOnlyTheLatestCall() {
        new ReadChecks(fixture).reusedViewsShowOnlyTheLatestCall();
    }
}
