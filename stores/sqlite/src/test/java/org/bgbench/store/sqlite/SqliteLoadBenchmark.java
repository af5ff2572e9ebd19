package org.bgbench.store.sqlite;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.bgbench.model.GraphSpec;
import org.bgbench.model.generator.SocialGraph;
import org.bgbench.store.StoreCounts;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

/**
 * Times the load of the dissertation's standard graph (M=10,000, φ=ρ=100, no images) into a SQLite file with 4
 * loader threads, then the save and restore of its database image. Prints figures only; run with
 * {@code -Dbg.loadbench=true -Dtest=SqliteLoadBenchmark}.
 */
@EnabledIfSystemProperty(named = "bg.loadbench", matches = "true")
class SqliteLoadBenchmark {
    @TempDir
    Path dir;

    @Test
    void loadStandardGraph() {
        SocialGraph graph = new SocialGraph(GraphSpec.defaults());
        SqliteStore store = new SqliteStore(dir.resolve("bg.sqlite"), 30_000, 64, 1);
        for (int round = 0; round < 2; round++) {
            long t0 = System.nanoTime();
            store.createSchema(graph.spec());
            long t1 = System.nanoTime();
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
            long t2 = System.nanoTime();
            store.finishLoad(graph);
            long t3 = System.nanoTime();
            StoreCounts c = store.counts();
            long rows = c.members() + c.friendships() + c.pending() + c.resources() + c.comments();
            double total = (t3 - t0) / 1e9;
            System.out.printf(
                    "sqlite round %d: schema %.2f s, load %.2f s, finish %.2f s, total %.2f s, %d rows,"
                            + " %.0f rows/s (%s)%n",
                    round, (t1 - t0) / 1e9, (t2 - t1) / 1e9, (t3 - t2) / 1e9, total, rows, rows / total, c);
        }
        var image = store.image().orElseThrow();
        long t0 = System.nanoTime();
        image.save();
        long t1 = System.nanoTime();
        boolean exists = image.exists();
        long t2 = System.nanoTime();
        image.restore();
        long t3 = System.nanoTime();
        image.restore();
        long t4 = System.nanoTime();
        System.out.printf(
                "sqlite image: save %.2f s, exists %b in %.3f s, restore %.2f s, again %.2f s"
                        + " (database %d MB, image %d MB)%n",
                (t1 - t0) / 1e9,
                exists,
                (t2 - t1) / 1e9,
                (t3 - t2) / 1e9,
                (t4 - t3) / 1e9,
                size(store.file()),
                size(store.imageFile()));
        store.close();
    }

    private static long size(Path file) {
        try {
            return Files.size(file) >> 20;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
