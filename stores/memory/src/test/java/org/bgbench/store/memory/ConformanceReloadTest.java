package org.bgbench.store.memory;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.bgbench.model.generator.SocialGraph;
import org.bgbench.store.DataStore;
import org.bgbench.store.FinishProgress;
import org.bgbench.store.StoreCounts;
import org.bgbench.store.StoreSettings;
import org.bgbench.store.conformance.ConformanceMatrix;
import org.bgbench.store.conformance.ConformanceTarget;
import org.bgbench.store.conformance.ForwardingStore;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.opentest4j.TestAbortedException;

/**
 * The conformance suite loads the graph again before a check unless the check before only read the store and passed:
 * counted by the loads a store is asked to finish during each check of one variant.
 */
class ConformanceReloadTest {
    /** The checks that only read the store. */
    private static final Set<String> READ_ONLY = Set.of(
            "recordsTheLoadedGraph",
            "countsMatchTheGenerator",
            "viewProfileShowsAttributesImageAndCounts",
            "listFriendsAndFriendRequestsShowMembersWithThumbnails",
            "viewTopKResourcesShowsTheNewestResourcesOfTheWall",
            "aFreshLoadHoldsExactlyTheGeneratedGraph",
            "reusedViewsShowOnlyTheLatestCall");

    @Test
    void aCheckThatOnlyReadIsFollowedByNoLoadEveryOtherByOne() throws Throwable {
        Map<String, Integer> loads = run(null);
        List<String> names = new ArrayList<>(loads.keySet());
        assertThat(names).contains("countsMatchTheGenerator", "friendshipWritesChangeWhatReadsShow");
        for (int i = 0; i < names.size(); i++) {
            String name = names.get(i);
            int expected = name.equals("closesTheStore") || (i > 0 && READ_ONLY.contains(names.get(i - 1))) ? 0 : 1;
            // The check itself loads the graph once more.
            if (name.equals("aLoadSetsTheLoadedStateMark")) {
                expected++;
            }
            assertThat(loads.get(name)).as("loads during %s", name).isEqualTo(expected);
        }
    }

    @Test
    void aReadOnlyCheckThatFailedIsFollowedByALoad() throws Throwable {
        Map<String, Integer> loads = run("countsMatchTheGenerator");
        assertThat(loads.get("viewProfileShowsAttributesImageAndCounts"))
                .as("loads after countsMatchTheGenerator failed")
                .isEqualTo(1);
    }

    /**
     * Runs every check of one memory-store variant, whose counts are wrong during the check named {@code failing}
     * (none when null) so that it fails, and returns the loads finished during each check, in order.
     */
    private static Map<String, Integer> run(String failing) throws Throwable {
        AtomicInteger finished = new AtomicInteger();
        AtomicBoolean wrongCounts = new AtomicBoolean();
        Map<String, String> settings = Map.of(MemoryStoreProvider.NAME_KEY, "reload-" + UUID.randomUUID());
        ConformanceTarget target = ConformanceTarget.of(
                        "counted",
                        () -> counted(
                                new MemoryStoreProvider().open(StoreSettings.of(settings)), finished, wrongCounts))
                .reopenable();
        DynamicContainer variant = (DynamicContainer)
                ConformanceMatrix.of(target).tests().findFirst().orElseThrow();
        Map<String, Integer> loads = new LinkedHashMap<>();
        try (var children = variant.getChildren()) {
            for (DynamicNode node : children.toList()) {
                DynamicTest test = (DynamicTest) node;
                int before = finished.get();
                boolean fails = test.getDisplayName().equals(failing);
                wrongCounts.set(fails);
                AssertionError failure = null;
                try {
                    test.getExecutable().execute();
                } catch (AssertionError e) {
                    failure = e;
                } catch (TestAbortedException e) {
                    // A check the memory store does not apply to (it keeps no database image) is skipped.
                } finally {
                    wrongCounts.set(false);
                }
                assertThat(failure == null ? "passed" : "failed: " + failure.getMessage())
                        .as(test.getDisplayName())
                        .startsWith(fails ? "failed" : "passed");
                loads.put(test.getDisplayName(), finished.get() - before);
            }
        }
        return loads;
    }

    private static DataStore counted(DataStore store, AtomicInteger finished, AtomicBoolean wrongCounts) {
        return new ForwardingStore(store) {
            @Override
            public void finishLoad(SocialGraph graph) {
                finished.incrementAndGet();
                super.finishLoad(graph);
            }

            @Override
            public void finishLoad(SocialGraph graph, FinishProgress progress) {
                finished.incrementAndGet();
                super.finishLoad(graph, progress);
            }

            @Override
            public StoreCounts counts() {
                StoreCounts c = super.counts();
                if (!wrongCounts.get()) {
                    return c;
                }
                return new StoreCounts(
                        new StoreCounts.Social(
                                c.social().members() + 1,
                                c.social().friendships(),
                                c.social().pending(),
                                c.social().resources(),
                                c.social().comments()),
                        c.feed());
            }
        };
    }
}
