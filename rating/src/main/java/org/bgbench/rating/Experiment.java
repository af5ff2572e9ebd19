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
 * @param threads     T
 * @param duration    the requested length (δ during the search, Δ for the confirmation)
 * @param measurement what the runner measured
 * @param success     whether it met the SLA
 * @param failures    why it did not (empty when it did), see {@link Measurement#failures(Sla)}
 * @param phase       the step of the search that ran it
 * @param started     when the runner was called
 * @param wallSeconds how long the runner call took, including whatever the runner does around the run (loading)
 * @param resumed     taken from an earlier rating instead of being run by this one
 */
public record Experiment(int index, int threads, Duration duration, Measurement measurement, boolean success,
                         List<String> failures, Phase phase, Instant started, double wallSeconds, boolean resumed) {
    public Experiment {
        Objects.requireNonNull(duration, "duration");
        Objects.requireNonNull(measurement, "measurement");
        Objects.requireNonNull(phase, "phase");
        Objects.requireNonNull(started, "started");
        failures = List.copyOf(failures);
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be at least 1, got " + threads);
        }
    }

    /** Throughput in actions/s. */
    public double throughput() {
        return measurement.throughput();
    }

    /** The same experiment judged against {@code sla}, renumbered and marked as resumed. */
    Experiment resumedAs(int newIndex, Sla sla) {
        List<String> f = measurement.failures(sla);
        return new Experiment(newIndex, threads, duration, measurement, f.isEmpty(), f, phase, started, wallSeconds,
                true);
    }

    /** JSON-friendly form with snake_case keys; {@link #fromMap(Map)} reads it back. */
    public Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("index", index);
        m.put("phase", phase.label());
        m.put("threads", threads);
        m.put("duration", Durations.format(duration));
        m.put("duration_seconds", duration.toNanos() / 1e9);
        m.putAll(measurement.toMap());
        m.put("success", success);
        m.put("failures", new ArrayList<>(failures));
        m.put("started", started.toString());
        m.put("wall_seconds", wallSeconds);
        m.put("resumed", resumed);
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
                ? Duration.ofNanos(Math.round(MapValues.number(m, "duration_seconds").doubleValue() * 1e9))
                : Durations.parse("duration", MapValues.string(m, "duration", ""));
        Object failures = m.get("failures");
        List<String> f = new ArrayList<>();
        if (failures instanceof List<?> list) {
            for (Object o : list) {
                f.add(String.valueOf(o));
            }
        }
        return new Experiment(MapValues.number(m, "index", 0).intValue(), threads, duration, measurement,
                MapValues.bool(m, "success", f.isEmpty()), f,
                Phase.parse(MapValues.string(m, "phase", Phase.SOAR_CLIMB.label())),
                Instant.parse(MapValues.string(m, "started", Instant.EPOCH.toString())),
                MapValues.number(m, "wall_seconds", 0).doubleValue(), MapValues.bool(m, "resumed", false));
    }
}
