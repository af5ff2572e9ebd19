package org.bgbench.store;

/** Where a loader reports rows written, so {@code bg load} can print progress and rows/s. Thread-safe. */
@FunctionalInterface
public interface LoadProgress {
    void rows(long written);

    LoadProgress NONE = n -> {};
}
