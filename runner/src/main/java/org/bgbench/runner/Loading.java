package org.bgbench.runner;

import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalLong;
import org.bgbench.loader.GraphLoad;
import org.bgbench.loader.LoadException;
import org.bgbench.loader.LoadReport;
import org.bgbench.model.GraphSpec;
import org.bgbench.model.InvalidParameterException;
import org.bgbench.model.generator.SocialGraph;
import org.bgbench.runner.progress.ProgressOutput;
import org.bgbench.runner.progress.TerminalBar;
import org.bgbench.store.DataStore;
import org.bgbench.store.StoreProvider;

/** Loading a graph into a store with a progress line per second, and the report a user reads afterwards. */
public final class Loading {
    private Loading() {}

    /**
     * Loads unless the store holds this graph already (then returns null); refuses to overwrite another graph unless
     * {@code replace}. Progress goes to {@code err} every second.
     */
    public static LoadReport load(DataStore store, SocialGraph graph, int threads, boolean replace, PrintWriter err) {
        return load(store, graph, threads, replace, err, ASSUMED_ROWS_PER_S);
    }

    /**
     * {@link #load(DataStore, SocialGraph, int, boolean, PrintWriter)}, announcing a load of more than 10 minutes at
     * {@code rowsPerSecond} (the store's {@link org.bgbench.store.StoreProvider#loadRowsPerSecond()}) before it starts.
     */
    public static LoadReport load(
            DataStore store, SocialGraph graph, int threads, boolean replace, PrintWriter err, double rowsPerSecond) {
        Optional<String> existing = store.loadedGraph();
        String want = graph.spec().fingerprint();
        if (existing.isPresent() && !replace) {
            if (existing.get().equals(want)) {
                return null;
            }
            throw new LoadException("the store already holds a different graph (" + existing.get()
                    + "); pass --replace to drop it and load " + want);
        }
        long expectedRows = graph.members()
                + graph.totalFriendships()
                + graph.totalPendingInvitations()
                + graph.totalResources()
                + graph.totalInitialComments();
        double guess = expectedRows / rowsPerSecond;
        if (guess > 600) {
            err.printf(
                    Locale.ROOT,
                    "bg: warning: this graph has %,d rows; at %,.0f rows/s, a rate this store's loads "
                            + "reach on a small machine, a load takes about %s (the progress line below shows the real rate "
                            + "and the time left)%n",
                    expectedRows,
                    rowsPerSecond,
                    clock(guess));
        }
        long start = System.nanoTime();
        if (ProgressOutput.current() == ProgressOutput.BAR && !TerminalBar.drawing()) {
            return loadWithBar(store, graph, threads, err, expectedRows);
        }
        return new GraphLoad(store, graph, threads)
                .run(
                        rows -> {
                            double s = (System.nanoTime() - start) / 1e9;
                            double rate = rows / Math.max(1e-9, s);
                            err.printf(
                                    Locale.ROOT,
                                    "  %5.0fs  %,d rows (%.0f %%)  %,.0f rows/s  %s left%n",
                                    s,
                                    rows,
                                    100.0 * rows / Math.max(1, expectedRows),
                                    rate,
                                    rows == 0 ? "?" : clock(Math.max(0, expectedRows - rows) / rate));
                            err.flush();
                        },
                        (s, fraction, step) -> {
                            // Indexes and statistics: the store's share done (by the rows each step works on) gives the
                            // time left,
                            // once enough is done for the estimate to mean something.
                            boolean known = !Double.isNaN(fraction) && fraction >= 0.05;
                            err.printf(
                                    Locale.ROOT,
                                    "  %5.0fs  indexes and statistics%s%s%n",
                                    (System.nanoTime() - start) / 1e9,
                                    known
                                            ? String.format(
                                                    Locale.ROOT,
                                                    " %.0f %%, %s left",
                                                    100 * fraction,
                                                    clock(s * (1 - fraction) / fraction))
                                            : String.format(Locale.ROOT, " for %s", clock(s)),
                                    step == null ? "" : " (done: " + step + ")");
                            err.flush();
                        });
    }

    /**
     * The load on a terminal: a bar of the rows loaded of the graph's total, then one of the store's indexes and
     * statistics by the share it reports done.
     */
    private static LoadReport loadWithBar(
            DataStore store, SocialGraph graph, int threads, PrintWriter err, long expectedRows) {
        // [0] the rows' bar, [1] the indexes' once the store starts them; the finishing ticks come on another thread.
        TerminalBar[] bar = {TerminalBar.open(TerminalBar.Start.of("load", "rows", expectedRows), err), null};
        boolean[] done = {false};
        try {
            LoadReport report = new GraphLoad(store, graph, threads)
                    .run(rows -> bar[0].stepTo(rows), (s, fraction, step) -> {
                        synchronized (bar) {
                            if (done[0]) {
                                return;
                            }
                            if (bar[1] == null) {
                                bar[0].close();
                                bar[1] = TerminalBar.open(TerminalBar.Start.of("indexes", "%", 100), err);
                            }
                            if (!Double.isNaN(fraction)) {
                                bar[1].stepTo(Math.round(100 * fraction));
                            }
                        }
                    });
            synchronized (bar) {
                // the last tick may be up to a second old: the bars end at what the load did
                (bar[1] == null ? bar[0] : bar[1]).stepTo(bar[1] == null ? report.rows() : 100);
            }
            return report;
        } finally {
            synchronized (bar) {
                done[0] = true;
                bar[bar[1] == null ? 0 : 1].close();
            }
        }
    }

    /** A rate to warn with before a load starts when the store names none: the slowest stores'. */
    private static final double ASSUMED_ROWS_PER_S = 100_000;

    /**
     * Refuses a graph that cannot fit the heap of a store that keeps it in BG's process (the memory store), with the
     * estimate, before any load starts; warns when it would take most of the heap.
     */
    public static void checkFits(StoreProvider provider, SocialGraph graph, PrintWriter err) {
        OptionalLong need = provider.heapBytes(graph);
        if (need.isEmpty()) {
            return;
        }
        long max = Runtime.getRuntime().maxMemory();
        double gib = 1L << 30;
        if (need.getAsLong() > 0.9 * max) {
            throw new InvalidParameterException(
                    "usercount",
                    String.format(
                            Locale.ROOT,
                            "the %s store would need about %.1f GiB of BG's heap for this graph (M=%,d), BG may use %.1f GiB; "
                                    + "give BG more (BG_JAVA_OPTS=-Xmx%dg) or load a smaller graph",
                            provider.name(),
                            need.getAsLong() / gib,
                            graph.members(),
                            max / gib,
                            (long) Math.ceil(need.getAsLong() / 0.8 / gib)));
        }
        if (need.getAsLong() > 0.6 * max) {
            err.printf(
                    Locale.ROOT,
                    "bg: warning: the %s store needs about %.1f GiB of BG's %.1f GiB heap for this "
                            + "graph; the run may slow down in garbage collection%n",
                    provider.name(),
                    need.getAsLong() / gib,
                    max / gib);
        }
    }

    private static String clock(double seconds) {
        long s = Math.round(seconds);
        return s >= 3600
                ? String.format(Locale.ROOT, "%dh%02dm", s / 3600, s / 60 % 60)
                : s >= 60 ? String.format(Locale.ROOT, "%dm%02ds", s / 60, s % 60) : s + "s";
    }

    /** The lines {@code bg load} prints after a load. */
    public static String describe(String store, SocialGraph graph, LoadReport r) {
        GraphSpec s = graph.spec();
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(
                Locale.ROOT,
                "Loaded %s: M=%s φ=%d ρ=%d%s with %d threads%n",
                store,
                count(s.members()),
                s.friendsPerMember(),
                s.resourcesPerMember(),
                s.images() ? " images " + s.thumbnailBytes() + " B / " + s.profileImageBytes() + " B" : " no images",
                r.threads()));
        sb.append(String.format(
                Locale.ROOT,
                "  time  %s (bulk load %s + indexes %s)%n",
                seconds(r.totalSeconds()),
                seconds(r.loadSeconds()),
                seconds(r.finishSeconds())));
        sb.append(String.format(
                Locale.ROOT,
                "  rows  %s, %s rows/s%n",
                count(r.rows()),
                String.format(Locale.ROOT, "%,.0f", r.rowsPerSecond())));
        sb.append(String.format(
                Locale.ROOT,
                "  sanity check passed: %s members, %s friendships, %s pending, %s " + "resources, %s comments%n",
                count(r.counts().members()),
                count(r.counts().friendships()),
                count(r.counts().pending()),
                count(r.counts().resources()),
                count(r.counts().comments())));
        sb.append(String.format(
                Locale.ROOT,
                "  heap  at most %,d MiB used (peak of each heap pool, summed) of BG's " + "%,d MiB%n",
                peakHeapBytes() >> 20,
                Runtime.getRuntime().maxMemory() >> 20));
        return sb.toString();
    }

    /**
     * The heap BG's process used at most so far: each heap pool's peak, summed (the pools need not peak together, so
     * this bounds the true peak from above). For a load, what the generator and the loaders held.
     */
    static long peakHeapBytes() {
        long sum = 0;
        for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
            if (p.getType() == MemoryType.HEAP && p.getPeakUsage() != null) {
                sum += p.getPeakUsage().getUsed();
            }
        }
        return sum;
    }

    private static String count(long n) {
        return String.format(Locale.ROOT, "%,d", n);
    }

    private static String seconds(double s) {
        return String.format(Locale.ROOT, "%.1f s", s);
    }
}
