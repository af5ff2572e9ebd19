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
 * error, so BG's expected state still describes the store), restored from a database image (DBIL), or reloaded.
 * Each experiment's result JSON is written beside the rating's as it finishes.
 */
final class RatingRunner implements ExperimentRunner {
    /** How the store is reset between experiments. */
    enum Reset {
        AUTO, LOADFREE, IMAGE, RELOAD;

        static Reset parse(String s) {
            try {
                return valueOf(s.trim().toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new org.bgbench.model.InvalidParameterException("--reset",
                        "expected auto, loadfree, image or reload, got '" + s + "'");
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
    private int count;
    /** Time spent resetting the store (ν·ω of the rating-time model) and how each reset was done. */
    private double resetSeconds;
    private final Map<String, Integer> resets = new LinkedHashMap<>();
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
                org.bgbench.workload.Durations.format(duration));
        Experiment.Outcome o = Experiment.run(new Experiment.Setup(store, storeName, storeSettings, state, workload, ec,
                beta, out, null, validation));
        RunResult r = o.result();
        results.add(r);
        KindResult total = r.total();
        Object u = r.unpredictable() == null ? null : r.unpredictable().get("pct");
        double unpredictable = u == null ? 0 : ((Number) u).doubleValue();
        lastClean = unpredictable == 0 && total.errors() == 0;
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
        String how;
        boolean loadFree = workload.mix().writeFraction() == 0
                || (workload.mix().isSymmetric() && lastClean);
        Optional<StoreImage> image = store.image().filter(StoreImage::exists);
        if (reset == Reset.LOADFREE || (reset == Reset.AUTO && loadFree)) {
            how = "loadfree";
        } else if (image.isPresent() && reset != Reset.RELOAD) {
            image.get().restore();
            state = new GraphState(graph);
            how = "image";
        } else {
            LoadCommand.load(store, graph, loaders, true, err);
            state = new GraphState(graph);
            how = "reload";
        }
        resets.merge(how, 1, Integer::sum);
        resetSeconds += (System.nanoTime() - t0) / 1e9;
    }

    GraphState state() {
        return state;
    }

    double resetSeconds() {
        return resetSeconds;
    }

    Map<String, Integer> resets() {
        return resets;
    }

    List<RunResult> results() {
        return results;
    }
}
