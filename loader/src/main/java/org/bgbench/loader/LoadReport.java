package org.bgbench.loader;

import org.bgbench.store.StoreCounts;

/**
 * What a load did.
 *
 * @param rows        rows (or documents, keys) written, as the store counted them
 * @param loadSeconds time to write the graph through the bulk path
 * @param finishSeconds time to build indexes and statistics after the bulk load
 * @param threads     loader threads
 * @param counts      totals the store reported in the sanity check
 */
public record LoadReport(long rows, double loadSeconds, double finishSeconds, int threads, StoreCounts counts) {
    public double totalSeconds() {
        return loadSeconds + finishSeconds;
    }

    public double rowsPerSecond() {
        return rows / Math.max(1e-9, totalSeconds());
    }
}
