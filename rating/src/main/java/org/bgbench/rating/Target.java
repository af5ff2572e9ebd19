package org.bgbench.rating;

/** The two ratings (dissertation chapters 1 and 7). */
public enum Target {
    /** Social Action Rating: the highest throughput (actions/s) at which the SLA holds. */
    SOAR,
    /** The highest number of simultaneous socialites (threads T) at which the SLA holds. */
    SOCIALITES
}
