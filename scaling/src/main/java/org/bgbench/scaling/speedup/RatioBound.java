package org.bgbench.scaling.speedup;

/**
 * How exact a ratio SoAR(config)/SoAR(baseline) is when either SoAR is only a lower bound: a lower-bound numerator
 * makes the ratio a lower bound, a lower-bound denominator an upper bound, and both leave its direction unknown. The
 * efficiency (ratio/ideal, the ideal being exact) shares the ratio's bound.
 */
public enum RatioBound {
    /** Both SoARs are exact (or the configuration is the baseline: its ratio is 1 by definition). */
    EXACT("exact", ""),
    /** The configuration's SoAR is a lower bound, the baseline's exact: the true ratio is at least this. */
    LOWER("lower_bound", "≥ "),
    /** The baseline's SoAR is a lower bound, the configuration's exact: the true ratio is at most this. */
    UPPER("upper_bound", "≤ "),
    /** Both SoARs are lower bounds: the true ratio may be higher or lower. */
    BOTH_SIDES("bounds_on_both_sides", "~ ");

    private final String label;
    private final String sign;

    RatioBound(String label, String sign) {
        this.label = label;
        this.sign = sign;
    }

    /** The bound of SoAR(config)/SoAR(baseline), given which of them is a lower bound. */
    public static RatioBound of(boolean configLowerBound, boolean baselineLowerBound, boolean isBaseline) {
        if (isBaseline) {
            return EXACT;
        }
        if (configLowerBound) {
            return baselineLowerBound ? BOTH_SIDES : LOWER;
        }
        return baselineLowerBound ? UPPER : EXACT;
    }

    /** Its name in {@code scale.json}'s {@code ratio_bound}. */
    public String label() {
        return label;
    }

    /** What precedes the figure in the table and the chart: "≥ ", "≤ ", "~ " or nothing. */
    public String sign() {
        return sign;
    }
}
