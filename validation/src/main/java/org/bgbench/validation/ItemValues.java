package org.bgbench.validation;

/**
 * The value of an item before the logged writes or after them, as {@link ValueMode} says: for BG its initial database
 * state or its in-memory expected state at the end of the run. Called from several validation threads at once, at most
 * once per item that was read or written; it must be thread-safe and must not block for long.
 */
@FunctionalInterface
public interface ItemValues {
    long value(byte kind, long item);
}
