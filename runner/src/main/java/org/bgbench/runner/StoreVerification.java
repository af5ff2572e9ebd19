package org.bgbench.runner;

import java.io.PrintWriter;
import java.util.List;
import java.util.Optional;
import org.bgbench.loader.LoadException;
import org.bgbench.loader.repair.StoreRepair;
import org.bgbench.model.generator.SocialGraph;
import org.bgbench.model.state.GraphState;
import org.bgbench.store.DataStore;
import org.bgbench.store.StateMark;
import org.bgbench.store.StoreProvider;
import org.bgbench.store.StoreSettings;
import org.bgbench.store.conformance.StateComparison;

/**
 * {@code bg verify} and {@code bg verify --repair}: a store compared, member by member through its own reads, with the
 * state its mark names, and brought back to the generated graph. It reads marks and state files as {@link LocalStore}
 * does.
 */
public final class StoreVerification {
    private StoreVerification() {}

    /**
     * What {@code bg verify} found: the store's differences from the state BG would use, the store's mark, what was
     * compared, and why that is not a state BG could run from (null when it is).
     */
    public record Verification(
            int members, int touched, List<String> differences, String mark, String comparedWith, String problem) {
        public boolean clean() {
            return differences.isEmpty() && problem == null;
        }
    }

    /**
     * {@code bg verify}: reads the store's mark and compares the store, member by member through its own reads, with
     * the state the mark names. When that is not a state BG could run from (a run that never ended, a token without
     * a state file here, no mark) the store is compared with the generated graph and the problem reported. Read-only.
     */
    public static Verification verify(StoreProvider provider, StoreSettings settings, SocialGraph graph, int limit) {
        StateFiles states = StateFiles.defaultLocation();
        try (DataStore store = provider.open(settings)) {
            Optional<String> held = store.loadedGraph();
            String want = graph.spec().fingerprint();
            if (held.filter(want::equals).isEmpty()) {
                throw new LoadException(
                        held.isEmpty()
                                ? "the store holds no BG graph (none was loaded, or a load did not finish); load one first "
                                        + "(bg load --store " + provider.name() + ")"
                                : "the store holds another graph (" + held.get() + ") than the one asked for (" + want
                                        + ")");
            }
            LocalStore s = new LocalStore(provider, settings, store, graph, states);
            String mark = store.stateMark().orElse("(none)");
            String problem = null;
            try {
                s.adoptMark();
            } catch (StateMismatch e) {
                problem = e.getMessage();
                s.state = new GraphState(graph);
                s.token = null;
            }
            String against = s.token == null
                    ? "the generated graph"
                    : "the state saved in " + states.fileFor(s.token).toAbsolutePath();
            return new Verification(
                    graph.members(),
                    s.state.touchedMembers(),
                    StateComparison.differences(store, s.state, limit),
                    mark,
                    against,
                    problem);
        }
    }

    /** What {@code bg verify --repair} did, what it could not fix, and the store's mark before and after. */
    public record Repair(String markBefore, String markAfter, StoreRepair.Report report, List<String> remaining) {
        public boolean done() {
            return remaining.isEmpty() && report.refused().isEmpty();
        }
    }

    /**
     * {@code bg verify --repair}: brings the store back to the generated graph, whatever its mark says, by reading
     * every member and fixing each difference through the store's own actions ({@link StoreRepair}), then reads the
     * whole store back. When it agrees the store gets the loaded mark and the stale state file is deleted; otherwise
     * the mark stays {@code running:} (runs refuse the store) and {@link Repair#remaining()} says what is left.
     */
    public static Repair repair(
            StoreProvider provider,
            StoreSettings settings,
            SocialGraph graph,
            int threads,
            int limit,
            PrintWriter err) {
        StateFiles states = StateFiles.defaultLocation();
        try (DataStore store = provider.open(settings)) {
            if (store.loadedGraph().filter(graph.spec().fingerprint()::equals).isEmpty()) {
                throw new LoadException("the store does not hold this graph (a load did not finish, or it holds "
                        + "another); load it (bg load --store " + provider.name() + " --replace)");
            }
            Optional<String> raw = store.stateMark();
            String before = raw.orElse("(none)");
            Optional<StateMark> old = StoreLoad.markOf(store);
            String running = LocalStore.running("bg verify --repair");
            // From the mark read, so a run that starts at the same instant is not overwritten unseen.
            if (raw.isEmpty()) {
                store.writeStateMark(running);
            } else if (!store.replaceStateMark(raw.get(), running)) {
                throw new LoadException("the store's state mark changed while bg verify --repair read it (it was "
                        + before + ", it is " + store.stateMark().orElse("none") + "): another BG command is writing "
                        + "to the store; repair it once that has ended");
            }
            StoreRepair.Report r = StoreRepair.toGenerated(store, graph, Math.max(1, threads), null);
            List<String> remaining = StateComparison.differences(store, new GraphState(graph), limit);
            if (remaining.isEmpty() && r.refused().isEmpty()) {
                store.writeStateMark(
                        StateMark.loaded(graph.spec().fingerprint()).text());
                StoreLoad.deleteStale(states, old, err);
            }
            return new Repair(before, store.stateMark().orElse("(none)"), r, remaining);
        }
    }
}
