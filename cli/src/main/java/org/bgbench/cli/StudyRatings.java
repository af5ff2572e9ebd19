package org.bgbench.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Stream;
import org.bgbench.rating.LocalSearch;
import org.bgbench.rating.RatingSettings;
import org.bgbench.rating.Sla;
import org.bgbench.rating.Target;
import org.bgbench.runner.ExperimentSpec;
import org.bgbench.runner.Interrupts;
import org.bgbench.runner.LocalStore;
import org.bgbench.runner.ValidationOptions;
import org.bgbench.runner.rating.LocalExecutor;
import org.bgbench.runner.rating.ResetPolicy;
import org.bgbench.store.ErrorText;
import org.bgbench.study.PointExecutor;
import org.bgbench.study.RatingOptions;
import org.bgbench.study.StudyPlan;
import org.bgbench.workload.WorkloadSpec;

/**
 * A rate study's points: each one rating by BG's rating engine, as {@code bg rate} rates a loaded store, with the
 * study's rating options for its group, in the point's own directory (rating.json, its experiments, its report). The
 * store is reset between ratings as between a run study's points; a rating stopped by Ctrl-C is not a measurement.
 */
final class StudyRatings implements PointExecutor.Session {
    private final LocalStore store;
    private final StudyPlan.Group group;
    private final Function<String, ExperimentSetup> setupOfMix;
    private final int loaders;
    private final String method;
    private final PrintWriter err;
    private boolean rated;

    /**
     * @param store      the group's open store, holding the graph
     * @param group      the group, with its rating options
     * @param setupOfMix the experiment setup of the group's keys with a mix
     * @param loaders    the loaders of a reload
     * @param method     how the store is reset between ratings (an image, else RepairDB)
     * @param err        where the ratings' lines go
     */
    StudyRatings(
            LocalStore store,
            StudyPlan.Group group,
            Function<String, ExperimentSetup> setupOfMix,
            int loaders,
            String method,
            PrintWriter err) {
        this.store = store;
        this.group = group;
        this.setupOfMix = setupOfMix;
        this.loaders = loaders;
        this.method = method;
        this.err = err;
    }

    @Override
    public PointExecutor.Outcome run(StudyPlan.Point point, Path result) throws Exception {
        if (rated || store.state().changed()) {
            SweepCommand.resetStore(method, store, loaders, err);
        }
        rated = true;
        RatingOptions o = group.rating();
        Path dir = result.getParent();
        // A rating left by an interrupted run is not resumed: the point is rated from the start.
        deleteTree(dir);
        Files.createDirectories(dir);
        ExperimentSetup ps = setupOfMix.apply(point.mix());
        WorkloadSpec ws = ps.plan().workload();
        Sla sla = o.parsedSla();
        ValidationOptions v = ps.validation();
        ValidationOptions quiet = v == null
                ? null
                : new ValidationOptions(v.memoryBytes(), v.threads(), v.buckets(), sla.tauPct(), false);
        ExperimentSpec template = ps.timed(ws, 1, o.delta(), o.warmup(), sla.beta(), quiet);
        RatingSettings settings = RatingSettings.builder(sla)
                .experimentDuration(o.delta())
                .climbingFactor(o.search().climbingFactor())
                .localSearch(o.search().method().equals("approximate") ? LocalSearch.APPROXIMATE : LocalSearch.OPTIMAL)
                .targets(targets(o.target()))
                .confirm(o.confirm())
                .maxThreads(o.search().maxThreads())
                .build();
        ResetPolicy policy = new ResetPolicy(ResetPolicy.Mode.parse(o.reset()));
        Map<String, Object> extra = new LinkedHashMap<>();
        extra.put("store", group.store().store());
        extra.put("workload", ws.mixName());
        extra.put("study_point", point.key());
        extra.put("reset", o.reset());
        RateModels rating = new RateModels(
                new RateModels.Which(true, false),
                settings,
                new RateModels.OpenOptions(null, null, 1, "constant"),
                new RateModels.Report(group.store().store(), ws.mixName(), dir, System.nanoTime(), extra));
        int rc;
        try {
            rc = rating.run(
                    err,
                    err,
                    new RateModels.Bench(new LocalExecutor(store, ws, loaders, err), ws, template, policy, false));
        } catch (RuntimeException e) {
            if (Interrupts.interrupted()) {
                return new PointExecutor.Outcome(PointExecutor.Status.INTERRUPTED, Interrupts.reason());
            }
            return new PointExecutor.Outcome(
                    PointExecutor.Status.FAILED, "the rating failed (" + ErrorText.message(e) + ")");
        }
        if (Interrupts.interrupted()) {
            return new PointExecutor.Outcome(PointExecutor.Status.INTERRUPTED, Interrupts.reason());
        }
        if (rc != 0) {
            return new PointExecutor.Outcome(
                    PointExecutor.Status.FAILED, "the rating did not complete (" + dir.resolve("rating.json") + ")");
        }
        return PointExecutor.Outcome.done();
    }

    private static Set<Target> targets(String target) {
        return switch (target.toLowerCase(Locale.ROOT)) {
            case "soar" -> EnumSet.of(Target.SOAR);
            case "socialites" -> EnumSet.of(Target.SOCIALITES);
            default -> EnumSet.allOf(Target.class);
        };
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> all = Files.walk(dir)) {
            all.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.delete(p);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
    }

    @Override
    public void close() {
        store.close();
    }
}
