package org.bgbench.cluster.coordinator;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import org.bgbench.cluster.protocol.Messages;
import org.bgbench.runner.ExperimentSpec;
import org.bgbench.runner.rating.ExperimentExecutor;
import org.bgbench.store.StoreException;

/**
 * A rating's experiments on workers (dissertation 4.3): each experiment runs on every worker at once with T spread
 * over them, and the SLA verdict comes from the merged result. Resets go to every worker in parallel: each repairs
 * its own members' writes, or the image is restored once (by the first worker, the others forgetting their states),
 * or every worker reloads its share.
 */
public final class ClusterExecutor implements ExperimentExecutor {
    private final ClusterCoordinator cluster;
    private final int loaders;
    private final boolean keepGoing;
    private boolean imageSaved;
    private int touched;

    /** @param keepGoing a failed worker may be dropped and the store restored so the rating goes on */
    public ClusterExecutor(ClusterCoordinator cluster, int loaders, boolean keepGoing) {
        this.cluster = cluster;
        this.loaders = loaders;
        this.keepGoing = keepGoing;
    }

    @Override
    public Outcome run(ExperimentSpec spec, Path out) {
        ClusterCoordinator.Outcome o;
        try {
            o = cluster.run(spec, out, null);
        } catch (IOException e) {
            throw new StoreException("cannot write " + out + ": " + e.getMessage(), e);
        } catch (ClusterCoordinator.ClusterException e) {
            if (e.worker() < 0) {
                throw e;
            }
            // A worker lost while the store's mark was written, before or after the experiment: the experiment
            // failed on that worker (with --keep-going the rating drops it and restores the store).
            return new Outcome(null, false, e.getMessage(), List.of(e.worker()));
        }
        touched = o.touched();
        return new Outcome(o.result(), o.completed(), o.reason(), o.failed(), o.unwritten());
    }

    @Override
    public boolean prepareImage(PrintWriter err) {
        ClusterCoordinator.ImageState s = cluster.saveImage();
        if (s == ClusterCoordinator.ImageState.NOT_LOADED) {
            // The image must be of the loaded graph: restoring it resets every worker to the generated graph.
            err.println("bg: the store is not in its freshly loaded state; reloading it before taking its image");
            reload();
            s = cluster.saveImage();
        }
        imageSaved = s == ClusterCoordinator.ImageState.SAVED;
        return imageSaved;
    }

    @Override
    public int touchedMembers() {
        return touched;
    }

    @Override
    public Repair repair() {
        List<Messages.ResetDone> r = cluster.reset(Messages.ResetHow.REPAIR);
        long relationships = 0;
        long comments = 0;
        String mismatch = null;
        for (int k = 0; k < r.size(); k++) {
            Messages.ResetDone n = r.get(k);
            relationships += n.relationships();
            comments += n.comments();
            if (!n.verified() && mismatch == null) {
                mismatch = "worker " + k + ": " + n.mismatch();
            }
        }
        touched = 0;
        return new Repair(mismatch == null, relationships, comments, mismatch);
    }

    @Override
    public void restoreImage() {
        cluster.reset(Messages.ResetHow.IMAGE);
        touched = 0;
    }

    @Override
    public void reload() {
        cluster.load(loaders);
        cluster.reset(Messages.ResetHow.STATE);
        touched = 0;
    }

    @Override
    public String recover(List<Integer> failedWorkers) {
        if (!keepGoing
                || failedWorkers.isEmpty()
                || failedWorkers.size() >= cluster.names().size()) {
            return null;
        }
        // The failed workers' members and states are gone: plan over the others, bring the store back to the graph.
        cluster.dropWorkers(failedWorkers);
        if (imageSaved) {
            restoreImage();
            return "image";
        }
        reload();
        return "reload";
    }

    @Override
    public int workers() {
        return cluster.names().size();
    }
}
