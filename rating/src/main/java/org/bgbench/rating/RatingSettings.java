package org.bgbench.rating;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.UnaryOperator;
import org.bgbench.model.Durations;
import org.bgbench.model.InvalidParameterException;

/**
 * How to rate: the SLA, δ, the climbing factor, the local search and the safety limits. Build with
 * {@link #builder(Sla)}; invalid values throw {@link InvalidParameterException} naming the setting (the names below,
 * which a command line can use as option names).
 */
public final class RatingSettings {
    /** Setting names, as used in error messages and {@link #toMap()}. */
    public static final String EXPERIMENT_DURATION = "delta";

    public static final String CLIMBING_FACTOR = "climbing-factor";
    public static final String MAX_THREADS = "max-threads";
    public static final String MAX_EXPERIMENTS = "max-experiments";
    public static final String THROUGHPUT_TOLERANCE = "throughput-tolerance";
    public static final String WITHIN_BETA_TOLERANCE = "within-beta-tolerance";
    public static final String CONFIRMATION_TOLERANCE = "confirmation-tolerance";
    public static final String TARGETS = "targets";

    private final Sla sla;
    private final Duration experimentDuration;
    private final double climbingFactor;
    private final boolean adaptiveClimbing;
    private final LocalSearch localSearch;
    private final Set<Target> targets;
    private final boolean confirm;
    private final int maxThreads;
    private final int maxExperiments;
    private final double throughputTolerancePct;
    private final double withinBetaTolerancePct;
    private final double confirmationTolerancePct;
    private final UnaryOperator<String> wording;

    private RatingSettings(Builder b) {
        this.wording = b.wording;
        this.sla = b.sla;
        this.experimentDuration = b.experimentDuration == null ? b.sla.duration() : b.experimentDuration;
        this.climbingFactor = b.climbingFactor;
        this.adaptiveClimbing = b.adaptiveClimbing;
        this.localSearch = b.localSearch;
        this.targets = b.targets.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(b.targets));
        this.confirm = b.confirm;
        this.maxThreads = b.maxThreads;
        this.maxExperiments = b.maxExperiments;
        this.throughputTolerancePct = b.throughputTolerancePct;
        this.withinBetaTolerancePct = b.withinBetaTolerancePct;
        this.confirmationTolerancePct = b.confirmationTolerancePct;
        sla.checkExperimentDuration(EXPERIMENT_DURATION, experimentDuration);
        if (!(climbingFactor > 1 && climbingFactor <= 1024)) {
            throw new InvalidParameterException(
                    CLIMBING_FACTOR,
                    "the climbing factor r must be a number above 1 " + "(and at most 1024) such as 2, got "
                            + climbingFactor);
        }
        if (maxThreads < 1) {
            throw new InvalidParameterException(MAX_THREADS, "must be at least 1, got " + maxThreads);
        }
        if (maxExperiments < 1) {
            throw new InvalidParameterException(MAX_EXPERIMENTS, "must be at least 1, got " + maxExperiments);
        }
        tolerance(THROUGHPUT_TOLERANCE, throughputTolerancePct);
        tolerance(WITHIN_BETA_TOLERANCE, withinBetaTolerancePct);
        tolerance(CONFIRMATION_TOLERANCE, confirmationTolerancePct);
        if (targets.isEmpty()) {
            throw new InvalidParameterException(TARGETS, "name at least one of soar, socialites");
        }
    }

    private static void tolerance(String name, double v) {
        if (!(v >= 0 && v <= 100)) {
            throw new InvalidParameterException(name, "must be a percentage from 0 to 100, got " + v);
        }
    }

    /** Settings with the defaults below for {@code sla}. */
    public static Builder builder(Sla sla) {
        return new Builder(sla);
    }

    /** All defaults for {@code sla}: δ = Δ, r = 2, Optimal, both ratings, confirmation on. */
    public static RatingSettings defaults(Sla sla) {
        return builder(sla).build();
    }

    public Sla sla() {
        return sla;
    }

    /** δ, the length of the search's experiments; Δ when not set [dissertation 7.1]. */
    public Duration experimentDuration() {
        return experimentDuration;
    }

    /** r, the factor by which the hill climbing of SoAR multiplies T. */
    public double climbingFactor() {
        return climbingFactor;
    }

    /** Whether r doubles when throughput grew more than r-fold in one climbing step [dissertation 7.1]. */
    public boolean adaptiveClimbing() {
        return adaptiveClimbing;
    }

    public LocalSearch localSearch() {
        return localSearch;
    }

    /** Which ratings to compute. */
    public Set<Target> targets() {
        return targets;
    }

    /** Whether to finish with a run of length Δ at each chosen T (free when δ = Δ: the cache has it). */
    public boolean confirm() {
        return confirm;
    }

    /** The largest T the search will try. */
    /** Rewrites a warning in the words of what the search varies (identity for T). */
    public String words(String warning) {
        return wording.apply(warning);
    }

    public int maxThreads() {
        return maxThreads;
    }

    /** The most experiments the rating will run (not counting cache hits); it stops with a reason beyond. */
    public int maxExperiments() {
        return maxExperiments;
    }

    /** Relative throughput difference (%) below which the assumption checks treat two throughputs as equal. */
    public double throughputTolerancePct() {
        return throughputTolerancePct;
    }

    /** Percentage points by which within-β % may rise with T before it is reported as a contradiction. */
    public double withinBetaTolerancePct() {
        return withinBetaTolerancePct;
    }

    /** Relative difference (%) between the δ and Δ throughput at the chosen T above which δ is reported too short. */
    public double confirmationTolerancePct() {
        return confirmationTolerancePct;
    }

    /** JSON-friendly form with snake_case keys. */
    public Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("sla", sla.toMap());
        m.put("experiment_duration", Durations.format(experimentDuration));
        m.put("experiment_duration_seconds", experimentDuration.toNanos() / 1e9);
        m.put("climbing_factor", climbingFactor);
        m.put("adaptive_climbing", adaptiveClimbing);
        m.put("local_search", localSearch.name().toLowerCase(Locale.ROOT));
        List<String> t = new ArrayList<>();
        for (Target target : Target.values()) {
            if (targets.contains(target)) {
                t.add(target.name().toLowerCase(Locale.ROOT));
            }
        }
        m.put("targets", t);
        m.put("confirm", confirm);
        m.put("max_threads", maxThreads);
        m.put("max_experiments", maxExperiments);
        m.put("throughput_tolerance_pct", throughputTolerancePct);
        m.put("within_beta_tolerance_pct", withinBetaTolerancePct);
        m.put("confirmation_tolerance_pct", confirmationTolerancePct);
        return m;
    }

    /** Builder of {@link RatingSettings}; every setter returns this builder. */
    public static final class Builder {
        private final Sla sla;
        private Duration experimentDuration;
        private double climbingFactor = 2;
        private boolean adaptiveClimbing;
        private LocalSearch localSearch = LocalSearch.OPTIMAL;
        private Set<Target> targets = EnumSet.allOf(Target.class);
        private boolean confirm = true;
        private int maxThreads = 1 << 20;
        private int maxExperiments = 200;
        private double throughputTolerancePct = 5;
        private double withinBetaTolerancePct = 1;
        private double confirmationTolerancePct = 10;
        private UnaryOperator<String> wording = UnaryOperator.identity();

        private Builder(Sla sla) {
            this.sla = Objects.requireNonNull(sla, "sla");
        }

        /**
         * How warnings name what the search varies (default: as T): the open-model rating's search runs over rate
         * steps, and its warnings say rates ({@link RatingReport.Axis#words}).
         */
        public Builder wording(UnaryOperator<String> words) {
            this.wording = Objects.requireNonNull(words, "words");
            return this;
        }

        /** δ (default Δ): must be positive, longer than β and not longer than Δ. */
        public Builder experimentDuration(Duration delta) {
            this.experimentDuration = delta;
            return this;
        }

        /** r (default 2), above 1; need not be an integer (T becomes ⌈r·T⌉, at least T + 1). */
        public Builder climbingFactor(double r) {
            this.climbingFactor = r;
            return this;
        }

        /** Double r whenever throughput grew more than r-fold in a climbing step (default off). */
        public Builder adaptiveClimbing(boolean adaptive) {
            this.adaptiveClimbing = adaptive;
            return this;
        }

        /** Optimal (default) or Approximate. */
        public Builder localSearch(LocalSearch search) {
            this.localSearch = Objects.requireNonNull(search, "localSearch");
            return this;
        }

        /** Which ratings to compute (default both). */
        public Builder targets(Set<Target> which) {
            this.targets = EnumSet.noneOf(Target.class);
            this.targets.addAll(which);
            return this;
        }

        /** Whether to confirm with runs of length Δ (default true). */
        public Builder confirm(boolean confirmRuns) {
            this.confirm = confirmRuns;
            return this;
        }

        /** The largest T to try (default 1,048,576). */
        public Builder maxThreads(int max) {
            this.maxThreads = max;
            return this;
        }

        /** The most experiments to run (default 200). */
        public Builder maxExperiments(int max) {
            this.maxExperiments = max;
            return this;
        }

        /** Relative noise (%) tolerated by the throughput assumption checks (default 5). */
        public Builder throughputTolerancePct(double pct) {
            this.throughputTolerancePct = pct;
            return this;
        }

        /** Percentage points within-β % may rise with T before it is reported (default 1). */
        public Builder withinBetaTolerancePct(double points) {
            this.withinBetaTolerancePct = points;
            return this;
        }

        /** Relative δ-vs-Δ throughput difference (%) tolerated at the confirmation (default 10). */
        public Builder confirmationTolerancePct(double pct) {
            this.confirmationTolerancePct = pct;
            return this;
        }

        public RatingSettings build() {
            return new RatingSettings(this);
        }
    }
}
