package org.bgbench.validation;

/** A primitive sort that allocates nothing: index arrays ordered by long keys. */
final class Sorts {
    private static final int INSERTION = 24;

    private Sorts() {}

    /** Sorts {@code idx[from, to)} so that {@code key[idx[i]]} ascends (not stable). */
    static void byKey(int[] idx, int from, int to, long[] key) {
        byKey(idx, from, to, key, 1, 0);
    }

    /**
     * Sorts {@code idx[from, to)} so that {@code key[idx[i] * stride + offset]} ascends (not stable): with a stride,
     * {@code key} is a row-major table and the key one of its columns.
     */
    static void byKey(int[] idx, int from, int to, long[] key, int stride, int offset) {
        while (to - from > INSERTION) {
            int mid = (from + to) >>> 1;
            long pivot = median(
                    key[idx[from] * stride + offset],
                    key[idx[mid] * stride + offset],
                    key[idx[to - 1] * stride + offset]);
            int lt = from;
            int i = from;
            int gt = to - 1;
            while (i <= gt) {
                long k = key[idx[i] * stride + offset];
                if (k < pivot) {
                    swap(idx, lt++, i++);
                } else if (k > pivot) {
                    swap(idx, i, gt--);
                } else {
                    i++;
                }
            }
            // [from, lt) < pivot, [lt, gt] == pivot, (gt, to) > pivot; recurse into the smaller side
            if (lt - from < to - gt - 1) {
                byKey(idx, from, lt, key, stride, offset);
                from = gt + 1;
            } else {
                byKey(idx, gt + 1, to, key, stride, offset);
                to = lt;
            }
        }
        for (int i = from + 1; i < to; i++) {
            int v = idx[i];
            long k = key[v * stride + offset];
            int j = i - 1;
            while (j >= from && key[idx[j] * stride + offset] > k) {
                idx[j + 1] = idx[j];
                j--;
            }
            idx[j + 1] = v;
        }
    }

    private static long median(long a, long b, long c) {
        return Math.max(Math.min(a, b), Math.min(Math.max(a, b), c));
    }

    private static void swap(int[] a, int i, int j) {
        int t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
}
