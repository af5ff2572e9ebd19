package org.bgbench.cli;

import java.time.Duration;
import org.bgbench.model.Durations;
import org.bgbench.runner.Parameters;
import org.bgbench.runner.RunKeys;
import org.bgbench.workload.WorkloadSpec;

/**
 * {@code bg run}'s length when the command line and the workload's keys leave it open: the measured time (60 s) and
 * a warm-up of a sixth of it, at most {@link #MAX_WARMUP}, so the cold start (the JIT compiling BG's and the client's
 * hot paths, the store's caches and connections filling) stays out of the measured period. USC BG has no warm-up by
 * default; a run that gives {@code --warmup}, {@code -p warmup}, a request count or an arrival schedule keeps its own.
 */
final class RunDefaults {
    /** The longest default warm-up: a few seconds let the JIT and the store's caches settle on a small machine. */
    static final Duration MAX_WARMUP = Duration.ofSeconds(10);

    /**
     * The duration and warm-up a run uses: those given, else the defaults.
     *
     * @param duration the measured time after warm-up, e.g. {@code 30s}
     * @param warmup   the warm-up, a time ({@code 10s}) or a request count; null for the workload's own
     */
    record Timing(String duration, String warmup) {}

    private RunDefaults() {}

    /** The timing of a run given {@code --duration}, {@code --operations} and {@code --warmup} (each may be null). */
    static Timing timing(String duration, Long operations, String warmup, Parameters params, WorkloadSpec ws) {
        boolean ownLength = warmup != null
                || params.has("warmup")
                || operations != null
                || ws.operations() > 0
                || RunKeys.openModel(params) != null;
        if (ownLength) {
            return new Timing(duration, warmup);
        }
        Duration measured;
        String measuredText = duration;
        if (duration != null) {
            measured = Durations.parse("--duration", duration);
        } else if (params.has("maxexecutiontime")) {
            // USC BG's maxexecutiontime includes the warm-up: BG keeps that meaning when the key is given.
            measured = ws.maxExecutionTime();
        } else {
            measured = ws.maxExecutionTime();
            measuredText = measured.isZero() ? null : Durations.format(measured);
        }
        if (measured.isZero() || measured.isNegative()) {
            return new Timing(duration, null);
        }
        Duration warm = measured.dividedBy(6);
        if (warm.compareTo(MAX_WARMUP) > 0) {
            warm = MAX_WARMUP;
        }
        return new Timing(measuredText, warm.toMillis() + "ms");
    }
}
