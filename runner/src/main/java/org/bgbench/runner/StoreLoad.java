package org.bgbench.runner;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.Optional;
import org.bgbench.loader.LoadException;
import org.bgbench.loader.LoadReport;
import org.bgbench.model.generator.SocialGraph;
import org.bgbench.store.DataStore;
import org.bgbench.store.StateMark;
import org.bgbench.store.StoreImage;
import org.bgbench.store.StoreProvider;
import org.bgbench.store.StoreSettings;

/**
 * {@code bg load} on a store no {@link LocalStore} holds open: loads the graph or restores its database image, and
 * deletes the state file the store's old mark named, so the mark and BG's state files still agree.
 */
public final class StoreLoad {
    private StoreLoad() {}

    /**
     * {@code bg load}: loads {@code graph} unless the store holds it already (then returns null and says in which
     * state; {@code replace} loads it anew), and deletes the state file the store's old mark named.
     */
    public static LoadReport load(
            StoreProvider provider,
            StoreSettings settings,
            SocialGraph graph,
            int loaders,
            boolean replace,
            PrintWriter err) {
        Loading.checkFits(provider, graph, err);
        StateFiles states = StateFiles.defaultLocation();
        try (DataStore store = provider.open(settings)) {
            Optional<StateMark> before = markOf(store);
            LoadReport report = Loading.load(store, graph, loaders, replace, err, provider.loadRowsPerSecond());
            if (report != null) {
                deleteStale(states, before, err);
            } else if (before.isEmpty() || before.get().kind() != StateMark.Kind.LOADED) {
                err.println("bg: note: the store holds this graph, but not as loaded: "
                        + before.map(m -> switch (m.kind()) {
                                    case STATE -> "in the state the last run left (token " + m.value() + ")";
                                    case RUNNING ->
                                        "a run on it has not ended (" + m.value() + "); bg run will refuse it";
                                    case LOADED -> "";
                                })
                                .orElse("it records no state mark; bg run will refuse it")
                        + ". Pass --replace to load it anew.");
            }
            return report;
        }
    }

    /**
     * {@code bg load --restore-image}: replaces the store's contents with its database image (taken by a rating)
     * and adopts the mark the image was saved with. Returns that mark.
     */
    public static String restoreImage(
            StoreProvider provider, StoreSettings settings, SocialGraph graph, PrintWriter err) {
        StateFiles states = StateFiles.defaultLocation();
        try (DataStore store = provider.open(settings)) {
            if (store.loadedGraph().filter(graph.spec().fingerprint()::equals).isEmpty()) {
                throw new LoadException("the store does not hold this graph, so it has no image of it; load it "
                        + "(bg load --store " + provider.name() + " --replace)");
            }
            StoreImage image = store.image()
                    .filter(StoreImage::exists)
                    .orElseThrow(() -> new LoadException(
                            "the store has no database image of this graph (a rating with --reset image or auto takes one); "
                                    + "reload it (bg load --store " + provider.name()
                                    + " --replace) or repair it (bg verify "
                                    + "--store " + provider.name() + " --repair)"));
            Optional<StateMark> before = markOf(store);
            image.restore();
            if (store.stateMark().isEmpty()) {
                // Images are taken of freshly loaded stores only; one from an older BG carries no mark.
                store.writeStateMark(
                        StateMark.loaded(graph.spec().fingerprint()).text());
            }
            Optional<StateMark> after = markOf(store);
            if (!before.equals(after)) {
                deleteStale(states, before, err);
            }
            return store.stateMark().orElse("");
        }
    }

    static Optional<StateMark> markOf(DataStore store) {
        return store.loadedGraph().isEmpty()
                ? Optional.empty()
                : store.stateMark().flatMap(StateMark::parse);
    }

    /** Deletes the state file an old mark named; it no longer describes the store. */
    static void deleteStale(StateFiles states, Optional<StateMark> old, PrintWriter err) {
        if (old.isPresent() && old.get().kind() == StateMark.Kind.STATE) {
            try {
                states.delete(old.get().value());
            } catch (IOException | LoadException e) {
                err.println("bg: warning: cannot delete the stale saved state "
                        + old.get().value() + ": " + e.getMessage());
            }
        }
    }
}
