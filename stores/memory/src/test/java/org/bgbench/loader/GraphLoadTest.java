package org.bgbench.loader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.bgbench.model.FeedSpec;
import org.bgbench.model.GraphSpec;
import org.bgbench.model.generator.SocialGraph;
import org.bgbench.store.DataStore;
import org.bgbench.store.GraphLoader;
import org.bgbench.store.LoadProgress;
import org.bgbench.store.StoreCounts;
import org.bgbench.store.StoreException;
import org.bgbench.store.StoreSettings;
import org.bgbench.store.conformance.ForwardingStore;
import org.bgbench.store.memory.MemoryStoreProvider;
import org.junit.jupiter.api.Test;

// Lives with the memory store because the loader cannot depend on a store (the conformance suite depends on it).
class GraphLoadTest {
    private final SocialGraph graph = new SocialGraph(GraphSpec.builder()
            .members(3000)
            .memberIdOffset(10)
            .friendsPerMember(20)
            .resourcesPerMember(5)
            .commentsPerResource(1)
            .confirmedFraction(0.9)
            .images(true)
            .thumbnailBytes(16)
            .profileImageBytes(32)
            .attributeCount(3)
            .attributeLength(5)
            .commentLength(10)
            .seed(8)
            .build());

    private DataStore memory(String name) {
        return new MemoryStoreProvider().open(StoreSettings.of(Map.of("memory.name", name)));
    }

    @Test
    void loadsWithManyThreadsAndPassesTheSanityCheck() {
        try (DataStore store = memory("loader-ok")) {
            LoadReport r = new GraphLoad(store, graph, 6).run(null);
            assertThat(r.counts().members()).isEqualTo(3000);
            assertThat(r.counts().friendships() + r.counts().pending()).isEqualTo(3000L * 20 / 2);
            assertThat(r.rows())
                    .as("each loader thread loads many chunks; the rows of earlier chunks are counted once")
                    .isEqualTo(rowsOf(r.counts()));
            assertThat(r.rowsPerSecond()).isPositive();
            assertThat(store.loadedGraph()).contains(graph.spec().fingerprint());
        }
    }

    @Test
    void theRowsOfAGraphWithPagesAreTheSanityCheckCounts() {
        SocialGraph withPages = new SocialGraph(GraphSpec.builder()
                .members(2000)
                .friendsPerMember(10)
                .resourcesPerMember(2)
                .commentsPerResource(1)
                .feed(new FeedSpec(40, 3, 0, 2))
                .seed(3)
                .build());
        try (DataStore store = memory("loader-pages")) {
            LoadReport r = new GraphLoad(store, withPages, 4).run(null);
            assertThat(r.counts().pages()).isPositive();
            assertThat(r.rows()).isEqualTo(rowsOf(r.counts()));
        }
    }

    /** Every row the sanity check counted: what the load wrote. */
    private static long rowsOf(StoreCounts c) {
        return c.members()
                + c.friendships()
                + c.pending()
                + c.resources()
                + c.comments()
                + c.pages()
                + c.follows()
                + c.pageResources();
    }

    @Test
    void aStoreThatRejectsTheLoadHalfwayIsReportedWithTheRange() {
        try (DataStore store = new FailingLoads(memory("loader-reject"), 3)) {
            assertThatThrownBy(() -> new GraphLoad(store, graph, 2).run(null))
                    .isInstanceOf(LoadException.class)
                    .hasMessageContaining("rejected the load while loading members")
                    .hasMessageContaining("disk full");
            assertThat(store.loadedGraph()).as("a failed load records no graph").isEmpty();
        }
    }

    @Test
    void wrongCountsFailTheSanityCheck() {
        try (DataStore store = new LyingCounts(memory("loader-lie"))) {
            assertThatThrownBy(() -> new GraphLoad(store, graph, 2).run(null))
                    .isInstanceOf(LoadException.class)
                    .hasMessageContaining("sanity check failed")
                    .hasMessageContaining("resources");
        }
    }

    @Test
    void zeroThreadsIsBadInput() {
        try (DataStore store = memory("loader-bad")) {
            assertThatThrownBy(() -> new GraphLoad(store, graph, 0)).hasMessageContaining("numloadthreads");
        }
    }

    /** Fails the load after some ranges, as a full disk would. */
    private static final class FailingLoads extends ForwardingStore {
        private final AtomicInteger left;

        FailingLoads(DataStore d, int okRanges) {
            super(d);
            left = new AtomicInteger(okRanges);
        }

        @Override
        public GraphLoader newLoader(SocialGraph graph) {
            GraphLoader real = delegate.newLoader(graph);
            return new GraphLoader() {
                @Override
                public void load(int from, int to, LoadProgress progress) {
                    if (left.decrementAndGet() < 0) {
                        throw new StoreException("could not write: disk full");
                    }
                    real.load(from, to, progress);
                }

                @Override
                public void close() {
                    real.close();
                }
            };
        }
    }

    /** Reports one resource too few. */
    private static final class LyingCounts extends ForwardingStore {
        LyingCounts(DataStore d) {
            super(d);
        }

        @Override
        public StoreCounts counts() {
            StoreCounts c = delegate.counts();
            return new StoreCounts(
                    new StoreCounts.Social(c.members(), c.friendships(), c.pending(), c.resources() - 1, c.comments()));
        }
    }
}
