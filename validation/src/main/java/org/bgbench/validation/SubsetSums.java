package org.bgbench.validation;

import java.util.Arrays;

/**
 * Which values are sums of some subset of a small multiset of deltas. Deltas in {-1, 0, 1} give every integer between
 * the sum of the negatives and the sum of the positives (no work); other deltas use a bitset over that range, or, when
 * the range is huge, a sorted set of sums capped at {@value #MAX_SPARSE} entries. Beyond the cap the answer is
 * {@link #UNKNOWN}. Reuses its buffers; not thread-safe.
 */
final class SubsetSums {
    static final int NO = 0;
    static final int YES = 1;
    static final int UNKNOWN = 2;

    static final long MAX_BITS = 1L << 24;
    static final int MAX_SPARSE = 1 << 20;

    private long[] bits = new long[64];
    private long[] sparse = new long[64];
    private long[] sparse2 = new long[64];

    /** Whether {@code target} is the sum of a subset of {@code d[0, n)}: {@link #YES}, {@link #NO} or {@link #UNKNOWN}. */
    int contains(long[] d, int n, long target) {
        long neg = 0;
        long pos = 0;
        boolean unit = true;
        try {
            for (int i = 0; i < n; i++) {
                long x = d[i];
                if (x > 0) {
                    pos = Math.addExact(pos, x);
                } else {
                    neg = Math.addExact(neg, x);
                }
                unit &= x >= -1 && x <= 1;
            }
        } catch (ArithmeticException overflow) {
            return sparseContains(d, n, target);
        }
        if (target < neg || target > pos) {
            return NO;
        }
        if (unit || target == neg || target == pos) {
            return YES;
        }
        long width = pos - neg + 1;
        if (width <= 0 || width > MAX_BITS) {
            return sparseContains(d, n, target);
        }
        dense(d, n, neg, width);
        long at = target - neg;
        return (bits[(int) (at >>> 6)] >>> (at & 63) & 1L) != 0 ? YES : NO;
    }

    /** Adds {@code offset + s} to {@code out} for every subset sum {@code s}; marks {@code out} incomplete if too many. */
    void addAll(long[] d, int n, long offset, IntervalSet out) {
        long neg = 0;
        long pos = 0;
        boolean unit = true;
        boolean overflow = false;
        for (int i = 0; i < n && !overflow; i++) {
            long x = d[i];
            try {
                if (x > 0) {
                    pos = Math.addExact(pos, x);
                } else {
                    neg = Math.addExact(neg, x);
                }
            } catch (ArithmeticException e) {
                overflow = true;
            }
            unit &= x >= -1 && x <= 1;
        }
        if (!overflow && unit) {
            out.add(offset + neg, offset + pos);
            return;
        }
        long width = pos - neg + 1;
        if (!overflow && width > 0 && width <= MAX_BITS) {
            int words = dense(d, n, neg, width);
            long runStart = -1;
            for (long i = 0; i < (long) words * 64; i++) {
                boolean set = i < width && (bits[(int) (i >>> 6)] >>> (i & 63) & 1L) != 0;
                if (set && runStart < 0) {
                    runStart = i;
                } else if (!set && runStart >= 0) {
                    out.add(offset + neg + runStart, offset + neg + i - 1);
                    runStart = -1;
                }
            }
            if (runStart >= 0) {
                out.add(offset + neg + runStart, offset + neg + width - 1);
            }
            return;
        }
        int m = sparseSums(d, n);
        if (m < 0) {
            out.incomplete = true;
            return;
        }
        for (int i = 0; i < m; i++) {
            out.add(offset + sparse[i]);
        }
    }

    /** Fills {@link #bits}: bit {@code s - neg} set iff {@code s} is a subset sum. Returns the words used. */
    private int dense(long[] d, int n, long neg, long width) {
        int words = (int) ((width + 63) >>> 6);
        if (bits.length < words) {
            bits = new long[Math.max(words, bits.length * 2)];
        }
        Arrays.fill(bits, 0, words, 0L);
        long zero = -neg;
        bits[(int) (zero >>> 6)] = 1L << (zero & 63);
        for (int i = 0; i < n; i++) {
            long x = d[i];
            if (x > 0) {
                orShiftedUp(words, x);
            } else if (x < 0) {
                orShiftedDown(words, -x);
            }
        }
        return words;
    }

    /** bits |= bits << s (towards higher sums). */
    private void orShiftedUp(int words, long s) {
        int q = (int) (s >>> 6);
        int r = (int) (s & 63);
        long[] b = bits;
        for (int i = words - 1; i >= q; i--) {
            long v = b[i - q] << r;
            if (r != 0 && i - q - 1 >= 0) {
                v |= b[i - q - 1] >>> (64 - r);
            }
            b[i] |= v;
        }
    }

    /** bits |= bits >>> s (towards lower sums). */
    private void orShiftedDown(int words, long s) {
        int q = (int) (s >>> 6);
        int r = (int) (s & 63);
        long[] b = bits;
        for (int i = 0; i + q < words; i++) {
            long v = b[i + q] >>> r;
            if (r != 0 && i + q + 1 < words) {
                v |= b[i + q + 1] << (64 - r);
            }
            b[i] |= v;
        }
    }

    private int sparseContains(long[] d, int n, long target) {
        int m = sparseSums(d, n);
        if (m < 0) {
            return UNKNOWN;
        }
        return Arrays.binarySearch(sparse, 0, m, target) >= 0 ? YES : NO;
    }

    /** Sorted distinct subset sums into {@link #sparse}; returns their number, or -1 past {@link #MAX_SPARSE}. */
    private int sparseSums(long[] d, int n) {
        sparse[0] = 0;
        int m = 1;
        for (int i = 0; i < n; i++) {
            long x = d[i];
            if (x == 0) {
                continue;
            }
            if (2 * m > MAX_SPARSE) {
                return -1;
            }
            if (sparse2.length < 2 * m) {
                sparse2 = new long[Math.max(2 * m, sparse2.length * 2)];
            }
            // merge sparse and sparse + x, both sorted (addition wraps only for absurd values)
            int a = 0;
            int b = 0;
            int k = 0;
            while (a < m || b < m) {
                long va = a < m ? sparse[a] : Long.MAX_VALUE;
                long vb = b < m ? sparse[b] + x : Long.MAX_VALUE;
                long v;
                if (b >= m || (a < m && va <= vb)) {
                    v = va;
                    a++;
                } else {
                    v = vb;
                    b++;
                }
                if (k == 0 || sparse2[k - 1] != v) {
                    sparse2[k++] = v;
                }
            }
            long[] t = sparse;
            sparse = sparse2;
            sparse2 = t;
            if (sparse2.length < sparse.length) {
                sparse2 = new long[sparse.length];
            }
            m = k;
        }
        return m;
    }
}
