package org.bgbench.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.bgbench.emulator.EmulatorConfig;
import org.bgbench.loader.repair.RepairDb;
import org.bgbench.measurement.KindResult;
import org.bgbench.measurement.RunResult;
import org.bgbench.model.generator.SocialGraph;
import org.bgbench.model.state.GraphState;
import org.bgbench.rating.ExperimentRunner;
import org.bgbench.rating.Measurement;
import org.bgbench.store.DataStore;
import org.bgbench.store.StoreImage;
import org.bgbench.workload.WorkloadSpec;

/**
 * Runs the rating's experiments [SPEC §11, §13]: before each one the store is brought to a state BG knows — kept as the
 * last experiment left it (LoadFree: the mix is symmetric and the last experiment saw no unpredictable read and no
 * error, so BG's expected state still describes the store), repaired by undoing the last experiment's writes
 * (RepairDB: only after an experiment without errors, since a failed write may still have changed the store; the
 * repair reads back what it touched and falls back to an image or a reload when the store disagrees), restored from a
 * database image (DBIL), or reloaded. With {@code auto}, LoadFree whenever it is sound, else the cheapest of the
 * others by their measured cost: each is tried once when it is first possible (repair first, then the image), after
 * which a repair is predicted from its measured seconds per member touched and an image restore from its last time.
 * Each experiment's result JSON is written beside the rating's as it finishes.
 */
final class RatingRunner implements ExperimentRunner, RateCommand.Resets {
    /** How the store is reset between experiments. */
    enum Reset {
        AUTO, LOADFREE, REPAIR, IMAGE, RELOAD;

        static Reset parse(String s) {
            try {
                return valueOf(s.trim().toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new org.bgbench.model.InvalidParameterException("--reset",
                        "expected auto, loadfree, repair, image or reload, got '" + s + "'");
            }
        }
    }

    private final DataStore store;
    private final String storeName;
    private final Map<String, String> storeSettings;
    private final SocialGraph graph;
    private final WorkloadSpec workload;
    private final EmulatorConfig template;
    private final Duration beta;
    private final ValidationOptions validation;
    private final Path dir;
    private final PrintWriter err;
    private final Reset reset;
    private final int loaders;
    private GraphState state;
    private boolean lastClean = true;
    private boolean lastErrors;
    private int count;
    /** Time spent resetting the store (ω·ν of the rating-time model) and how each reset was done. */
    private double resetSeconds;
    private final Map<String, Integer> resets = new LinkedHashMap<>();
    private final Map<String, Double> resetSecondsBy = new LinkedHashMap<>();
    /** Cost estimates for {@code auto}: seconds per touched member for a repair, seconds for an image restore. */
    private double repairSecondsPerMember = -1;
    private double imageSeconds = -1;
    private long repairedRelationships;
    private long repairedComments;
    private final List<String> notes = new ArrayList<>();
    private final List<RunResult> results = new ArrayList<>();

    RatingRunner(DataStore store, String storeName, Map<String, String> storeSettings, GraphState state,
                 WorkloadSpec workload, EmulatorConfig template, Duration beta, ValidationOptions validation, Path dir,
                 PrintWriter err, Reset reset, int loaders) {
        this.store = store;
        this.storeName = storeName;
        this.storeSettings = storeSettings;
        this.state = state;
        this.graph = state.graph();
        this.workload = workload;
        this.template = template;
        this.beta = beta;
        this.validation = validation;
        this.dir = dir;
        this.err = err;
        this.reset = reset;
        this.loaders = loaders;
    }

    /** Takes the image the rating restores from, when the store has one and resets may use it. */
    void prepareImage() {
        if (reset == Reset.LOADFREE || reset == Reset.RELOAD) {
            return;
        }
        Optional<StoreImage> image = store.image();
        if (image.isPresent() && !image.get().exists()) {
            if (state.touchedMembers() > 0) {
                err.println("bg: the store is not in its freshly loaded state; reloading it before taking its image");
                LoadCommand.load(store, graph, loaders, true, err);
                state = new GraphState(graph);
            }
            long t0 = System.nanoTime();
            image.get().save();
            err.printf(Locale.ROOT, "bg: saved a database image of the loaded store in %.1f s%n",
                    (System.nanoTime() - t0) / 1e9);
        }
    }

    @Override
    public Measurement run(int threads, Duration duration) {
        if (count > 0) {
            resetStore();
        }
        count++;
        EmulatorConfig ec = new EmulatorConfig(threads, duration, 0, template.warmup(), template.warmupOperations(),
                template.thinkTimeMs(), template.interArrivalMs(), template.topK(), template.commentLength(),
                template.locks(), template.uniqueSocialites(), template.seed() + count, template.threadKind());
        Path out = dir.resolve(String.format(Locale.ROOT, "%02d-T%d.json", count, threads));
        err.printf(Locale.ROOT, "bg: experiment %d: T=%d for %s%n", count, threads,
                org.bgbench.model.Durations.format(duration));
        Experiment.Outcome o = Experiment.run(new Experiment.Setup(store, storeName, storeSettings, state, workload, ec,
                beta, out, null, validation));
        RunResult r = o.result();
        results.add(r);
        KindResult total = r.total();
        Object u = r.unpredictable() == null ? null : r.unpredictable().get("pct");
        double unpredictable = u == null ? 0 : ((Number) u).doubleValue();
        lastErrors = total.errors() > 0 || r.sessions().values().stream().anyMatch(k -> k.errors() > 0);
        lastClean = unpredictable == 0 && !lastErrors;
        if (!o.run().completed()) {
            throw new org.bgbench.store.StoreException("experiment " + count + " at T=" + threads + " stopped: "
                    + o.run().abortReason());
        }
        Double within = total.withinBetaPctCountingErrors();
        return new Measurement(r.throughput(), within == null ? 0 : Math.max(0, Math.min(100, within)),
                Math.max(0, Math.min(100, unpredictable)), total.errors(), total.count(), r.durationS());
    }

    private void resetStore() {
        long t0 = System.nanoTime();
        boolean loadFree = workload.mix().writeFraction() == 0
                || (workload.mix().isSymmetric() && lastClean);
        Optional<StoreImage> image = store.image().filter(StoreImage::exists);
        String how;
        if (reset == Reset.LOADFREE || (reset == Reset.AUTO && loadFree)) {
            how = "loadfree";
        } else {
            how = restore(choose(image.isPresent()), image);
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        resets.merge(how, 1, Integer::sum);
        resetSecondsBy.merge(how, seconds, Double::sum);
        resetSeconds += seconds;
    }

    private Reset choose(boolean imageExists) {
        boolean repairable = !lastErrors;
        if (reset == Reset.REPAIR && !repairable) {
            notes.add("experiment " + count + " counted errors, so its writes cannot be undone safely; restored by "
                    + (imageExists ? "the image" : "a reload") + " instead of RepairDB");
        }
        if (reset != Reset.AUTO) {
            return reset == Reset.REPAIR && !repairable ? (imageExists ? Reset.IMAGE : Reset.RELOAD)
                    : reset == Reset.IMAGE && !imageExists ? Reset.RELOAD : reset;
        }
        if (repairable && repairSecondsPerMember < 0) {
            return Reset.REPAIR;
        }
        if (imageExists && imageSeconds < 0) {
            return Reset.IMAGE;
        }
        double repair = repairable ? repairSecondsPerMember * state.touchedMembers() : Double.POSITIVE_INFINITY;
        double restore = imageExists ? imageSeconds : Double.POSITIVE_INFINITY;
        if (repair <= restore && repairable) {
            return Reset.REPAIR;
        }
        return imageExists ? Reset.IMAGE : Reset.RELOAD;
    }

    /** Brings the store back to the generated graph; returns how, e.g. {@code repair} or {@code repair+image}. */
    private String restore(Reset how, Optional<StoreImage> image) {
        if (how == Reset.REPAIR) {
            int touched = state.touchedMembers();
            long t0 = System.nanoTime();
            RepairDb.Report r = RepairDb.undo(store, state, Math.max(2, loaders));
            repairSecondsPerMember = (System.nanoTime() - t0) / 1e9 / Math.max(1, touched);
            repairedRelationships += r.relationships();
            repairedComments += r.comments();
            if (r.verified()) {
                state = new GraphState(graph);
                return "repair";
            }
            notes.add("RepairDB after experiment " + count + " left the store different from the generated graph ("
                    + r.mismatches().get(0) + "); restored it another way");
            return "repair+" + restore(image.isPresent() ? Reset.IMAGE : Reset.RELOAD, image);
        }
        if (how == Reset.IMAGE && image.isPresent()) {
            long t0 = System.nanoTime();
            image.get().restore();
            imageSeconds = (System.nanoTime() - t0) / 1e9;
            state = new GraphState(graph);
            return "image";
        }
        LoadCommand.load(store, graph, loaders, true, err);
        state = new GraphState(graph);
        return "reload";
    }

    /** Seconds spent per kind of reset. */
    @Override
    public Map<String, Double> resetSecondsBy() {
        return resetSecondsBy;
    }

    /** Relationships and comments RepairDB restored over the rating. */
    @Override
    public long[] repaired() {
        return new long[] {repairedRelationships, repairedComments};
    }

    /** Fallbacks and other things the rating's reader should know about the resets. */
    @Override
    public List<String> notes() {
        return notes;
    }

    GraphState state() {
        return state;
    }

    double resetSeconds() {
        return resetSeconds;
    }

    @Override
    public Map<String, Integer> resets() {
        return resets;
    }

    List<RunResult> results() {
        return results;
    }
}
