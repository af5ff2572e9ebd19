package org.bgbench.validation;

/**
 * Helpers for the item checker's parallel arrays (starts, ends, values of one item's writes or reads): put them in
 * start order together, and binary search a sorted one.
 */
final class ParallelArrays {
    private ParallelArrays() {}

    static boolean ascending(long[] a, int n) {
        for (int i = 1; i < n; i++) {
            if (a[i] < a[i - 1]) {
                return false;
            }
        }
        return true;
    }

    static int[] order(long[] key, int n) {
        int[] idx = new int[n];
        for (int i = 0; i < n; i++) {
            idx[i] = i;
        }
        Sorts.byKey(idx, 0, n, key);
        return idx;
    }

    static void permute3(long[] a, long[] b, long[] c, int n) {
        int[] idx = order(a, n);
        long[] ta = permute(a, idx, n);
        long[] tb = permute(b, idx, n);
        long[] tc = permute(c, idx, n);
        System.arraycopy(ta, 0, a, 0, n);
        System.arraycopy(tb, 0, b, 0, n);
        System.arraycopy(tc, 0, c, 0, n);
    }

    static long[] permute(long[] a, int[] idx, int n) {
        long[] t = new long[a.length];
        for (int i = 0; i < n; i++) {
            t[i] = a[idx[i]];
        }
        return t;
    }

    static byte[] permuteBytes(byte[] a, int[] idx, int n) {
        byte[] t = new byte[a.length];
        for (int i = 0; i < n; i++) {
            t[i] = a[idx[i]];
        }
        return t;
    }

    /** First index in sorted {@code a[0, n)} with {@code a[i] >= x}. */
    static int lowerBound(long[] a, int n, long x) {
        int lo = 0;
        int hi = n;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (a[mid] < x) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /** First index in sorted {@code a[0, n)} with {@code a[i] > x}. */
    static int upperBound(long[] a, int n, long x) {
        int lo = 0;
        int hi = n;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (a[mid] <= x) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }
}
