package org.bgbench.loader;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongConsumer;
import org.bgbench.model.generator.SocialGraph;
import org.bgbench.store.DataStore;
import org.bgbench.store.GraphLoader;
import org.bgbench.store.StoreCounts;

/**
 * Loads a graph with many threads through the store's bulk path, then checks it [SPEC §3]. Threads take small member
 * ranges from a shared cursor, so a slow range does not leave the other threads idle. The first failure stops the
 * others and is reported with the range it hit; the store then holds no fingerprint, so it is never mistaken for a
 * loaded graph.
 */
public final class GraphLoad {
    private final DataStore store;
    private final SocialGraph graph;
    private final int threads;

    public GraphLoad(DataStore store, SocialGraph graph, int threads) {
        if (threads < 1) {
            throw new org.bgbench.model.InvalidParameterException("numloadthreads", "must be at least 1, got " + threads);
        }
        this.store = store;
        this.graph = graph;
        this.threads = threads;
    }

    /**
     * Creates the schema, loads, finishes and checks. {@code progress} receives the running row count about once a
     * second from a separate thread (may be null).
     */
    public LoadReport run(LongConsumer progress) {
        store.createSchema(graph.spec());
        int members = graph.members();
        int chunk = Math.max(1, Math.min(500, members / (threads * 8)));
        AtomicInteger cursor = new AtomicInteger();
        LongAdder rows = new LongAdder();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        AtomicReference<String> failedRange = new AtomicReference<>();
        long start = System.nanoTime();
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            workers.add(Thread.ofPlatform().name("bg-load-" + t).start(() -> {
                try (GraphLoader loader = store.newLoader(graph)) {
                    while (failure.get() == null) {
                        int from = cursor.getAndAdd(chunk);
                        if (from >= members) {
                            break;
                        }
                        int to = Math.min(members, from + chunk);
                        try {
                            loader.load(from, to, rows::add);
                        } catch (RuntimeException e) {
                            failedRange.compareAndSet(null, "members " + graph.memberId(from) + ".." + graph.memberId(to - 1));
                            throw e;
                        }
                    }
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            }));
        }
        Thread reporter = progress == null ? null : Thread.ofPlatform().daemon().name("bg-load-progress").start(() -> {
            try {
                while (!Thread.currentThread().isInterrupted()) {
                    Thread.sleep(1000);
                    progress.accept(rows.sum());
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        try {
            for (Thread w : workers) {
                w.join();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LoadException("load interrupted");
        } finally {
            if (reporter != null) {
                reporter.interrupt();
            }
        }
        Throwable f = failure.get();
        if (f != null) {
            String where = failedRange.get() == null ? "" : " while loading " + failedRange.get();
            throw new LoadException("the store rejected the load" + where + ": " + message(f), f);
        }
        double loadSeconds = (System.nanoTime() - start) / 1e9;
        long finishStart = System.nanoTime();
        store.finishLoad(graph);
        double finishSeconds = (System.nanoTime() - finishStart) / 1e9;
        StoreCounts counts = store.counts();
        List<String> problems = SanityCheck.problems(store, graph, counts, 200);
        if (!problems.isEmpty()) {
            store.dropSchema();
            throw new LoadException("sanity check failed, the store does not hold the generated graph: "
                    + String.join("; ", problems));
        }
        return new LoadReport(rows.sum(), loadSeconds, finishSeconds, threads, counts);
    }

    static String message(Throwable t) {
        String m = t.getMessage();
        return m == null ? t.getClass().getSimpleName() : m;
    }
}
