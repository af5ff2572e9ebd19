package org.bgbench.workload;

import java.time.Duration;
import org.bgbench.model.Durations;

/**
 * The warm-up before measurement: nothing, a number of requests (USC BG's {@code warmup}), or a time.
 * Requests issued during warm-up are excluded from every figure.
 */
public sealed interface Warmup {
    /** No warm-up. */
    record None() implements Warmup {}

    /** The first {@code requests} requests (actions or sessions, all threads together) are warm-up. */
    record Requests(long requests) implements Warmup {
        public Requests {
            if (requests < 1) {
                throw new IllegalArgumentException("warm-up requests must be at least 1, got " + requests);
            }
        }
    }

    /** The first {@code duration} of the run is warm-up. */
    record Time(Duration duration) implements Warmup {
        public Time {
            if (duration.isNegative() || duration.isZero()) {
                throw new IllegalArgumentException("warm-up time must be positive, got " + duration);
            }
        }
    }

    Warmup NONE = new None();

    /** E.g. {@code none}, {@code 1000 requests}, {@code 30s}. */
    default String describe() {
        return switch (this) {
            case None n -> "none";
            case Requests r -> r.requests() + " requests";
            case Time t -> Durations.format(t.duration());
        };
    }
}
