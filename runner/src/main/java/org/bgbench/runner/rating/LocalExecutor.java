package org.bgbench.runner.rating;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.bgbench.loader.repair.RepairDb;
import org.bgbench.runner.Experiment;
import org.bgbench.runner.ExperimentSpec;
import org.bgbench.runner.LocalStore;
import org.bgbench.store.StoreImage;
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

    @Override
    public Outcome run(ExperimentSpec spec, Path out) {
        Experiment.Outcome o = Experiment.run(new Experiment.Setup(store.store(), store.name(), store.settings(),
                store.state(), workload, spec, out, null));
        return new Outcome(o.result(), o.run().completed(), o.run().abortReason(), List.of());
    }

    @Override
    public boolean prepareImage(PrintWriter err) {
        Optional<StoreImage> image = store.store().image();
        if (image.isEmpty()) {
            return false;
        }
        if (!image.get().exists()) {
            if (store.state().touchedMembers() > 0) {
                err.println("bg: the store is not in its freshly loaded state; reloading it before taking its image");
                store.reload(loaders, err);
            }
            long t0 = System.nanoTime();
            image.get().save();
            err.printf(Locale.ROOT, "bg: saved a database image of the loaded store in %.1f s%n",
                    (System.nanoTime() - t0) / 1e9);
        }
        return true;
    }

    @Override
    public int touchedMembers() {
        return store.state().touchedMembers();
    }

    @Override
    public Repair repair() {
        RepairDb.Report r = RepairDb.undo(store.store(), store.state(), Math.max(2, loaders));
        if (r.verified()) {
            store.forgetState();
        }
        return new Repair(r.verified(), r.relationships(), r.comments(),
                r.verified() ? null : r.mismatches().get(0));
    }

    @Override
    public void restoreImage() {
        store.store().image().filter(StoreImage::exists).orElseThrow(() ->
                new IllegalStateException("the store has no image of this graph")).restore();
        store.forgetState();
    }

    @Override
    public void reload() {
        store.reload(loaders, err);
    }

    @Override
    public void finish() {
        if (workload.mix().writeFraction() > 0) {
            store.saveState();
        }
    }
}
