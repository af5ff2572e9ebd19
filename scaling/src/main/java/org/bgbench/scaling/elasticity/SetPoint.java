package org.bgbench.scaling.elasticity;

import java.util.Locale;

/**
 * One point of the elasticity timeline: a request set run {@code n} times back to back (the elasticity paper runs each
 * set ten times "to compute an average value", its section 4.5), with the mean and standard deviation of those set
 * times.
 *
 * @param index          0-based position in the timeline
 * @param start          seconds since the test began when the point's first set started
 * @param end            seconds since the test began when its last set ended
 * @param mean           mean time of one request set, seconds
 * @param sd             standard deviation of the set times, seconds (0 for one set)
 * @param n              request sets measured
 * @param meanLatency    mean response time of one request over the point's sets, seconds (Rt of the paper)
 * @param phase          where in the test the point lies
 */
public record SetPoint(
        int index, double start, double end, double mean, double sd, int n, double meanLatency, Phase phase) {
    /** Where a point lies: before the add, between the add and the stable moment, after it. */
    public enum Phase {
        BASELINE,
        TRANSITION,
        STABLE;

        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** Seconds since the start at the middle of the point: where its mean is drawn and interpolated. */
    public double t() {
        return (start + end) / 2;
    }

    /** The point from {@code setTimes} (seconds) and their requests' mean latency. */
    public static SetPoint of(int index, double start, double end, double[] setTimes, double meanLatency, Phase phase) {
        if (setTimes.length == 0) {
            throw new IllegalArgumentException("a point needs at least one set time");
        }
        double sum = 0;
        for (double s : setTimes) {
            sum += s;
        }
        double mean = sum / setTimes.length;
        double sq = 0;
        for (double s : setTimes) {
            sq += (s - mean) * (s - mean);
        }
        // The sample standard deviation (n − 1): the paper's error bars describe the spread of the repeated sets.
        double sd = setTimes.length > 1 ? Math.sqrt(sq / (setTimes.length - 1)) : 0;
        return new SetPoint(index, start, end, mean, sd, setTimes.length, meanLatency, phase);
    }
}
