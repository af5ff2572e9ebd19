package org.bgbench.store.postgres;

import org.bgbench.model.GraphSpec;
import org.bgbench.model.generator.SocialGraph;
import org.bgbench.store.StoreCounts;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Times the load of the dissertation's standard graph (M=10,000, φ=ρ=100, no images) into an embedded PostgreSQL
 * with 4 loader threads. Prints figures only; run with {@code -Dbg.loadbench=true -Dtest=PostgresLoadBenchmark}.
 */
@EnabledIfSystemProperty(named = "bg.loadbench", matches = "true")
class PostgresLoadBenchmark {
    @Test
    void loadStandardGraph() {
        SocialGraph graph = new SocialGraph(GraphSpec.defaults());
        try (PostgresStore store = PostgresStore.open(PostgresConfig.embedded().build())) {
            for (int round = 0; round < 2; round++) {
                long t0 = System.nanoTime();
                store.createSchema(graph.spec());
                long t1 = System.nanoTime();
                loadOnly(store, graph);
                long t2 = System.nanoTime();
                store.finishLoad(graph);
                long t3 = System.nanoTime();
                StoreCounts c = store.counts();
                long rows = c.members() + c.friendships() + c.pending() + c.resources() + c.comments();
                double total = (t3 - t0) / 1e9;
                System.out.printf(
                        "postgres round %d: schema %.2f s, load %.2f s, finish %.2f s, total %.2f s,"
                                + " %d rows, %.0f rows/s (%s)%n",
                        round, (t1 - t0) / 1e9, (t2 - t1) / 1e9, (t3 - t2) / 1e9, total, rows, rows / total, c);
            }
            var image = store.image().orElseThrow();
            long t0 = System.nanoTime();
            image.save();
            long t1 = System.nanoTime();
            image.restore();
            long t2 = System.nanoTime();
            System.out.printf(
                    "postgres image: save %.2f s, restore %.2f s, exists %b%n",
                    (t1 - t0) / 1e9, (t2 - t1) / 1e9, image.exists());
        }
    }

    static void loadOnly(PostgresStore store, SocialGraph graph) {
        int threads = 4;
        Thread[] ts = new Thread[threads];
        int m = graph.members();
        for (int t = 0; t < threads; t++) {
            int from = m * t / threads;
            int to = m * (t + 1) / threads;
            ts[t] = Thread.ofPlatform().start(() -> {
                try (var loader = store.newLoader(graph)) {
                    loader.load(from, to, n -> {});
                }
            });
        }
        for (Thread t : ts) {
            try {
                t.join();
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
        }
    }
}
