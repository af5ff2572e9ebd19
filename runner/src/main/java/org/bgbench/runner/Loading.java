package org.bgbench.runner;

import java.io.PrintWriter;
import java.util.Locale;
import java.util.Optional;
import org.bgbench.loader.GraphLoad;
import org.bgbench.loader.LoadException;
import org.bgbench.loader.LoadReport;
import org.bgbench.model.GraphSpec;
import org.bgbench.model.generator.SocialGraph;
import org.bgbench.store.DataStore;

/** Loading a graph into a store with a progress line per second, and the report a user reads afterwards. */
public final class Loading {
    private Loading() {
    }

    /**
     * Loads unless the store holds this graph already (then returns null); refuses to overwrite another graph unless
     * {@code replace}. Progress goes to {@code err} every second.
     */
    public static LoadReport load(DataStore store, SocialGraph graph, int threads, boolean replace, PrintWriter err) {
        Optional<String> existing = store.loadedGraph();
        String want = graph.spec().fingerprint();
        if (existing.isPresent() && !replace) {
            if (existing.get().equals(want)) {
                return null;
            }
            throw new LoadException("the store already holds a different graph (" + existing.get()
                    + "); pass --replace to drop it and load " + want);
        }
        long expectedRows = graph.members() + graph.totalFriendships() + graph.totalPendingInvitations()
                + graph.totalResources() + graph.totalInitialComments();
        long start = System.nanoTime();
        return new GraphLoad(store, graph, threads).run(rows -> {
            double s = (System.nanoTime() - start) / 1e9;
            err.printf("  %5.0fs  %,d rows (%.0f %%)  %,.0f rows/s%n", s, rows, 100.0 * rows / Math.max(1, expectedRows),
                    rows / Math.max(1e-9, s));
            err.flush();
        });
    }

    /** The lines {@code bg load} prints after a load. */
    public static String describe(String store, SocialGraph graph, LoadReport r) {
        GraphSpec s = graph.spec();
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "Loaded %s: M=%s φ=%d ρ=%d%s with %d threads%n", store,
                count(s.members()), s.friendsPerMember(), s.resourcesPerMember(),
                s.images() ? " images " + s.thumbnailBytes() + " B / " + s.profileImageBytes() + " B" : " no images",
                r.threads()));
        sb.append(String.format(Locale.ROOT, "  time  %s (bulk load %s + indexes %s)%n", seconds(r.totalSeconds()),
                seconds(r.loadSeconds()), seconds(r.finishSeconds())));
        sb.append(String.format(Locale.ROOT, "  rows  %s, %s rows/s%n", count(r.rows()),
                String.format(Locale.ROOT, "%,.0f", r.rowsPerSecond())));
        sb.append(String.format(Locale.ROOT, "  sanity check passed: %s members, %s friendships, %s pending, %s "
                        + "resources, %s comments%n", count(r.counts().members()), count(r.counts().friendships()),
                count(r.counts().pending()), count(r.counts().resources()), count(r.counts().comments())));
        return sb.toString();
    }

    private static String count(long n) {
        return String.format(Locale.ROOT, "%,d", n);
    }

    private static String seconds(double s) {
        return String.format(Locale.ROOT, "%.1f s", s);
    }
}
