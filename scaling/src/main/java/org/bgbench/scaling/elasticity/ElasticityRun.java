package org.bgbench.scaling.elasticity;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.DoubleSupplier;
import org.bgbench.scaling.elasticity.SetPoint.Phase;

/**
 * The elasticity paper's methodology (section 2.2) as one run: request sets back to back on a constant number of
 * threads; after the baseline's points, the median delta time; then the add, and points until the store is stable
 * again (the add ended, the store's own check passed if one was given, and the last X delta times within the
 * baseline's median); then the stable points that give Av2 and Rt2; then the score.
 */
public final class ElasticityRun {
    private final ElasticityPlan plan;
    private final RequestSets sets;
    private final DoubleSupplier clock;
    private final BooleanSupplier stop;
    private long seed;

    /**
     * @param clock seconds on a monotonic clock (the test's times, and the add's, count from its reading after the warm-up)
     * @param stop  true when the user asked to stop (Ctrl-C): the run ends after the current set, keeping its points
     * @param seed  the first set's seed; each set draws its members with the next one
     */
    public ElasticityRun(ElasticityPlan plan, RequestSets sets, DoubleSupplier clock, BooleanSupplier stop, long seed) {
        this.plan = plan;
        this.sets = sets;
        this.clock = clock;
        this.stop = stop;
        this.seed = seed;
    }

    /**
     * Runs the test.
     *
     * @param growth   how nodes are added, or null for a baseline only (the stable phase at one size: its average is
     *                 what the scalability score compares)
     * @param progress receives the result so far after every point (so an interrupted or failed run keeps its points)
     */
    public ElasticityResult run(Growth growth, Consumer<ElasticityResult> progress) {
        double t0;
        List<SetPoint> points = new ArrayList<>();
        ElasticityResult.Builder r = ElasticityResult.builder(plan);
        // Warm-up sets (BG's code, the store's caches and connections) are run and not recorded.
        for (int i = 0; i < plan.warmupSets(); i++) {
            if (stop.getAsBoolean()) {
                return r.status(ElasticityResult.Status.INTERRUPTED, "stopped during the warm-up")
                        .build(points);
            }
            sets.run(plan.requests(), plan.threads(), seed++);
        }
        t0 = clock.getAsDouble();
        for (int i = 0; i < plan.baseline(); i++) {
            if (!point(points, t0, Phase.BASELINE, r, progress)) {
                return r.status(ElasticityResult.Status.INTERRUPTED, "stopped during the baseline")
                        .build(points);
            }
        }
        double median = DeltaStability.medianDelta(points);
        r.medianDelta(median);
        if (growth == null) {
            ElasticityResult done =
                    r.status(ElasticityResult.Status.BASELINE_ONLY, null).build(points);
            progress.accept(done);
            return done;
        }
        double addAt = clock.getAsDouble() - t0;
        r.addAt(addAt);
        double start = t0;
        growth.begin(() -> clock.getAsDouble() - start);
        Double addedAt = null;
        Double settledAt = null;
        int transition = 0;
        while (true) {
            if (!point(points, t0, Phase.TRANSITION, r.steps(growth.steps()), progress)) {
                return r.status(ElasticityResult.Status.INTERRUPTED, "stopped before the store was stable again")
                        .build(points);
            }
            transition++;
            if (addedAt == null && growth.ended()) {
                addedAt = clock.getAsDouble() - t0;
                r.steps(growth.steps());
                if (growth.failure() != null) {
                    return r.status(ElasticityResult.Status.ADD_FAILED, growth.failure())
                            .build(points);
                }
            }
            if (addedAt != null && settledAt == null && growth.settled()) {
                settledAt = clock.getAsDouble() - t0;
                r.settledAt(settledAt);
            }
            // Only points that started once the nodes were added and their data settled can show the new stable level.
            if (settledAt != null
                    && DeltaStability.endsStable(points, settledAt, median * plan.margin(), plan.window())) {
                break;
            }
            if (transition >= plan.maxPoints()) {
                return r.status(
                                ElasticityResult.Status.UNSTABLE,
                                "not stable again within " + plan.maxPoints()
                                        + " points after the add (--max-points)"
                                        + (plan.margin() <= 1
                                                ? "; with noise alone the "
                                                        + "paper's rule (--margin 1) needs a median of 30 points and one time in ten over 300: "
                                                        + "--margin 2 needs 6 (docs/scaling.md)"
                                                : ""))
                        .build(points);
            }
        }
        double stableAt = points.get(points.size() - 1).end();
        r.stableAt(stableAt);
        for (int i = 0; i < plan.after(); i++) {
            if (!point(points, t0, Phase.STABLE, r, progress)) {
                return r.status(
                                ElasticityResult.Status.INTERRUPTED,
                                "stopped while measuring the stable phase after " + "the add")
                        .build(points);
            }
        }
        List<SetPoint> before =
                points.stream().filter(p -> p.phase() == Phase.BASELINE).toList();
        List<SetPoint> after =
                points.stream().filter(p -> p.phase() == Phase.STABLE).toList();
        r.score(ElasticityScore.of(before, points, after, addAt, stableAt, plan.interpolation()));
        ElasticityResult done = r.status(ElasticityResult.Status.STABLE, null).build(points);
        progress.accept(done);
        return done;
    }

    /** Runs one point (the plan's repeats of a request set); false when stopped first. */
    private boolean point(
            List<SetPoint> points,
            double t0,
            Phase phase,
            ElasticityResult.Builder r,
            Consumer<ElasticityResult> progress) {
        double start = clock.getAsDouble() - t0;
        double[] times = new double[plan.repeats()];
        double latency = 0;
        long requests = 0;
        long errors = 0;
        for (int i = 0; i < plan.repeats(); i++) {
            if (stop.getAsBoolean()) {
                return false;
            }
            RequestSets.SetRun s = sets.run(plan.requests(), plan.threads(), seed++);
            times[i] = s.seconds();
            latency += s.meanLatency() * plan.requests();
            requests += plan.requests();
            errors += s.errors();
        }
        points.add(SetPoint.of(points.size(), start, clock.getAsDouble() - t0, times, latency / requests, phase));
        r.errors(errors);
        progress.accept(r.build(points));
        return true;
    }
}
