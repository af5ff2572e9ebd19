package org.bgbench.validation;

/** The outcome of checking one read. */
public enum Verdict {
    /** The observed value is one a serial order of the writes could produce. */
    VALID,
    /** Stale, inconsistent or wrong. */
    UNPREDICTABLE,
    /**
     * Not decided and not counted as checked: the acceptable values depend on an initial value that is unknown (final
     * values with absolute writes), or are too many to enumerate (huge general deltas).
     */
    SKIPPED
}
