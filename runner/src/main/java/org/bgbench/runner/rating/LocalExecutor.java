package org.bgbench.runner.rating;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import org.bgbench.loader.repair.RepairDb;
import org.bgbench.runner.Experiment;
import org.bgbench.runner.ExperimentSpec;
import org.bgbench.runner.LocalStore;
import org.bgbench.workload.WorkloadSpec;

/** A rating's experiments in this process, against one {@link LocalStore}. */
public final class LocalExecutor implements ExperimentExecutor {
    private final LocalStore store;
    private final WorkloadSpec workload;
    private final int loaders;
    private final PrintWriter err;

    public LocalExecutor(LocalStore store, WorkloadSpec workload, int loaders, PrintWriter err) {
        this.store = store;
        this.workload = workload;
        this.loaders = loaders;
        this.err = err;
    }

    /** One experiment; the store is marked as being written while it runs and with its new state after. */
    @Override
    public Outcome run(ExperimentSpec spec, Path out) {
        Experiment.Outcome o = store.run(workload, spec, out, null);
        if (o.unsealed() != null) {
            // the store could not be vouched for after it: an experiment that did not end well, reset as after errors
            return new Outcome(o.result(), false, o.unsealed(), List.of(), o.unwritten());
        }
        return new Outcome(o.result(), o.run().completed(), o.run().abortReason(), List.of(), o.unwritten());
    }

    @Override
    public boolean prepareImage(PrintWriter err) {
        return store.saveImage(loaders, err);
    }

    @Override
    public int touchedMembers() {
        return store.state().touchedMembers();
    }

    @Override
    public Repair repair() {
        RepairDb.Report r = store.repair(Math.max(2, loaders));
        return new Repair(
                r.verified(),
                r.relationships(),
                r.comments(),
                r.verified() ? null : r.mismatches().get(0));
    }

    @Override
    public void restoreImage() {
        store.restoreImage();
    }

    @Override
    public void reload() {
        store.reload(loaders, err);
    }

    /** Each experiment saved its state already; this ends writes a failed reset left marked (none, normally). */
    @Override
    public void finish() {
        store.saveState();
    }
}
