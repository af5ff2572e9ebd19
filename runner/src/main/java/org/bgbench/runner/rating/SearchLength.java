package org.bgbench.runner.rating;

/**
 * How many experiments a closed-model rating is expected to run, for its progress bar: the η of the rating-time model
 * (dissertation 7.4) estimated before the search starts, plus the confirmation. The hill climb multiplies T by the
 * climbing factor r from 1 until it passes max-threads; the search then halves the interval between the last two
 * values of T (dissertation 6.1.2); each target (SoAR, Socialites) is confirmed once. A rating that needs more (a local
 * search, repeated confirmations) raises the bar's total as it goes.
 */
public final class SearchLength {
    private SearchLength() {}

    /**
     * The experiments expected for a search up to {@code maxThreads} with climbing factor {@code r}, confirming
     * {@code confirmations} targets.
     */
    public static long experiments(int maxThreads, double r, int confirmations) {
        int max = Math.max(1, maxThreads);
        long climb = 1 + (long) Math.ceil(Math.log(max) / Math.log(r) - 1e-9);
        double interval = max - max / r;
        long halve = interval <= 1 ? 0 : (long) Math.ceil(Math.log(interval) / Math.log(2) - 1e-9);
        return climb + halve + Math.max(0, confirmations);
    }
}
