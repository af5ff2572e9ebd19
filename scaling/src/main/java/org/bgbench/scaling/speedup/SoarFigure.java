package org.bgbench.scaling.speedup;

/**
 * A configuration's SoAR as its rating reported it, with whether the figure is only a lower bound (the rating's search
 * reached max-threads with the SLA still met, or it stopped early).
 *
 * @param actionsPerSecond the SoAR in actions/s
 * @param threads          T at SoAR
 * @param status           the SoAR's status label (confirmed, unconfirmed, zero, …), or null when unknown
 * @param lowerBound       why the SoAR is only a lower bound, as the rating said it ({@code lower_bound_reason}), or
 *                         null when it is exact
 */
public record SoarFigure(double actionsPerSecond, int threads, String status, String lowerBound) {
    /** An exact SoAR, no bound. */
    public static SoarFigure exact(double actionsPerSecond, int threads, String status) {
        return new SoarFigure(actionsPerSecond, threads, status, null);
    }

    /** Whether the SoAR is only a lower bound ("≥"). */
    public boolean isLowerBound() {
        return lowerBound != null;
    }
}
