package org.bgbench.store.memory;

import java.util.Arrays;

/**
 * Arrays of shares kept as a prefix {@code a[0..n)}, like {@link SortedInts}: grown copies are filled completely
 * before they are published, so an optimistic reader sees the old or the new array whole (and validates).
 */
final class Feeds {
    private Feeds() {}

    /** Index of share {@code id} in ascending {@code a[0..n)}, or a negative number. */
    static int indexOf(Share[] a, int n, long id) {
        int lo = 0;
        int hi = n - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            long v = a[mid].id;
            if (v < id) {
                lo = mid + 1;
            } else if (v > id) {
                hi = mid - 1;
            } else {
                return mid;
            }
        }
        return -lo - 1;
    }

    private static Share[] room(Share[] a, int n, int more) {
        if (n + more <= a.length) {
            return a;
        }
        return Arrays.copyOf(a, Math.max(Math.max(4, n + more), n + (n >> 1) + 1));
    }

    /** Inserts {@code s} keeping ascending ids; an append in the common case since ids grow with time. */
    static Share[] insertSorted(Share[] a, int n, Share s) {
        Share[] t = room(a, n, 1);
        int pos = n;
        while (pos > 0 && t[pos - 1].id > s.id) {
            pos--;
        }
        System.arraycopy(t, pos, t, pos + 1, n - pos);
        t[pos] = s;
        return t;
    }

    /** Appends {@code s} (Push keeps arrival order and sorts when read). */
    static Share[] append(Share[] a, int n, Share s) {
        Share[] t = room(a, n, 1);
        t[n] = s;
        return t;
    }

    /**
     * Adds the shares of {@code from[0..m)} that member {@code viewer} may see to {@code a[0..n)}: appended, or merged
     * by id when {@code sorted}. Returns the array; {@code added[0]} receives how many were added.
     */
    static Share[] addVisible(Share[] a, int n, Share[] from, int m, int viewer, boolean sorted, int[] added) {
        int visible = 0;
        for (int i = 0; i < m; i++) {
            if (from[i].visibleTo(viewer)) {
                visible++;
            }
        }
        added[0] = visible;
        if (visible == 0) {
            return a;
        }
        if (!sorted) {
            Share[] t = room(a, n, visible);
            int k = n;
            for (int i = 0; i < m; i++) {
                if (from[i].visibleTo(viewer)) {
                    t[k++] = from[i];
                }
            }
            return t;
        }
        // A fresh array merged from both (the old one stays whole for optimistic readers).
        Share[] t = new Share[Math.max(4, n + visible + ((n + visible) >> 1))];
        int i = 0;
        int j = 0;
        int k = 0;
        while (i < n || j < m) {
            if (j < m && !from[j].visibleTo(viewer)) {
                j++;
            } else if (j >= m || (i < n && a[i].id < from[j].id)) {
                t[k++] = a[i++];
            } else {
                t[k++] = from[j++];
            }
        }
        return t;
    }

    /** Removes every share by {@code sharer} from {@code a[0..n)} in place, keeping order; returns the new count. */
    static int removeSharer(Share[] a, int n, int sharer) {
        int k = 0;
        for (int i = 0; i < n; i++) {
            if (a[i].sharer != sharer) {
                a[k++] = a[i];
            }
        }
        Arrays.fill(a, k, n, null);
        return k;
    }
}
