package org.bgbench.validation;

/**
 * One read that observed unpredictable data, for diagnosis.
 *
 * @param action       the read's action code
 * @param actionName   its name
 * @param kind         the item's kind
 * @param item         the item (for a feed read, the member)
 * @param span         when the read started and ended
 * @param observed     the value read; for a feed read (kind {@code LogFormat.KIND_FEED}, item = member) the number of
 *                     shares it showed
 * @param acceptable   the values a serial order could have produced, e.g. {@code [-1..2]} or {@code [0], [5], [7]};
 *                     for a feed read why it is unpredictable and the newest shares it must and may show
 * @param observedFeed for a feed read the share ids it showed, in the store's order; null for item reads
 */
public record UnpredictableRead(
        int action,
        String actionName,
        byte kind,
        long item,
        Span span,
        long observed,
        String acceptable,
        String observedFeed) {

    /** A read's interval, in the log's nanoseconds. */
    public record Span(long startNanos, long endNanos) {}

    public long startNanos() {
        return span.startNanos();
    }

    public long endNanos() {
        return span.endNanos();
    }
}
