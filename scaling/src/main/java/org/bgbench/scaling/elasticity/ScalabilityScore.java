package org.bgbench.scaling.elasticity;

import java.util.List;

/**
 * The elasticity paper's scalability score between N and 2N nodes (its section 5.2): (Average_2N − Average_N) /
 * Average_N, where Average is the mean of the stable cluster's mean set times, measured after data, requests per set
 * and threads all doubled with the nodes. 0 is perfect; below 0 is superlinear.
 */
public record ScalabilityScore(double averageN, double average2N, double score) {
    public static ScalabilityScore of(double averageN, double average2N) {
        if (!(averageN > 0) || !(average2N > 0)) {
            throw new IllegalArgumentException("averages must be positive, got " + averageN + " and " + average2N);
        }
        return new ScalabilityScore(averageN, average2N, (average2N - averageN) / averageN);
    }

    /** The mean of the points' mean set times. */
    public static double average(List<SetPoint> stable) {
        return stable.stream()
                .mapToDouble(SetPoint::mean)
                .average()
                .orElseThrow(() -> new IllegalArgumentException("no stable points"));
    }
}
