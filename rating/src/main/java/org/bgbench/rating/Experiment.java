package org.bgbench.rating;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.bgbench.model.Durations;

/**
 * One experiment of a rating: its input (T, duration), what it measured and whether it met the SLA.
 *
 * @param index       1-based position among the rating's experiments, in the order they ran
 * @param phase       the step of the search that ran it
 * @param input       T and the requested length
 * @param measurement what the runner measured
 * @param verdict     whether it met the SLA, and why not
 * @param origin      when it ran, how long the runner took, and whether it was resumed
 */
public record Experiment(int index, Phase phase, Input input, Measurement measurement, Verdict verdict, Origin origin) {
    public Experiment {
        Objects.requireNonNull(input, "input");
        Objects.requireNonNull(verdict, "verdict");
        Objects.requireNonNull(origin, "origin");
        Objects.requireNonNull(input.duration(), "duration");
        Objects.requireNonNull(measurement, "measurement");
        Objects.requireNonNull(phase, "phase");
        Objects.requireNonNull(origin.started(), "started");
        verdict = new Verdict(verdict.success(), List.copyOf(verdict.failures()));
        if (input.threads() < 1) {
            throw new IllegalArgumentException("threads must be at least 1, got " + input.threads());
        }
    }

    /**
     * An experiment's input.
     *
     * @param threads  T
     * @param duration the requested length (δ during the search, Δ for the confirmation)
     */
    public record Input(int threads, Duration duration) {}

    /**
     * Whether an experiment met the SLA.
     *
     * @param success  whether it met the SLA
     * @param failures why it did not (empty when it did), see {@link Measurement#failures(Sla)}
     */
    public record Verdict(boolean success, List<String> failures) {}

    /**
     * When and how an experiment ran.
     *
     * @param started     when the runner was called
     * @param wallSeconds how long the runner call took, including whatever the runner does around the run (loading)
     * @param resumed     taken from an earlier rating instead of being run by this one
     */
    public record Origin(Instant started, double wallSeconds, boolean resumed) {}

    public int threads() {
        return input.threads();
    }

    public Duration duration() {
        return input.duration();
    }

    public boolean success() {
        return verdict.success();
    }

    public List<String> failures() {
        return verdict.failures();
    }

    public Instant started() {
        return origin.started();
    }

    public double wallSeconds() {
        return origin.wallSeconds();
    }

    public boolean resumed() {
        return origin.resumed();
    }

    /** Throughput in actions/s. */
    public double throughput() {
        return measurement.throughput();
    }

    /** The same experiment judged against {@code sla}, renumbered and marked as resumed. */
    Experiment resumedAs(int newIndex, Sla sla) {
        List<String> f = measurement.failures(sla);
        return new Experiment(
                newIndex,
                phase,
                input,
                measurement,
                new Verdict(f.isEmpty(), f),
                new Origin(origin.started(), origin.wallSeconds(), true));
    }

    /** JSON-friendly form with snake_case keys; {@link #fromMap(Map)} reads it back. */
    public Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("index", index);
        m.put("phase", phase.label());
        m.put("threads", threads());
        m.put("duration", Durations.format(duration()));
        m.put("duration_seconds", duration().toNanos() / 1e9);
        m.putAll(measurement.toMap());
        m.put("success", success());
        m.put("failures", new ArrayList<>(failures()));
        m.put("started", started().toString());
        m.put("wall_seconds", wallSeconds());
        m.put("resumed", resumed());
        return m;
    }

    /**
     * Reads an experiment written by {@link #toMap()}, e.g. from the JSON of an interrupted rating to resume it.
     * {@code success} and {@code failures} are recomputed by the rating that resumes it, against its own SLA.
     *
     * @throws IllegalArgumentException when a required key is missing or malformed
     */
    public static Experiment fromMap(Map<String, ?> m) {
        Measurement measurement = Measurement.fromMap(m);
        int threads = MapValues.number(m, "threads").intValue();
        Duration duration = m.get("duration_seconds") != null
                ? Duration.ofNanos(
                        Math.round(MapValues.number(m, "duration_seconds").doubleValue() * 1e9))
                : Durations.parse("duration", MapValues.string(m, "duration", ""));
        Object failures = m.get("failures");
        List<String> f = new ArrayList<>();
        if (failures instanceof List<?> list) {
            for (Object o : list) {
                f.add(String.valueOf(o));
            }
        }
        int index = MapValues.number(m, "index", 0).intValue();
        Verdict verdict = new Verdict(MapValues.bool(m, "success", f.isEmpty()), f);
        Phase phase = Phase.parse(MapValues.string(m, "phase", Phase.SOAR_CLIMB.label()));
        Instant started = Instant.parse(MapValues.string(m, "started", Instant.EPOCH.toString()));
        Origin origin = new Origin(
                started, MapValues.number(m, "wall_seconds", 0).doubleValue(), MapValues.bool(m, "resumed", false));
        return new Experiment(index, phase, new Input(threads, duration), measurement, verdict, origin);
    }
}
