package org.bgbench.store;

/**
 * Where a store reports how far the end of a load got (indexes, keys, statistics), so {@code bg load} can show
 * progress and the time left in a phase that takes as long as the bulk load itself on large graphs. Thread-safe.
 */
@FunctionalInterface
public interface FinishProgress {
    /**
     * @param fraction the share of the finishing work done, 0 to 1, by the store's own estimate
     * @param step     what just finished, in a few words (e.g. an index's statement)
     */
    void done(double fraction, String step);

    FinishProgress NONE = (fraction, step) -> {};
}
