package org.bgbench.validation;

/**
 * Sees the verdict of every read, e.g. to dump all unpredictable reads. Called concurrently from the validation
 * threads, in no particular order; it must be thread-safe and fast.
 */
@FunctionalInterface
public interface ReadListener {
    void read(byte action, byte kind, long item, long startNanos, long endNanos, long observed, Verdict verdict);
}
