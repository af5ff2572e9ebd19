package org.bgbench.cluster.coordinator;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.bgbench.cluster.coordinator.ClusterCoordinator.ClusterException;
import org.bgbench.cluster.protocol.Messages;
import org.bgbench.cluster.protocol.Operations;
import org.bgbench.store.StateMark;

/**
 * The store's state mark as the coordinator keeps it in step with its workers' states (cluster/README.md, "The store's
 * state mark with workers"): who writes it, {@code running:} before writes, one fresh token after them, the mark given
 * back after a run that did not act, and the check that every worker holds the state the store's mark names. One per
 * {@code open}: it knows the workers' answers to it.
 */
final class StateMarks {
    private final Workers workers;
    private final boolean separateStores;
    /** The loaded graph's mark, {@code loaded:<fingerprint>}. */
    private final String loaded;

    private final List<Messages.Opened> opened;
    /** Per writer of the mark: the store's mark as it answered at open or as the coordinator wrote it since. */
    private final Map<Integer, String> known = new HashMap<>();

    StateMarks(Workers workers, boolean separateStores, String graphFingerprint, List<Messages.Opened> opened) {
        this.workers = workers;
        this.separateStores = separateStores;
        this.loaded = StateMark.loaded(graphFingerprint).text();
        this.opened = opened;
        for (int k : writers()) {
            known.put(k, opened.get(k).storeMark());
        }
    }

    /** The workers that write the store's mark: the first for a shared store, each for stores of their own. */
    List<Integer> writers() {
        List<Integer> k = new ArrayList<>();
        for (int i = 0; i < (separateStores ? workers.size() : 1); i++) {
            k.add(i);
        }
        return k;
    }

    /** What each writer's store holds as far as this coordinator knows; to give back after a run that is not sealed. */
    Map<Integer, String> snapshot() {
        return new HashMap<>(known);
    }

    /** The store's mark as the writers read it at {@code open} (one per worker for stores of their own). */
    List<String> atOpen() {
        return writers().stream().map(k -> opened.get(k).storeMark()).toList();
    }

    /** A load or an image restore on every writer put the loaded graph's mark into its store. */
    void storesLoaded() {
        writers().forEach(k -> known.put(k, loaded));
    }

    /** An image restore on worker {@code k} brought back the mark it was taken with: images are of a loaded store. */
    void restored(int k) {
        known.put(k, loaded);
    }

    /** Every worker adopts {@code mark}; the writers also write it into the store. */
    private void mark(String mark) {
        List<Integer> writers = writers();
        workers.each((k, w) ->
                w.call(Operations.MARK, Messages.tree(new Messages.Mark(mark, writers.contains(k))), Workers.CALL));
        writers.forEach(k -> known.put(k, mark));
    }

    /** Every worker's state and the store are the loaded graph again. */
    void markLoaded() {
        mark(loaded);
    }

    /**
     * Before the first write of a run or repair reaches the store: the writers mark it {@code running:…}. The other
     * workers hold {@code running:} from the moment their own run or repair begins.
     */
    void beginWrites(String what) {
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            host = "the coordinator";
        }
        String running = StateMark.running(UUID.randomUUID().toString().substring(0, 8) + " started "
                        + Instant.now().truncatedTo(ChronoUnit.SECONDS) + " by the coordinator on " + host + " pid "
                        + ProcessHandle.current().pid() + ": " + what)
                .text();
        // A compare-and-set from the mark each writer's store answered: of two coordinators (or a coordinator and a
        // bg run) that checked the same mark, only one starts writing.
        List<Integer> writers = writers();
        try {
            workers.each((k, w) -> writers.contains(k)
                    ? w.call(
                            Operations.MARK,
                            Messages.tree(new Messages.Mark(running, true, known.get(k))),
                            Workers.CALL)
                    : Messages.tree(Messages.Ack.OK));
        } catch (ClusterException e) {
            // Stores of their own: those this coordinator marked go back to the mark they had (a compare-and-set
            // from its running mark, which fails harmlessly where another run holds the store), so a refused run
            // leaves no mark behind.
            for (int k : writers) {
                String had = known.get(k);
                if (had != null) {
                    try {
                        workers.get(k)
                                .call(
                                        Operations.MARK,
                                        Messages.tree(new Messages.Mark(had, true, running)),
                                        Workers.CALL);
                    } catch (RuntimeException notOurs) {
                        // Not marked by this coordinator, or the worker is gone: nothing to give back.
                    }
                }
            }
            throw e;
        }
        writers.forEach(k -> known.put(k, running));
    }

    /** After the workers' writes ended and each holds its state: one fresh token for all (or the loaded mark). */
    void sealWrites(boolean untouched, PrintWriter err) {
        if (untouched) {
            markLoaded();
            return;
        }
        // First every worker adopts the token, then the writers put it into the store: a coordinator that dies in
        // between leaves the store marked running, which refuses, never a token a worker does not hold.
        String token = StateMark.state(UUID.randomUUID().toString()).text();
        try {
            workers.each(
                    (k, w) -> w.call(Operations.MARK, Messages.tree(new Messages.Mark(token, false)), Workers.CALL));
            mark(token);
        } catch (ClusterException e) {
            // The experiment itself is measured and kept; the store stays marked as written by a run that did not
            // end, so no later command trusts a state a worker may have lost.
            err.println("bg: warning: the run's state token could not be recorded on every worker (" + e.getMessage()
                    + "); the store stays marked as written by a run that did not end");
            err.flush();
        }
    }

    /**
     * After an experiment that is not sealed: each writer's store gets back the mark it had before the experiment
     * (a compare-and-set from the running mark, so a store another command changed meanwhile keeps its mark) when
     * no worker whose writes it holds acted (every worker with threads for a shared store, the writer itself for a
     * store of its own), as each says. Where that is not known (a worker lost or not ended) the store stays marked as
     * written by a run that did not end.
     */
    void giveBack(Map<Integer, String> before, List<Integer> active, Set<Integer> idle, List<Integer> failed) {
        for (int k : writers()) {
            String had = before.get(k);
            List<Integer> holders = separateStores ? (active.contains(k) ? List.of(k) : List.of()) : active;
            try {
                boolean unacted = had != null;
                for (int j : holders) {
                    if (!unacted || idle.contains(j) || j == k && failed.contains(j)) {
                        continue; // the writer's own answer comes with its compare-and-set
                    }
                    unacted = failed.contains(j)
                            && Messages.read(
                                            workers.get(j)
                                                    .call(
                                                            Operations.MARK,
                                                            Messages.tree(new Messages.Mark(had, false, null, true)),
                                                            Workers.CALL),
                                            Messages.Ack.class)
                                    .ok();
                }
                if (unacted
                        && Messages.read(
                                        workers.get(k)
                                                .call(
                                                        Operations.MARK,
                                                        Messages.tree(new Messages.Mark(
                                                                had, true, known.get(k), active.contains(k))),
                                                        Workers.CALL),
                                        Messages.Ack.class)
                                .ok()) {
                    known.put(k, had);
                }
            } catch (RuntimeException e) {
                // The worker is gone or the store changed: it stays marked running; the experiment's failure counts.
            }
        }
    }

    /**
     * Refuses to go on (a {@link ClusterException} naming the worker and what to do) unless every worker holds the
     * state the store's mark names: the store's mark must be the loaded graph's or a token, never {@code running:}
     * (a run that did not end) or absent; with a token, every worker must hold the state it sealed (a restarted
     * worker, or one that served another setup since, does not). Workers whose kept state predates a reload the
     * store's loaded mark shows forget it ({@code forget}).
     */
    void requireState(String storeName, WorkerReset forget) {
        String advice = "Reload the store (bg load --store " + storeName + " --replace --workers …), or repair it (bg "
                + "verify --store " + storeName + " --repair --workers …), with the same settings and -p graph keys.";
        for (int k = 0; k < opened.size(); k++) {
            Messages.Opened o = opened.get(k);
            String storeMark = opened.get(separateStores ? k : 0).storeMark();
            String where = separateStores ? workers.label(k) + "'s store" : "the store";
            if (storeMark == null) {
                throw new ClusterException(
                        where + " holds the graph but records no state mark (loaded by an older "
                                + "BG?), so BG cannot tell what state it is in. " + advice,
                        null,
                        k);
            }
            Optional<StateMark> mark = StateMark.parse(storeMark);
            if (mark.isEmpty() || mark.get().kind() == StateMark.Kind.RUNNING) {
                throw new ClusterException(
                        mark.isEmpty()
                                ? where + "'s state mark '" + storeMark + "' is not one BG " + "writes. " + advice
                                : "a run on " + where + " has not ended ("
                                        + mark.get().value() + "). If "
                                        + "it is not still running, it was interrupted and BG does not know which of its writes "
                                        + "reached the store. " + advice,
                        null,
                        k);
            }
            if (storeMark.equals(o.heldMark())) {
                continue;
            }
            if (storeMark.equals(loaded)) {
                // The store was loaded (or restored) since this worker's runs: what it kept is stale.
                forget.reset(k);
                continue;
            }
            if (!separateStores && opened.stream().noneMatch(x -> storeMark.equals(x.heldMark()))) {
                throw new ClusterException(
                        "no worker holds BG's expected state of the store (" + storeMark + "): the "
                                + "run that left it was not made through these workers (a bg run without --workers, other "
                                + "--workers or --worker-rates), or they were all restarted since. " + advice,
                        null,
                        k);
            }
            throw new ClusterException(
                    workers.label(k) + " does not hold BG's expected state of "
                            + where + " (" + storeMark + ", left by an earlier run through these workers): "
                            + (o.keptState()
                                    ? "it holds the state of another run (" + o.heldMark() + ")"
                                    : "it was restarted, or given another share of the graph (other --workers or "
                                            + "--worker-rates than that run's), since then")
                            + ", so the writes of that run on its members are unknown to it. " + advice,
                    null,
                    k);
        }
    }

    /** Forgets worker {@code k}'s kept state. */
    @FunctionalInterface
    interface WorkerReset {
        void reset(int k);
    }
}
