package org.bgbench.runner;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.bgbench.loader.LoadException;
import org.bgbench.loader.LoadReport;
import org.bgbench.loader.repair.RepairDb;
import org.bgbench.measurement.Stalls;
import org.bgbench.model.generator.SocialGraph;
import org.bgbench.model.state.GraphState;
import org.bgbench.store.DataStore;
import org.bgbench.store.ErrorText;
import org.bgbench.store.StateMark;
import org.bgbench.store.StoreException;
import org.bgbench.store.StoreImage;
import org.bgbench.store.StoreProvider;
import org.bgbench.store.StoreSettings;
import org.bgbench.store.conformance.StateComparison;
import org.bgbench.workload.WorkloadSpec;

/**
 * A store opened in this process together with the state BG expects it to hold. The store says which state that is,
 * by the state mark it keeps ({@link StateMark}): {@code loaded:<fingerprint>} is the generated graph,
 * {@code state:<token>} the state a run saved in {@link StateFiles} under that token, and {@code running:…} a run
 * that has not ended, whose writes BG does not know — such a store is refused with what to do, as is one whose token
 * has no state file here or whose contents a sampled check finds different.
 *
 * <p>Everything that writes goes through here and keeps the mark right: a run with writes (and a repair) writes
 * {@code running:…} before its first write reaches the store; when it ends, BG's state is saved under a fresh token
 * and the store's mark set to it (or to {@code loaded:…} when the state is the generated graph again); a load, a
 * verified repair and an image restore leave the store with the generated graph and its loaded mark.
 */
public final class LocalStore implements AutoCloseable {
    /** Members of each kind the check before a run compares by default ({@code -p verify.sample}). */
    public static final int DEFAULT_VERIFY_SAMPLE = 50;

    private final StoreProvider provider;
    private final StoreSettings settings;
    private final DataStore store;
    private final SocialGraph graph;
    private final StateFiles states;
    GraphState state;
    /** The token of the state file that describes the store, or null when it holds the generated graph. */
    String token;
    /** Whether this process set the store's mark to {@code running:…} and has not ended its writes yet. */
    private boolean writing;
    /** The mark this process last read from the store or wrote into it: what marking it running expects. */
    private String mark;
    /** While {@link #writing}: the mark before, to go back to when none of the run's writes reached the store. */
    private String before;

    private LoadReport loadReport;

    LocalStore(StoreProvider provider, StoreSettings settings, DataStore store, SocialGraph graph, StateFiles states) {
        this.provider = provider;
        this.settings = settings;
        this.store = store;
        this.graph = graph;
        this.states = states;
    }

    /** What {@link #open} does with a store that does not hold the graph. */
    public enum IfMissing {
        /** Load it; also reload a store that holds the graph in a state BG does not know. */
        LOAD,
        /** Refuse, and say the command's {@code --load} would load it. */
        REFUSE_OFFER_LOAD,
        /** Refuse: it must be loaded with {@code bg load} first. */
        REFUSE
    }

    /** {@link #open(StoreProvider, StoreSettings, SocialGraph, IfMissing, int, int, PrintWriter)} with the default check. */
    public static LocalStore open(
            StoreProvider provider,
            StoreSettings settings,
            SocialGraph graph,
            IfMissing ifMissing,
            int loaders,
            PrintWriter err) {
        return open(provider, settings, graph, ifMissing, loaders, DEFAULT_VERIFY_SAMPLE, err);
    }

    /**
     * Opens the store and makes sure it holds {@code graph} in a state BG knows: the store's mark names the state to
     * start from (the generated graph, or a saved state), and then {@code verifySample} members drawn from those
     * writes touched and as many from all members, and the store's totals, are compared with it (0: no check). A
     * store that does not hold the graph is loaded when asked ({@link IfMissing#LOAD}) or when it forgets its
     * contents on close (the memory store); otherwise, and for a store in a state BG does not know (a run that never
     * ended, a token with no state file here, no mark, a sample that differs), this refuses with a message that says
     * what to do — with {@link IfMissing#LOAD}, or for a store that forgets on close, such a store is loaded anew.
     */
    public static LocalStore open(
            StoreProvider provider,
            StoreSettings settings,
            SocialGraph graph,
            IfMissing ifMissing,
            int loaders,
            int verifySample,
            PrintWriter err) {
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
                try {
                    s.adoptMark();
                    s.checkSample(verifySample);
                    return s;
                } catch (StateMismatch e) {
                    // A store that forgets on close is loaded by every command anyway; one that outlived a command
                    // in this JVM (tests) is loaded again like one that did not.
                    if (ifMissing != IfMissing.LOAD && !provider.traits().forgetsOnClose()) {
                        throw e;
                    }
                    err.println("bg: " + e.reason() + " Loading the graph anew"
                            + (ifMissing == IfMissing.LOAD ? ", as --load asks." : "."));
                    s.reload(loaders, err);
                    return s;
                }
            }
            if (ifMissing == IfMissing.REFUSE && !provider.traits().forgetsOnClose()) {
                throw new LoadException("the store does not hold this graph; load it first (bg load --store "
                        + provider.name() + " with the same -p graph keys)");
            }
            if (ifMissing == IfMissing.REFUSE_OFFER_LOAD && !provider.traits().forgetsOnClose()) {
                throw new LoadException(
                        held.isEmpty()
                                ? "the store holds no BG graph; load it first (bg load --store " + provider.name()
                                        + " with the same -p graph keys) or pass --load"
                                : "the store holds a different graph (" + held.get() + ") than the one asked for ("
                                        + want
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

    private StateMismatch mismatch(String reason) {
        return new StateMismatch(reason, advice());
    }

    /** What a user can do about a store in a state BG does not know, as a sentence naming the commands. */
    private static String advice(String store, Optional<StoreImage> image) {
        boolean hasImage = false;
        try {
            hasImage = image.isPresent() && image.get().exists();
        } catch (RuntimeException e) {
            // No image to offer.
        }
        return "Reload it (bg load --store " + store + " --replace), repair it (bg verify --store " + store
                + " --repair)"
                + (hasImage ? ", or restore its database image (bg load --store " + store + " --restore-image)" : "")
                + ", each with the same --store settings and -p graph keys.";
    }

    private String advice() {
        return advice(provider.name(), store.image());
    }

    /**
     * Sets BG's state from the store's mark: the generated graph for {@code loaded:} this graph, the saved state for
     * {@code state:} a token with a file here; anything else is a {@link StateMismatch}.
     */
    void adoptMark() {
        Optional<String> raw = store.stateMark();
        String want = graph.spec().fingerprint();
        if (raw.isEmpty()) {
            throw mismatch("the store holds this graph but records no state mark (it was loaded by an older BG, or "
                    + "BG's bg_meta was changed), so BG cannot tell what state it is in.");
        }
        StateMark mark = StateMark.parse(raw.get())
                .orElseThrow(() -> mismatch("the store's state mark '" + raw.get() + "' is not one BG writes."));
        this.mark = raw.get();
        switch (mark.kind()) {
            case LOADED -> {
                if (!mark.value().equals(want)) {
                    throw mismatch("the store's state mark says it was loaded with graph " + mark.value()
                            + ", but it records graph " + want + ".");
                }
                state = new GraphState(graph);
                token = null;
            }
            case STATE -> {
                Optional<GraphState> saved = states.read(mark.value(), graph);
                if (saved.isEmpty()) {
                    throw mismatch("the store holds the state a run left under token " + mark.value() + ", but "
                            + states.dir().toAbsolutePath() + " has no " + mark.value() + ".state (that run was made "
                            + "on another machine or with another state directory, -Dbg.state.dir, or the file was "
                            + "deleted). Run BG where that file is, or:");
                }
                state = saved.get();
                token = mark.value();
            }
            case RUNNING -> throw notEnded(mark);
        }
    }

    private StateMismatch notEnded(StateMark running) {
        return mismatch("a run on this store has not ended (" + running.value() + "). If it is not still running, it "
                + "was interrupted and BG does not know which of its writes reached the store.");
    }

    /** The sampled check before a run: {@code n} touched and {@code n} random members, and the totals. */
    private void checkSample(int n) {
        if (n <= 0) {
            return;
        }
        List<String> diffs = StateComparison.sampled(store, state, n, System.nanoTime(), 5);
        if (!diffs.isEmpty()) {
            throw new StateMismatch(
                    "the store does not hold the state BG expects ("
                            + (token == null ? "the generated graph" : "the state saved under token " + token) + "): "
                            + String.join("; ", diffs)
                            + ". It was changed behind BG's back, or lost writes in a crash.",
                    advice() + " (-p verify.sample=0 skips this check.)");
        }
    }

    /** The mark of a run starting now in this process; {@code what} says which. */
    static String running(String what) {
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            host = "this host";
        }
        return StateMark.running(StateFiles.newToken().substring(0, 8) + " started "
                        + Instant.now().truncatedTo(ChronoUnit.SECONDS) + " on " + host + " by pid "
                        + ProcessHandle.current().pid() + ": " + what)
                .text();
    }

    /** Loads the graph anew (replacing what the store holds); BG's state is the generated graph again. */
    public LoadReport reload(int loaders, PrintWriter err) {
        loadReport = Loading.load(store, graph, loaders, true, err, provider.loadRowsPerSecond());
        generatedAgain();
        return loadReport;
    }

    /** The report of the load this store did when it was opened, or null when it held the graph already. */
    public LoadReport loadReport() {
        return loadReport;
    }

    /** The store holds the generated graph (after a load, a verified repair): say so in its mark and in BG's state. */
    private void generatedAgain() {
        state = new GraphState(graph);
        mark = StateMark.loaded(graph.spec().fingerprint()).text();
        store.writeStateMark(mark);
        writing = false;
        dropToken();
    }

    private void dropToken() {
        if (token != null) {
            try {
                states.delete(token);
            } catch (IOException e) {
                throw new UncheckedIOException(
                        "cannot delete BG's stale saved state " + states.fileFor(token) + ": " + e.getMessage(), e);
            }
            token = null;
        }
    }

    /**
     * Marks the store as being written ({@code running:…}) before the first write of a run or repair reaches it; the
     * state file of the old token no longer describes the store and is deleted.
     */
    public void beginWrites(String what) {
        claimWrites(what);
        dropToken();
    }

    /**
     * Marks the store {@code running:…} in one compare-and-set from the mark this process checked: of two commands
     * that checked the same mark, one marks it and the other is refused (a {@link StateMismatch}), as it would have
     * been had it started a moment later.
     */
    private void claimWrites(String what) {
        String running = running(what);
        if (mark == null || !store.replaceStateMark(mark, running)) {
            Optional<StateMark> now = store.stateMark().flatMap(StateMark::parse);
            if (now.isPresent() && now.get().kind() == StateMark.Kind.RUNNING) {
                throw notEnded(now.get());
            }
            throw mismatch("the store's state mark changed after this command checked it (it was " + mark + ", it is "
                    + now.map(StateMark::text).orElse("none") + "): another BG command wrote to the store meanwhile.");
        }
        before = mark;
        mark = running;
        writing = true;
    }

    /**
     * No write of the run reached the store (it failed, or was refused, before its first action): the store is
     * marked as it was before, and the state file of that mark is still BG's state. Leaves the mark {@code running:}
     * when another process changed it meanwhile or the store does not answer; the caller's failure is what counts.
     */
    private void giveBackMark() {
        try {
            if (store.replaceStateMark(mark, before)) {
                mark = before;
            }
        } catch (RuntimeException e) {
            // The store stays marked running, which refuses the next run: safe, and the caller reports its failure.
        }
        // Whatever happened, this process does not seal a mark that may not be its own any more.
        writing = false;
    }

    /**
     * Runs one experiment on this store from the state BG expects, and saves the state it ends in. An experiment BG
     * refuses ({@link Experiment#check}) is refused before the store is marked; one that fails before its first
     * action leaves the store marked as it was.
     */
    public Experiment.Outcome run(WorkloadSpec workload, ExperimentSpec spec, Path out, PrintWriter progress) {
        boolean writes = workload.mix().writeFraction() > 0;
        Experiment.Setup setup = new Experiment.Setup(
                new Experiment.Subject(store, provider.name(), settings.asMap()),
                state,
                workload,
                spec,
                new Experiment.Output(out, progress));
        Experiment.check(setup);
        if (!writes) {
            return Experiment.run(setup);
        }
        claimWrites("a run of the " + workload.mixName() + " mix with T=" + spec.threads());
        boolean[] acting = {false};
        Experiment.Outcome o;
        try {
            o = Experiment.run(setup, () -> {
                // From here on the store may hold writes the old state file does not describe.
                dropToken();
                acting[0] = true;
            });
        } catch (RuntimeException | Error e) {
            if (!acting[0]) {
                giveBackMark();
            }
            throw e;
        }
        if (!acting[0]) {
            // The members never acted (a session failed to open, the run was stopped first).
            giveBackMark();
            return o;
        }
        // Actions still waiting on the store when the run ended may or may not have written, and so may writes in
        // flight when the store failed every call for a second (it died or lost its connections): BG's state cannot
        // vouch for the store, so it stays marked as written by a run that did not end (and is not touched again now,
        // as the store may not be answering); the next command refuses it until it is repaired or reloaded.
        boolean uncertain = Stalls.writesUncertain(o.result()) || o.run().stuckThreads() > 0;
        if (writes && !uncertain) {
            try {
                saveState();
            } catch (RuntimeException e) {
                // What was measured is on disk already; the caller shows it, then why the store cannot be vouched for.
                return o.withUnsealed(ErrorText.message(e));
            }
        }
        return o;
    }

    /**
     * Ends the writes begun by {@link #beginWrites}: saves BG's expected state under a fresh token and then sets the
     * store's mark to it (the generated graph's loaded mark when no member is touched). Nothing to do otherwise.
     */
    public void saveState() {
        if (!writing) {
            return;
        }
        if (!state.changed()) {
            seal(StateMark.loaded(graph.spec().fingerprint()).text());
            state = new GraphState(graph);
            dropToken();
            return;
        }
        String t = StateFiles.newToken();
        try {
            states.save(t, state);
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "cannot save BG's expected state to " + states.fileFor(t) + ": " + e.getMessage()
                            + "; the store stays marked as written by a run that did not end",
                    e);
        }
        try {
            seal(StateMark.state(t).text());
        } catch (StoreException e) {
            try {
                states.delete(t);
            } catch (IOException ignored) {
                // A stray state file names no store's mark; the refusal is what matters.
            }
            throw e;
        }
        token = t;
    }

    /**
     * Replaces this process's {@code running:} mark with {@code next}, by compare-and-set: when another command
     * changed the mark while this one wrote (a load, a repair), what the store holds is nobody's known state, and
     * the mark it has is left as it is.
     */
    private void seal(String next) {
        boolean ours = store.replaceStateMark(mark, next);
        writing = false;
        if (!ours) {
            throw new StoreException("the store's state mark changed while this run wrote to it (it "
                    + "is now " + store.stateMark().orElse("none") + "): another BG command wrote to the store too, so "
                    + "BG cannot vouch for what it holds. " + advice());
        }
        mark = next;
    }

    /**
     * RepairDB between a rating's experiments: undoes the writes BG's state records through the store's actions.
     * When the read-back agrees the store holds the generated graph again (and is marked so); otherwise it stays
     * marked as being written, and the caller restores it another way.
     */
    public RepairDb.Report repair(int threads) {
        beginWrites("RepairDB");
        RepairDb.Report r = RepairDb.undo(store, state, threads);
        if (r.verified()) {
            generatedAgain();
        }
        return r;
    }

    /** Takes the database image of the freshly loaded graph (reloading first if runs changed it); false if none. */
    public boolean saveImage(int loaders, PrintWriter err) {
        Optional<StoreImage> image = store.image();
        if (image.isEmpty()) {
            return false;
        }
        if (!image.get().exists()) {
            if (state.changed() || writing) {
                err.println("bg: the store is not in its freshly loaded state; reloading it before taking its image");
                reload(loaders, err);
            }
            // The image carries the mark: it must say the generated graph.
            generatedAgain();
            long t0 = System.nanoTime();
            image.get().save();
            err.printf(
                    Locale.ROOT,
                    "bg: saved a database image of the loaded store in %.1f s%n",
                    (System.nanoTime() - t0) / 1e9);
        }
        return true;
    }

    /** Restores the database image; BG's state is then what the image's mark says (the generated graph). */
    public void restoreImage() {
        store.image()
                .filter(StoreImage::exists)
                .orElseThrow(() -> new IllegalStateException("the store has no image of this graph"))
                .restore();
        writing = false;
        String old = token;
        token = null;
        if (store.stateMark().isEmpty()) {
            // An image from an older BG carries no mark; BG only ever took images of freshly loaded stores.
            store.writeStateMark(StateMark.loaded(graph.spec().fingerprint()).text());
        }
        adoptMark();
        if (old != null && !old.equals(token)) {
            try {
                states.delete(old);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot delete BG's stale saved state: " + e.getMessage(), e);
            }
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
