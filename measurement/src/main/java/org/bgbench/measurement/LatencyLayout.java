package org.bgbench.measurement;

/**
 * HdrHistogram's counts-array layout, reproduced so that the recording path can count into a plain striped
 * {@code long[]} with a single atomic add per value, while snapshots convert slot for slot into ordinary HdrHistogram
 * histograms of the same configuration (the formulas are those of {@code AbstractHistogram}; a test checks that both
 * agree on every slot).
 */
final class LatencyLayout {
    final long lowest;
    final long highest;
    final int digits;
    final int unitMagnitude;
    final int subBucketHalfCountMagnitude;
    final int subBucketHalfCount;
    final int leadingZeroCountBase;
    final long subBucketMask;
    /** Number of slots, equal to HdrHistogram's countsArrayLength for the same parameters. */
    final int length;

    LatencyLayout(long lowest, long highest, int digits) {
        if (lowest < 1 || highest < 2 * lowest || digits < 1 || digits > 5) {
            throw new IllegalArgumentException("bad histogram range " + lowest + ".." + highest + " / " + digits);
        }
        this.lowest = lowest;
        this.highest = highest;
        this.digits = digits;
        // Math.log exactly as HdrHistogram computes it, so rounding cannot make the two layouts differ.
        long largestValueWithSingleUnitResolution = 2 * (long) Math.pow(10, digits);
        unitMagnitude = (int) (Math.log(lowest) / Math.log(2));
        int subBucketCountMagnitude = (int) Math.ceil(Math.log(largestValueWithSingleUnitResolution) / Math.log(2));
        subBucketHalfCountMagnitude = subBucketCountMagnitude - 1;
        int subBucketCount = 1 << subBucketCountMagnitude;
        subBucketHalfCount = subBucketCount / 2;
        subBucketMask = ((long) subBucketCount - 1) << unitMagnitude;
        leadingZeroCountBase = 64 - unitMagnitude - subBucketCountMagnitude;
        int buckets = 1;
        long smallestUntrackable = ((long) subBucketCount) << unitMagnitude;
        while (smallestUntrackable <= highest) {
            smallestUntrackable <<= 1;
            buckets++;
        }
        length = (buckets + 1) * subBucketHalfCount;
    }

    /** Slot of a value in {@code [0, highest]}. */
    int index(long value) {
        int bucket = leadingZeroCountBase - Long.numberOfLeadingZeros(value | subBucketMask);
        int subBucket = (int) (value >>> (bucket + unitMagnitude));
        return ((bucket + 1) << subBucketHalfCountMagnitude) + subBucket - subBucketHalfCount;
    }

    /** Clamps a latency into the trackable range: negative clock differences count as 0, absurd ones as the top. */
    long clamp(long value) {
        return value < 0 ? 0 : Math.min(value, highest);
    }

    /** The lowest value that falls into a slot (HdrHistogram's valueFromIndex). */
    long lowestValue(int index) {
        int bucket = (index >> subBucketHalfCountMagnitude) - 1;
        int subBucket = (index & (subBucketHalfCount - 1)) + subBucketHalfCount;
        if (bucket < 0) {
            subBucket -= subBucketHalfCount;
            bucket = 0;
        }
        return ((long) subBucket) << (bucket + unitMagnitude);
    }

    /** The highest value that falls into a slot. */
    long highestValue(int index) {
        int bucket = Math.max((index >> subBucketHalfCountMagnitude) - 1, 0);
        return lowestValue(index) + (1L << (bucket + unitMagnitude)) - 1;
    }
}
