package org.bgbench.runner;

import java.time.Duration;
import java.util.Locale;
import org.bgbench.emulator.open.ArrivalSchedule;
import org.bgbench.model.Durations;
import org.bgbench.model.InvalidParameterException;

/**
 * The open model's settings of an experiment (docs/open-model.md): the arrival schedule ({@code --arrivals}), how
 * arrivals are spaced ({@code --arrival-process}), and the bound beyond which BG counts itself behind its schedule
 * ({@code --max-lag}, {@code --max-late-pct}: by default, as LDBC's driver, a run in which more than 5 % of arrivals
 * started more than 1 s late is invalid). Plain data, so it travels to workers as JSON.
 *
 * @param arrivals   the schedule as given: {@code 1000} or {@code 1000:30s,2000:30s,ramp:4000:60s}
 * @param process    {@code constant} or {@code poisson}
 * @param maxLag     an arrival starting later than this after its due time is late
 * @param maxLatePct the run is invalid when more than this % of arrivals are late
 */
public record OpenModel(String arrivals, String process, Duration maxLag, double maxLatePct) {
    public static final Duration DEFAULT_MAX_LAG = Duration.ofSeconds(1);
    public static final double DEFAULT_MAX_LATE_PCT = 5;

    public OpenModel {
        if (process == null) {
            process = "constant";
        }
        if (maxLag == null) {
            maxLag = DEFAULT_MAX_LAG;
        }
        if (!maxLag.isPositive()) {
            throw new InvalidParameterException("--max-lag", "must be longer than 0, got " + Durations.format(maxLag));
        }
        if (!(maxLatePct >= 0 && maxLatePct < 100)) {
            throw new InvalidParameterException(
                    "--max-late-pct", "must be from 0 up to (not including) 100, got " + maxLatePct);
        }
        ArrivalSchedule s = ArrivalSchedule.parse(arrivals, process);
        process = s.process().name().toLowerCase(Locale.ROOT);
    }

    /** Settings with the default bounds. */
    public static OpenModel of(String arrivals, String process) {
        return new OpenModel(arrivals, process, DEFAULT_MAX_LAG, DEFAULT_MAX_LATE_PCT);
    }

    public ArrivalSchedule schedule() {
        return ArrivalSchedule.parse(arrivals, process);
    }

    /** The same settings at another schedule (a rating's next rate, a worker's share). */
    public OpenModel withArrivals(String schedule) {
        return new OpenModel(schedule, process, maxLag, maxLatePct);
    }

    /** A worker's share: every rate times {@code factor}. */
    public OpenModel scaled(double factor) {
        return withArrivals(schedule().scaled(factor).text());
    }
}
