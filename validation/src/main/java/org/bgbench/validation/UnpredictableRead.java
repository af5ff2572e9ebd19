package org.bgbench.validation;

/**
 * One read that observed unpredictable data, for diagnosis.
 *
 * @param acceptable the values a serial order could have produced, e.g. {@code [-1..2]} or {@code [0], [5], [7]}
 */
public record UnpredictableRead(int action, String actionName, byte kind, long item, long startNanos, long endNanos,
        long observed, String acceptable) {}
