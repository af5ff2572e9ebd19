package org.bgbench.store.conformance;

import java.util.List;
import org.junit.jupiter.api.function.ThrowingConsumer;

/**
 * Every check of the conformance suite by name, in the order the suite declares them: what a {@link
 * ConformanceMatrix} runs for each variant and {@link StoreConformanceSuite}'s @Test methods call one by one.
 */
final class ConformanceChecks {
    /** One check: its name (the suite's @Test method) and what it does on a freshly loaded fixture. */
    record Check(String name, ThrowingConsumer<ConformanceFixture> body) {}

    private static final List<Check> ALL = List.of(
            new Check("recordsTheLoadedGraph", f -> new MarkChecks(f).recordsTheLoadedGraph()),
            new Check("aLoadSetsTheLoadedStateMark", f -> new MarkChecks(f).aLoadSetsTheLoadedStateMark()),
            new Check(
                    "theStateMarkRoundTripsAndGoesWithTheSchema",
                    f -> new MarkChecks(f).theStateMarkRoundTripsAndGoesWithTheSchema()),
            new Check(
                    "theStateMarkSurvivesClosingAndReopeningTheStore",
                    f -> new MarkChecks(f).theStateMarkSurvivesClosingAndReopeningTheStore()),
            new Check(
                    "ofManyReplacingTheSameMarkAtTheSameInstantExactlyOneSucceeds",
                    f -> new MarkChecks(f).ofManyReplacingTheSameMarkAtTheSameInstantExactlyOneSucceeds()),
            new Check(
                    "anImageRestoreBringsBackTheMarkItWasSavedWith",
                    f -> new MarkChecks(f).anImageRestoreBringsBackTheMarkItWasSavedWith()),
            new Check("countsMatchTheGenerator", f -> new ReadChecks(f).countsMatchTheGenerator()),
            new Check(
                    "viewProfileShowsAttributesImageAndCounts",
                    f -> new ReadChecks(f).viewProfileShowsAttributesImageAndCounts()),
            new Check(
                    "listFriendsAndFriendRequestsShowMembersWithThumbnails",
                    f -> new ReadChecks(f).listFriendsAndFriendRequestsShowMembersWithThumbnails()),
            new Check(
                    "viewTopKResourcesShowsTheNewestResourcesOfTheWall",
                    f -> new ReadChecks(f).viewTopKResourcesShowsTheNewestResourcesOfTheWall()),
            new Check(
                    "commentsCanBeViewedPostedAndDeleted",
                    f -> new ReadChecks(f).commentsCanBeViewedPostedAndDeleted()),
            new Check(
                    "friendshipWritesChangeWhatReadsShow",
                    f -> new WriteChecks(f).friendshipWritesChangeWhatReadsShow()),
            new Check(
                    "longRandomSequenceOfValidActionsLeavesTheExpectedState",
                    f -> new WriteChecks(f).longRandomSequenceOfValidActionsLeavesTheExpectedState()),
            new Check(
                    "aFreshLoadHoldsExactlyTheGeneratedGraph",
                    f -> new ReadChecks(f).aFreshLoadHoldsExactlyTheGeneratedGraph()),
            new Check("repairDbUndoesEveryWriteExactly", f -> new RepairChecks(f).repairDbUndoesEveryWriteExactly()),
            new Check(
                    "repairDbReportsAStoreThatDoesNotHoldTheExpectedState",
                    f -> new RepairChecks(f).repairDbReportsAStoreThatDoesNotHoldTheExpectedState()),
            new Check(
                    "aFullRepairBringsBackTheGeneratedGraphWithoutBgsState",
                    f -> new RepairChecks(f).aFullRepairBringsBackTheGeneratedGraphWithoutBgsState()),
            new Check(
                    "theSampledCheckFindsAStoreThatLostAWrite",
                    f -> new RepairChecks(f).theSampledCheckFindsAStoreThatLostAWrite()),
            new Check(
                    "aDatabaseImageBringsBackTheLoadedGraph",
                    f -> new RepairChecks(f).aDatabaseImageBringsBackTheLoadedGraph()),
            new Check(
                    "manyThreadsAtOnceLeaveTheExpectedState",
                    f -> new WriteChecks(f).manyThreadsAtOnceLeaveTheExpectedState()),
            new Check(
                    "aFreshLoadHasEmptyFeedsAndTheGeneratedFollows",
                    f -> new FeedChecks(f).aFreshLoadHasEmptyFeedsAndTheGeneratedFollows()),
            new Check(
                    "viewNewsFeedShowsTheMostRecentSharesOfFriendsAndFollowedPages",
                    f -> new FeedChecks(f).viewNewsFeedShowsTheMostRecentSharesOfFriendsAndFollowedPages()),
            new Check("clearSharesEmptiesEveryFeed", f -> new FeedChecks(f).clearSharesEmptiesEveryFeed()),
            new Check("reusedViewsShowOnlyTheLatestCall", f -> new ReadChecks(f).reusedViewsShowOnlyTheLatestCall()));

    private ConformanceChecks() {}

    static List<Check> all() {
        return ALL;
    }
}
