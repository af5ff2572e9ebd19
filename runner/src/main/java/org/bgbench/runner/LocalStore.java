package org.bgbench.runner;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Map;
import org.bgbench.loader.LoadException;
import org.bgbench.loader.LoadReport;
import org.bgbench.model.generator.SocialGraph;
import org.bgbench.model.state.GraphState;
import org.bgbench.store.DataStore;
import org.bgbench.store.StoreProvider;
import org.bgbench.store.StoreSettings;
import org.bgbench.workload.WorkloadSpec;

/**
 * A store opened in this process together with the state BG expects it to hold: the generated graph, or what the
 * last run with writes left (kept in {@link StateFiles} between commands). Experiments run here update that state and
 * save it when they wrote, so the next command starts where this one ended.
 */
public final class LocalStore implements AutoCloseable {
    private final StoreProvider provider;
    private final StoreSettings settings;
    private final DataStore store;
    private final SocialGraph graph;
    private final StateFiles states;
    private final Path stateFile;
    private GraphState state;
    private LoadReport loadReport;

    private LocalStore(StoreProvider provider, StoreSettings settings, DataStore store, SocialGraph graph,
                       StateFiles states) {
        this.provider = provider;
        this.settings = settings;
        this.store = store;
        this.graph = graph;
        this.states = states;
        this.stateFile = states.fileFor(provider.name(), settings);
    }

    /** What {@link #open} does with a store that does not hold the graph. */
    public enum IfMissing {
        /** Load it. */
        LOAD,
        /** Refuse, and say the command's {@code --load} would load it. */
        REFUSE_OFFER_LOAD,
        /** Refuse: it must be loaded with {@code bg load} first. */
        REFUSE
    }

    /**
     * Opens the store and makes sure it holds {@code graph}: a store that already does starts from the state saved by
     * the last command; one that does not is loaded when asked ({@link IfMissing#LOAD}) or when it forgets its
     * contents on close (the memory store), and refused otherwise with a message that says what to do.
     */
    public static LocalStore open(StoreProvider provider, StoreSettings settings, SocialGraph graph,
                                  IfMissing ifMissing, int loaders, PrintWriter err) {
        StateFiles states = StateFiles.defaultLocation();
        if (ifMissing == IfMissing.LOAD || provider.traits().forgetsOnClose()) {
            Loading.checkFits(provider, graph, err);
        }
        DataStore store = provider.open(settings);
        LocalStore s = new LocalStore(provider, settings, store, graph, states);
        try {
            String want = graph.spec().fingerprint();
            var held = store.loadedGraph();
            if (held.isPresent() && held.get().equals(want)) {
                s.state = states.load(s.stateFile, graph);
                return s;
            }
            if (ifMissing == IfMissing.REFUSE && !provider.traits().forgetsOnClose()) {
                throw new LoadException("the store does not hold this graph; load it first (bg load --store "
                        + provider.name() + " with the same -p graph keys)");
            }
            if (ifMissing == IfMissing.REFUSE_OFFER_LOAD && !provider.traits().forgetsOnClose()) {
                throw new LoadException(held.isEmpty()
                        ? "the store holds no BG graph; load it first (bg load --store " + provider.name()
                                + " with the same -p graph keys) or pass --load"
                        : "the store holds a different graph (" + held.get() + ") than the one asked for (" + want
                                + "); run bg load with the same graph keys, or pass --load to replace it");
            }
            if (!provider.traits().forgetsOnClose()) {
                err.println("bg: loading the graph into " + provider.name() + " first");
            }
            s.reload(loaders, err);
            return s;
        } catch (RuntimeException e) {
            store.close();
            throw e;
        }
    }

    /**
     * {@code bg load}: loads {@code graph} unless the store holds it already (then returns null; {@code replace}
     * loads it anew), and forgets the state earlier runs left, since a fresh load is the generated graph.
     */
    public static LoadReport load(StoreProvider provider, StoreSettings settings, SocialGraph graph, int loaders,
                                  boolean replace, PrintWriter err) {
        Loading.checkFits(provider, graph, err);
        try (DataStore store = provider.open(settings)) {
            LoadReport report = Loading.load(store, graph, loaders, replace, err);
            if (report != null) {
                StateFiles states = StateFiles.defaultLocation();
                try {
                    states.delete(states.fileFor(provider.name(), settings));
                } catch (IOException e) {
                    err.println("bg: warning: cannot delete the saved state of earlier runs: " + e.getMessage());
                }
            }
            return report;
        }
    }

    /** What {@code bg verify} found: the store's differences from the state BG expects. */
    public record Verification(int members, int touched, java.util.List<String> differences) {
    }

    /** {@code bg verify}: compares the store, through its own reads, with the state BG saved for it. */
    public static Verification verify(StoreProvider provider, StoreSettings settings, SocialGraph graph, int limit) {
        StateFiles states = StateFiles.defaultLocation();
        try (DataStore store = provider.open(settings)) {
            if (store.loadedGraph().filter(graph.spec().fingerprint()::equals).isEmpty()) {
                throw new LoadException("the store does not hold this graph");
            }
            GraphState state = states.load(states.fileFor(provider.name(), settings), graph);
            return new Verification(graph.members(), state.touchedMembers(),
                    org.bgbench.store.conformance.StateComparison.differences(store, state, limit));
        }
    }

    /** Loads the graph anew (replacing what the store holds); BG's state is the generated graph again. */
    public LoadReport reload(int loaders, PrintWriter err) {
        loadReport = Loading.load(store, graph, loaders, true, err);
        forgetState();
        return loadReport;
    }

    /** The report of the load this store did when it was opened, or null when it held the graph already. */
    public LoadReport loadReport() {
        return loadReport;
    }

    /** BG's state is the generated graph (after a load, an image restore or a repair). */
    public void forgetState() {
        state = new GraphState(graph);
        try {
            states.delete(stateFile);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete BG's saved state " + stateFile + ": " + e.getMessage(), e);
        }
    }

    /** Runs one experiment on this store from the state BG expects, and saves the state it ends in. */
    public Experiment.Outcome run(WorkloadSpec workload, ExperimentSpec spec, Path out, PrintWriter progress) {
        Experiment.Outcome o = Experiment.run(new Experiment.Setup(store, provider.name(), settings.asMap(), state,
                workload, spec, out, progress));
        if (workload.mix().writeFraction() > 0) {
            saveState();
        }
        return o;
    }

    /** Saves BG's expected state so the next command starts from it. */
    public void saveState() {
        try {
            states.save(stateFile, state);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot save BG's expected state to " + stateFile + ": " + e.getMessage(), e);
        }
    }

    public DataStore store() {
        return store;
    }

    public GraphState state() {
        return state;
    }

    public SocialGraph graph() {
        return graph;
    }

    public String name() {
        return provider.name();
    }

    public StoreProvider provider() {
        return provider;
    }

    public Map<String, String> settings() {
        return settings.asMap();
    }

    @Override
    public void close() {
        store.close();
    }
}
