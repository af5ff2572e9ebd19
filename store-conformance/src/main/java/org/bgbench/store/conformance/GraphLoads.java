package org.bgbench.store.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.assertj.core.data.Offset;
import org.bgbench.model.generator.SocialGraph;
import org.bgbench.store.DataStore;
import org.bgbench.store.GraphLoader;

/** Loads a graph into a store as {@code bg load} does, checking what a load must report on the way. */
public final class GraphLoads {
    private GraphLoads() {}

    /** Loads {@code graph} with {@code threads} loaders over disjoint member ranges, as {@code bg load} does. */
    public static void load(DataStore store, SocialGraph graph, int threads) {
        store.createSchema(graph.spec());
        assertThat(store.loadedGraph())
                .as("no graph is recorded before finishLoad")
                .isEmpty();
        int m = graph.members();
        List<Thread> loaders = new ArrayList<>();
        List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
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
        List<Double> finished = Collections.synchronizedList(new ArrayList<>());
        store.finishLoad(graph, (fraction, step) -> finished.add(fraction));
        assertThat(rows.get()).as("loaders report progress").isPositive();
        if (!finished.isEmpty()) {
            // A store that tells how far its indexes got ends at all of it, never going back.
            assertThat(finished).as("shares done while finishing").isSorted().allMatch(f -> f >= 0 && f <= 1);
            assertThat(finished.get(finished.size() - 1))
                    .as("the last share done")
                    .isCloseTo(1.0, Offset.offset(1e-9));
        }
    }
}
