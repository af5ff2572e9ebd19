package org.bgbench.validation;

import java.util.Arrays;

/** A set of longs as a union of closed intervals; used to describe the acceptable values of a read. */
final class IntervalSet {
    private long[] lo = new long[16];
    private long[] hi = new long[16];
    private int n;
    private boolean normalized = true;
    /** Some values could not be enumerated (a subset-sum too large to expand). */
    boolean incomplete;
    /** Values that depend on an unknown initial value were left out. */
    boolean baseUnknown;

    void clear() {
        n = 0;
        normalized = true;
        incomplete = false;
        baseUnknown = false;
    }

    void add(long v) {
        add(v, v);
    }

    void add(long l, long h) {
        if (l > h) {
            return;
        }
        if (n == lo.length) {
            lo = Arrays.copyOf(lo, n * 2);
            hi = Arrays.copyOf(hi, n * 2);
        }
        lo[n] = l;
        hi[n] = h;
        n++;
        normalized = false;
    }

    /** Sorts and merges overlapping or adjacent intervals. */
    IntervalSet normalize() {
        if (normalized) {
            return this;
        }
        int[] idx = new int[n];
        for (int i = 0; i < n; i++) {
            idx[i] = i;
        }
        Sorts.byKey(idx, 0, n, lo);
        long[] nl = new long[Math.max(16, n)];
        long[] nh = new long[Math.max(16, n)];
        int m = 0;
        for (int k = 0; k < n; k++) {
            int i = idx[k];
            if (m > 0 && (nh[m - 1] == Long.MAX_VALUE || lo[i] <= nh[m - 1] + 1)) {
                nh[m - 1] = Math.max(nh[m - 1], hi[i]);
            } else {
                nl[m] = lo[i];
                nh[m] = hi[i];
                m++;
            }
        }
        lo = nl;
        hi = nh;
        n = m;
        normalized = true;
        return this;
    }

    int intervals() {
        normalize();
        return n;
    }

    long lo(int i) {
        return lo[i];
    }

    long hi(int i) {
        return hi[i];
    }

    boolean contains(long v) {
        normalize();
        for (int i = 0; i < n; i++) {
            if (v >= lo[i] && v <= hi[i]) {
                return true;
            }
        }
        return false;
    }

    /** E.g. {@code [-1..2]}, {@code [0], [2], [4..6]}, {@code (none)}. */
    String describe(int maxParts) {
        normalize();
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < n; i++) {
            if (i == maxParts) {
                sb.append(", … (").append(n - maxParts).append(" more)");
                break;
            }
            if (i > 0) {
                sb.append(", ");
            }
            sb.append('[').append(lo[i]);
            if (hi[i] != lo[i]) {
                sb.append("..").append(hi[i]);
            }
            sb.append(']');
        }
        if (n == 0) {
            sb.append("(none)");
        }
        if (incomplete) {
            sb.append(" + sums too many to list");
        }
        if (baseUnknown) {
            sb.append(" + values from the unknown initial value");
        }
        return sb.toString();
    }

    @Override
    public String toString() {
        return describe(Integer.MAX_VALUE);
    }
}
