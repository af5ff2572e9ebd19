package org.bgbench.store.memory;

import java.util.Arrays;

/**
 * Sets of member ids kept as a sorted prefix {@code a[0..n)} of an int array: a quarter of a hash set's memory,
 * ordered iteration, and appends in the common case because the loader and BG visit neighbours in id order.
 */
final class SortedInts {
    static final int[] EMPTY = new int[0];

    private SortedInts() {}

    /** Index of {@code v}, or {@code -(insertion point) - 1}. */
    static int find(int[] a, int n, int v) {
        if (n == 0 || a[n - 1] < v) {
            return -n - 1;
        }
        return Arrays.binarySearch(a, 0, n, v);
    }

    /**
     * Inserts {@code v} at {@code pos} (from {@link #find}) and returns the array, a grown copy when full; the caller
     * stores it and increments its count. {@code firstCapacity} sizes the first allocation.
     */
    static int[] insert(int[] a, int n, int pos, int v, int firstCapacity) {
        int[] t = a;
        if (n == a.length) {
            // A new array is filled completely before it is published, so optimistic readers never see it half copied.
            t = Arrays.copyOf(a, n == 0 ? Math.max(4, firstCapacity) : n + (n >> 1) + 1);
        }
        System.arraycopy(t, pos, t, pos + 1, n - pos);
        t[pos] = v;
        return t;
    }

    /** Removes the element at {@code pos}; the caller decrements its count. */
    static void remove(int[] a, int n, int pos) {
        System.arraycopy(a, pos + 1, a, pos, n - pos - 1);
    }
}
