package org.bgbench.scaling.elasticity;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What an elasticity test measured, complete or not: every point, the add commands' runs, the stability figures and
 * the score when the store became stable again.
 *
 * @param plan    the test's parameters
 * @param points  every point, in order
 * @param steps   the add commands' runs
 * @param moments the baseline's median delta and when the add began, settled and became stable
 * @param score   the score, or null when the store did not become stable again
 * @param ending  how the test ended, and the errors over it
 */
public record ElasticityResult(
        ElasticityPlan plan,
        List<SetPoint> points,
        List<Growth.Step> steps,
        Moments moments,
        ElasticityScore score,
        Ending ending) {

    /**
     * The moments of a test.
     *
     * @param medianDelta the baseline's median delta time, s (null before the baseline ended)
     * @param addAt       seconds since the start when the add began (null for a baseline only)
     * @param settledAt   when the add had ended and the store reported its data settled
     * @param stableAt    when the last of the X points within the median delta ended: the stable moment
     */
    public record Moments(Double medianDelta, Double addAt, Double settledAt, Double stableAt) {}

    /**
     * How a test ended.
     *
     * @param status its status
     * @param reason why, or null
     * @param errors requests the store failed over the whole test
     */
    public record Ending(Status status, String reason, long errors) {}

    /** How the test ended. */
    public enum Status {
        STABLE,
        BASELINE_ONLY,
        UNSTABLE,
        ADD_FAILED,
        INTERRUPTED,
        RUNNING;

        public String label() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }
    }

    /** Seconds from the add to the stable moment, or null. */
    public Double stabilisationSeconds() {
        return addAt() != null && stableAt() != null ? stableAt() - addAt() : null;
    }

    /** Seconds from the add until the add ended and the store reported its data settled, or null. */
    public Double transferSeconds() {
        return addAt() != null && settledAt() != null ? settledAt() - addAt() : null;
    }

    /** The mean set time of the baseline: Average_N of the scalability score. */
    public double baselineAverage() {
        return ScalabilityScore.average(points.stream()
                .filter(p -> p.phase() == SetPoint.Phase.BASELINE)
                .toList());
    }

    /** The result as the JSON BG writes (docs/scaling.md), with {@code about} (store, nodes, …) first. */
    public Map<String, Object> toMap(Map<String, Object> about) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("kind", "elasticity");
        m.putAll(about);
        m.put("status", status().label());
        if (reason() != null) {
            m.put("reason", reason());
        }
        m.put("requestSet", plan.requests());
        m.put("repeats", plan.repeats());
        m.put("threads", plan.threads());
        m.put("warmupSets", plan.warmupSets());
        m.put("window", plan.window());
        m.put("margin", plan.margin());
        m.put("interpolation", plan.interpolation().name().toLowerCase(Locale.ROOT));
        List<Map<String, Object>> ps = new ArrayList<>();
        for (SetPoint p : points) {
            Map<String, Object> q = new LinkedHashMap<>();
            q.put("t", p.end());
            q.put("start", p.start());
            q.put("mean", p.mean());
            q.put("sd", p.sd());
            q.put("n", p.n());
            q.put("meanLatency", p.meanLatency());
            q.put("phase", p.phase().label());
            ps.add(q);
        }
        m.put("points", ps);
        List<Map<String, Object>> adds = new ArrayList<>();
        for (Growth.Step s : steps) {
            Map<String, Object> a = new LinkedHashMap<>();
            a.put("t", s.start());
            a.put("command", s.command());
            a.put("exitCode", s.exitCode());
            a.put("seconds", s.end() >= s.start() ? s.end() - s.start() : null);
            adds.add(a);
        }
        m.put("adds", adds);
        m.put("addAt", addAt());
        m.put("settledAt", settledAt());
        m.put("stableAt", stableAt());
        m.put("transferSeconds", transferSeconds());
        m.put("stabilisationSeconds", stabilisationSeconds());
        m.put("medianDelta", medianDelta());
        m.put("errors", errors());
        if (score != null) {
            m.put("score", score.toMap());
        }
        return m;
    }

    static Builder builder(ElasticityPlan plan) {
        return new Builder(plan);
    }

    /** Collects the figures as the run goes. */
    static final class Builder {
        private final ElasticityPlan plan;
        private Double medianDelta;
        private Double addAt;
        private List<Growth.Step> steps = List.of();
        private Double settledAt;
        private Double stableAt;
        private ElasticityScore score;
        private Status status = Status.RUNNING;
        private String reason;
        private long errors;

        Builder(ElasticityPlan plan) {
            this.plan = plan;
        }

        Builder medianDelta(double d) {
            medianDelta = d;
            return this;
        }

        Builder addAt(double t) {
            addAt = t;
            return this;
        }

        Builder steps(List<Growth.Step> s) {
            steps = List.copyOf(s);
            return this;
        }

        Builder settledAt(double t) {
            settledAt = t;
            return this;
        }

        Builder stableAt(double t) {
            stableAt = t;
            return this;
        }

        Builder score(ElasticityScore s) {
            score = s;
            return this;
        }

        Builder errors(long e) {
            errors += e;
            return this;
        }

        Builder status(Status s, String why) {
            status = s;
            reason = why;
            return this;
        }

        ElasticityResult build(List<SetPoint> points) {
            return new ElasticityResult(
                    plan,
                    List.copyOf(points),
                    steps,
                    new Moments(medianDelta, addAt, settledAt, stableAt),
                    score,
                    new Ending(status, reason, errors));
        }
    }

    public Double medianDelta() {
        return moments.medianDelta();
    }

    public Double addAt() {
        return moments.addAt();
    }

    public Double settledAt() {
        return moments.settledAt();
    }

    public Double stableAt() {
        return moments.stableAt();
    }

    public Status status() {
        return ending.status();
    }

    public String reason() {
        return ending.reason();
    }

    public long errors() {
        return ending.errors();
    }
}
