package org.bgbench.loader;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongConsumer;
import org.bgbench.model.InvalidParameterException;
import org.bgbench.model.generator.SocialGraph;
import org.bgbench.store.DataStore;
import org.bgbench.store.ErrorText;
import org.bgbench.store.GraphLoader;
import org.bgbench.store.StoreCounts;

/**
 * Loads a graph with many threads through the store's bulk path, then checks it (dissertation 5.1). Threads take small member
 * ranges from a shared cursor, so a slow range does not leave the other threads idle. The first failure stops the
 * others and is reported with the range it hit; the store then holds no fingerprint, so it is never mistaken for a
 * loaded graph. Pages (dissertation 5.1) have no member index: a store loads a fragment's pages with the range that
 * holds the fragment's first member, so chunks that together cover every member load every page exactly once.
 */
public final class GraphLoad {
    private final DataStore store;
    private final SocialGraph graph;
    private final int threads;

    public GraphLoad(DataStore store, SocialGraph graph, int threads) {
        if (threads < 1) {
            throw new InvalidParameterException("numloadthreads", "must be at least 1, got " + threads);
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
        return run(progress, null);
    }

    /**
     * {@link #run(LongConsumer)}, and while the store builds indexes {@code finishing} hears about once a second how
     * far it got (may be null).
     */
    public LoadReport run(LongConsumer progress, FinishListener finishing) {
        store.createSchema(graph.spec());
        long start = System.nanoTime();
        long rows = loadRanges(new int[][] {{0, graph.members()}}, progress);
        return finish(rows, (System.nanoTime() - start) / 1e9, finishing);
    }

    /** Hears how far the end of a load (indexes, statistics) got, about once a second, from a separate thread. */
    @FunctionalInterface
    public interface FinishListener {
        /**
         * @param seconds  since the end of the load began
         * @param fraction the share done by the store's estimate, NaN while it has told nothing
         * @param step     the last step the store finished, null while none has
         */
        void tick(double seconds, double fraction, String step);
    }

    /**
     * Loads the members in {@code ranges} ({from, to} member indexes, each range whole fragments or any part) into an
     * existing schema, without finishing: how a worker loads its share of the graph (dissertation 4.3). Returns the rows.
     */
    public long loadRanges(int[][] ranges, LongConsumer progress) {
        long total = 0;
        for (int[] r : ranges) {
            total += r[1] - r[0];
        }
        int chunk = (int) Math.max(1, Math.min(500, total / (threads * 8L)));
        // Chunks of every range, handed out in order by one cursor.
        List<int[]> chunks = new ArrayList<>();
        for (int[] r : ranges) {
            for (int from = r[0]; from < r[1]; from += chunk) {
                chunks.add(new int[] {from, Math.min(r[1], from + chunk)});
            }
        }
        AtomicInteger cursor = new AtomicInteger();
        LongAdder rows = new LongAdder();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        AtomicReference<String> failedRange = new AtomicReference<>();
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            workers.add(Thread.ofPlatform().name("bg-load-" + t).start(() -> {
                try (GraphLoader loader = store.newLoader(graph)) {
                    while (failure.get() == null) {
                        int c = cursor.getAndIncrement();
                        if (c >= chunks.size()) {
                            break;
                        }
                        int from = chunks.get(c)[0];
                        int to = chunks.get(c)[1];
                        try {
                            loader.load(from, to, rows::add);
                        } catch (RuntimeException e) {
                            failedRange.compareAndSet(
                                    null, "members " + graph.memberId(from) + ".." + graph.memberId(to - 1));
                            throw e;
                        }
                    }
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            }));
        }
        Thread reporter = progress == null
                ? null
                : Thread.ofPlatform().daemon().name("bg-load-progress").start(() -> {
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
        return rows.sum();
    }

    /** Ends a load: indexes and statistics, then the sanity check (drops the schema when it fails). */
    public LoadReport finish(long rows, double loadSeconds) {
        return finish(rows, loadSeconds, null);
    }

    /** {@link #finish(long, double)}, telling {@code finishing} (may be null) how far the store got each second. */
    public LoadReport finish(long rows, double loadSeconds, FinishListener finishing) {
        long finishStart = System.nanoTime();
        AtomicReference<Object[]> last = new AtomicReference<>(new Object[] {Double.NaN, null});
        Thread reporter = finishing == null
                ? null
                : Thread.ofPlatform().daemon().name("bg-finish-progress").start(() -> {
                    try {
                        while (!Thread.currentThread().isInterrupted()) {
                            Thread.sleep(1000);
                            Object[] l = last.get();
                            finishing.tick((System.nanoTime() - finishStart) / 1e9, (Double) l[0], (String) l[1]);
                        }
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                });
        try {
            store.finishLoad(graph, (fraction, step) -> last.set(new Object[] {fraction, step}));
        } finally {
            if (reporter != null) {
                reporter.interrupt();
            }
        }
        double finishSeconds = (System.nanoTime() - finishStart) / 1e9;
        StoreCounts counts = store.counts();
        List<String> problems = SanityCheck.problems(store, graph, counts, 200);
        if (!problems.isEmpty()) {
            store.dropSchema();
            throw new LoadException(
                    "sanity check failed, the store does not hold the generated graph: " + String.join("; ", problems));
        }
        return new LoadReport(rows, loadSeconds, finishSeconds, threads, counts);
    }

    static String message(Throwable t) {
        return ErrorText.of(t);
    }
}
