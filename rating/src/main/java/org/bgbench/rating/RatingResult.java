package org.bgbench.rating;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What a rating found: SoAR and Socialites (each present when it was a target), every experiment, the warnings, and
 * why it stopped early if it did. {@link #toMap()} gives the JSON form.
 */
public final class RatingResult {
    private final RatingSettings settings;
    private final SoarRating soar;
    private final SocialitesRating socialites;
    private final List<Experiment> experiments;
    private final int experimentsRun;
    private final int cacheHits;
    private final Duration totalTime;
    private final List<String> warnings;
    private final String stopReason;
    private final Throwable stopCause;

    RatingResult(
            RatingSettings settings,
            SoarRating soar,
            SocialitesRating socialites,
            List<Experiment> experiments,
            int experimentsRun,
            int cacheHits,
            Duration totalTime,
            List<String> warnings,
            String stopReason,
            Throwable stopCause) {
        this.settings = Objects.requireNonNull(settings);
        this.soar = soar;
        this.socialites = socialites;
        this.experiments = List.copyOf(experiments);
        this.experimentsRun = experimentsRun;
        this.cacheHits = cacheHits;
        this.totalTime = totalTime;
        this.warnings = List.copyOf(warnings);
        this.stopReason = stopReason;
        this.stopCause = stopCause;
    }

    public RatingSettings settings() {
        return settings;
    }

    public Sla sla() {
        return settings.sla();
    }

    /** The SoAR, present when it was a target. */
    public Optional<SoarRating> soar() {
        return Optional.ofNullable(soar);
    }

    /** The Socialites rating, present when it was a target. */
    public Optional<SocialitesRating> socialites() {
        return Optional.ofNullable(socialites);
    }

    /** Every experiment, resumed ones first, then in the order they ran. */
    public List<Experiment> experiments() {
        return experiments;
    }

    /** Experiments this rating ran (η of dissertation eq. 7.1; resumed ones not counted). */
    public int experimentsRun() {
        return experimentsRun;
    }

    /** Times the search asked for a (T, duration) it already had and took it from the cache instead of running it. */
    public int cacheHits() {
        return cacheHits;
    }

    /** Wall-clock time of the rating. */
    public Duration totalTime() {
        return totalTime;
    }

    /** Sum of the measured seconds of the experiments this rating ran. */
    public double experimentSeconds() {
        double s = 0;
        for (Experiment e : experiments) {
            if (!e.resumed()) {
                s += e.measurement().seconds();
            }
        }
        return s;
    }

    /** Contradicted assumptions, limits reached and other things a reader of the rating should know. */
    public List<String> warnings() {
        return warnings;
    }

    /** Why the rating stopped before it finished; empty when it finished. */
    public Optional<String> stopReason() {
        return Optional.ofNullable(stopReason);
    }

    /** The exception that stopped the rating, if one did (not in the JSON). */
    public Optional<Throwable> stopCause() {
        return Optional.ofNullable(stopCause);
    }

    /** Whether the rating finished (no stop reason). */
    public boolean complete() {
        return stopReason == null;
    }

    /**
     * JSON-friendly form (maps, lists, strings, numbers, booleans, nulls) with snake_case keys: {@code soar},
     * {@code socialites} (null when not a target), {@code experiments}, {@code experiment_count},
     * {@code experiments_run}, {@code cache_hits}, {@code total_seconds}, {@code experiment_seconds},
     * {@code warnings}, {@code complete}, {@code stop_reason}, {@code sla}, {@code settings}.
     */
    public Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("soar", soar == null ? null : soar.toMap());
        m.put("socialites", socialites == null ? null : socialites.toMap());
        List<Object> list = new ArrayList<>();
        for (Experiment e : experiments) {
            list.add(e.toMap());
        }
        m.put("experiments", list);
        m.put("experiment_count", experiments.size());
        m.put("experiments_run", experimentsRun);
        m.put("cache_hits", cacheHits);
        m.put("total_seconds", totalTime.toNanos() / 1e9);
        m.put("experiment_seconds", experimentSeconds());
        m.put("warnings", new ArrayList<>(warnings));
        m.put("complete", complete());
        m.put("stop_reason", stopReason);
        m.put("sla", settings.sla().toMap());
        m.put("settings", settings.toMap());
        return m;
    }
}
