package org.bgbench.rating;

/**
 * The break-even point of a physical design change [CIKM 2013 section H]: a change that speeds reads up by a factor X
 * may slow writes down by at most Y before the average service time of the workload is worse than before.
 *
 * <p>With u the fraction of write actions, Q̄ and Ū the mean service times of reads and writes under the first
 * (Basic) design, the mean service time is S = u·Ū + (1 − u)·Q̄ (equation 1); under the new design it is
 * S' = u·Y·Ū + (1 − u)·Q̄/X (equation 2), and the two are equal at
 * Y = (X − 1)/X · (1 − u)/u · Q̄/Ū + 1 (equation 3). The model has no queueing: it holds for a lightly loaded store
 * (few threads), which is why {@code bg breakeven} warns about results measured at many threads.
 *
 * @param readMs        Q̄, mean service time of read actions under the Basic design, ms
 * @param writeMs       Ū, mean service time of write actions under the Basic design, ms
 * @param writeFraction u, fraction of actions that write, in [0, 1]
 * @param speedup       X, Basic read time over the new design's read time
 */
public record BreakEven(double readMs, double writeMs, double writeFraction, double speedup) {
    public BreakEven {
        if (!(writeFraction >= 0 && writeFraction <= 1)) {
            throw new IllegalArgumentException("the write fraction u must be in [0, 1], got " + writeFraction);
        }
        if (!(readMs > 0) || !(writeMs > 0) || !(speedup > 0)) {
            throw new IllegalArgumentException(
                    "Q̄, Ū and X must be positive, got Q̄=" + readMs + " Ū=" + writeMs + " X=" + speedup);
        }
    }

    /**
     * Y of equation 3: the write slow-down at which the new design's mean service time equals the Basic one's;
     * {@link Double#POSITIVE_INFINITY} without writes (any slow-down of actions that never run is tolerated) when
     * reads got faster.
     */
    public double tolerableSlowdown() {
        if (writeFraction == 0) {
            return speedup > 1 ? Double.POSITIVE_INFINITY : speedup == 1 ? 1 : Double.NEGATIVE_INFINITY;
        }
        return (speedup - 1) / speedup * (1 - writeFraction) / writeFraction * readMs / writeMs + 1;
    }

    /**
     * Whether equation 3 gives a positive Y. Section H weighs a change that speeds reads up (X &gt; 1); when reads got
     * slower (X &lt; 1) by more than the writes' share of the service time, Y ≤ 0: even writes that take no time would
     * not make up for the reads, so no slow-down, nor any speed-up, of writes breaks even.
     */
    public boolean breaksEven() {
        return tolerableSlowdown() > 0;
    }

    /** S of equation 1: the Basic design's mean service time, ms. */
    public double basicServiceMs() {
        return writeFraction * writeMs + (1 - writeFraction) * readMs;
    }

    /** S of equation 2 for a write slow-down {@code slowdown}: the new design's mean service time, ms. */
    public double newServiceMs(double slowdown) {
        return writeFraction * slowdown * writeMs + (1 - writeFraction) * readMs / speedup;
    }
}
