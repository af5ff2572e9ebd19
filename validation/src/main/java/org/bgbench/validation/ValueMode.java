package org.bgbench.validation;

/** What {@link ItemValues} returns. */
public enum ValueMode {
    /** The value before the first logged write. */
    INITIAL,
    /**
     * The value after the last logged write. The initial value of an item is then its final value minus the sum of
     * its logged deltas. An item with absolute writes has no such inverse: reads of it that only the (unknown) initial
     * value could explain are counted as skipped, not checked.
     */
    FINAL
}
