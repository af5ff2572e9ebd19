package org.bgbench.validation;

/**
 * One read that observed unpredictable data, for diagnosis.
 *
 * @param observed     the value read; for a feed read (kind {@code LogFormat.KIND_FEED}, item = member) the number of
 *                     shares it showed
 * @param acceptable   the values a serial order could have produced, e.g. {@code [-1..2]} or {@code [0], [5], [7]};
 *                     for a feed read why it is unpredictable and the newest shares it must and may show
 * @param observedFeed for a feed read the share ids it showed, in the store's order; null for item reads
 */
public record UnpredictableRead(int action, String actionName, byte kind, long item, long startNanos, long endNanos,
        long observed, String acceptable, String observedFeed) {
    public UnpredictableRead(int action, String actionName, byte kind, long item, long startNanos, long endNanos,
            long observed, String acceptable) {
        this(action, actionName, kind, item, startNanos, endNanos, observed, acceptable, null);
    }
}
