package org.bgbench.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.bgbench.emulator.EmulatorConfig;
import org.bgbench.measurement.KindResult;
import org.bgbench.measurement.RunResult;
import org.bgbench.rating.ExperimentRunner;
import org.bgbench.rating.Measurement;
import org.bgbench.rating.Sla;
import org.bgbench.store.StoreException;
import org.bgbench.workload.WorkloadSpec;

/**
 * The rating's experiments on workers [SPEC §11, §13, §14]: each experiment runs on every worker at once with T
 * spread over them, and the SLA verdict comes from the merged result. Between experiments, as {@link RatingRunner}
 * does in one process: LoadFree when sound; else every worker repairs its own members' writes in parallel (RepairDB,
 * after an experiment without errors), falling back to the database image (restored once, by the first worker) or a
 * reload by all workers. A worker that fails stops the rating with what was measured.
 */
final class ClusterRatingRunner implements ExperimentRunner, RateCommand.Resets {
    private final ClusterCoordinator cluster;
    private final WorkloadSpec workload;
    private final EmulatorConfig template;
    private final Sla sla;
    private final boolean validate;
    private final Path dir;
    private final PrintWriter err;
    private final RatingRunner.Reset reset;
    private final int loaders;
    private boolean imageSaved;
    private final boolean keepGoing;
    private boolean lastClean = true;
    private boolean lastErrors;
    private int count;
    private final Map<String, Integer> resets = new LinkedHashMap<>();
    private final Map<String, Double> seconds = new LinkedHashMap<>();
    private final List<String> notes = new ArrayList<>();
    private long relationships;
    private long comments;

    ClusterRatingRunner(ClusterCoordinator cluster, WorkloadSpec workload, EmulatorConfig template, Sla sla,
                        boolean validate, Path dir, PrintWriter err, RatingRunner.Reset reset, int loaders,
                        boolean keepGoing) {
        this.keepGoing = keepGoing;
        this.cluster = cluster;
        this.workload = workload;
        this.template = template;
        this.sla = sla;
        this.validate = validate;
        this.dir = dir;
        this.err = err;
        this.reset = reset;
        this.loaders = loaders;
    }

    /** Saves the image the rating may restore from (the workers start from the loaded graph). */
    void prepareImage() {
        if (reset == RatingRunner.Reset.LOADFREE || reset == RatingRunner.Reset.RELOAD) {
            return;
        }
        imageSaved = cluster.saveImage();
    }

    @Override
    public Measurement run(int threads, Duration duration) {
        if (count > 0) {
            resetStore();
        }
        count++;
        Path out = dir.resolve(String.format(Locale.ROOT, "%02d-T%d.json", count, threads));
        err.printf(Locale.ROOT, "bg: experiment %d: T=%d for %s on %d workers%n", count, threads,
                org.bgbench.model.Durations.format(duration), cluster.names().size());
        ClusterCoordinator.Outcome o;
        try {
            o = cluster.run(threads, duration, template.warmup(), sla.beta(), template.seed() + count, validate,
                    sla.tauPct(), out, null);
        } catch (IOException e) {
            throw new StoreException("cannot write " + out + ": " + e.getMessage(), e);
        }
        if (!o.completed()) {
            if (!keepGoing || o.failed().isEmpty() || o.failed().size() >= cluster.names().size()) {
                throw new StoreException("experiment " + count + " at T=" + threads + " failed: " + o.reason());
            }
            // Asked to go on: the failed workers' members and states are gone, so plan the graph over the others,
            // bring the store back to the loaded graph and run this T again.
            notes.add("experiment " + count + " at T=" + threads + " failed (" + o.reason() + "); continued with "
                    + (cluster.names().size() - o.failed().size()) + " workers as --keep-going asked");
            try {
                java.nio.file.Files.move(out, out.resolveSibling(out.getFileName().toString()
                        .replaceFirst("\\.json$", "-failed.json")), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            } catch (IOException e) {
                notes.add("could not keep the failed experiment's result: " + e.getMessage());
            }
            cluster.dropWorkers(o.failed());
            restoreAfterDrop();
            count--;
            return run(threads, duration);
        }
        RunResult r = o.result();
        KindResult total = r.total();
        Object u = r.unpredictable() == null ? null : r.unpredictable().get("pct");
        double unpredictable = u == null ? 0 : ((Number) u).doubleValue();
        lastErrors = total.errors() > 0;
        lastClean = unpredictable == 0 && !lastErrors;
        Double within = total.withinBetaPctCountingErrors();
        return new Measurement(r.throughput(), within == null ? 0 : Math.max(0, Math.min(100, within)),
                Math.max(0, Math.min(100, unpredictable)), total.errors(), total.count(), r.durationS());
    }

    private void resetStore() {
        try {
            resetStoreOnce();
        } catch (ClusterCoordinator.ClusterException e) {
            if (!keepGoing || e.worker() < 0 || cluster.names().size() < 2) {
                throw e;
            }
            notes.add("a reset before experiment " + (count + 1) + " failed (" + e.getMessage() + "); continued with "
                    + (cluster.names().size() - 1) + " workers as --keep-going asked");
            cluster.dropWorkers(List.of(e.worker()));
            restoreAfterDrop();
        }
    }

    /** After workers were dropped the others have fresh states: the store must be the loaded graph again. */
    private void restoreAfterDrop() {
        long t0 = System.nanoTime();
        String how;
        if (imageSaved && reset != RatingRunner.Reset.RELOAD) {
            cluster.reset("image");
            how = "image";
        } else {
            cluster.load(loaders);
            cluster.reset("state");
            how = "reload";
        }
        resets.merge(how, 1, Integer::sum);
        seconds.merge(how, (System.nanoTime() - t0) / 1e9, Double::sum);
    }

    private void resetStoreOnce() {
        long t0 = System.nanoTime();
        boolean loadFree = workload.mix().writeFraction() == 0 || (workload.mix().isSymmetric() && lastClean);
        String how;
        if (reset == RatingRunner.Reset.LOADFREE || (reset == RatingRunner.Reset.AUTO && loadFree)) {
            how = "loadfree";
        } else if ((reset == RatingRunner.Reset.AUTO || reset == RatingRunner.Reset.REPAIR) && !lastErrors) {
            how = repair();
        } else if (reset != RatingRunner.Reset.RELOAD && imageSaved) {
            cluster.reset("image");
            how = "image";
        } else {
            cluster.load(loaders);
            cluster.reset("state");
            how = "reload";
        }
        resets.merge(how, 1, Integer::sum);
        seconds.merge(how, (System.nanoTime() - t0) / 1e9, Double::sum);
    }

    private String repair() {
        List<JsonNode> r = cluster.reset("repair");
        boolean verified = true;
        for (int k = 0; k < r.size(); k++) {
            JsonNode n = r.get(k);
            relationships += n.path("relationships").asLong();
            comments += n.path("comments").asLong();
            if (!n.path("verified").asBoolean()) {
                verified = false;
                notes.add("RepairDB on worker " + k + " after experiment " + count + " left the store different from "
                        + "the generated graph (" + n.path("mismatch").asText() + "); restored it another way");
            }
        }
        if (verified) {
            return "repair";
        }
        if (imageSaved) {
            cluster.reset("image");
            return "repair+image";
        }
        cluster.load(loaders);
        cluster.reset("state");
        return "repair+reload";
    }

    @Override
    public Map<String, Integer> resets() {
        return resets;
    }

    @Override
    public Map<String, Double> resetSecondsBy() {
        return seconds;
    }

    @Override
    public long[] repaired() {
        return new long[] {relationships, comments};
    }

    @Override
    public List<String> notes() {
        return notes;
    }
}
