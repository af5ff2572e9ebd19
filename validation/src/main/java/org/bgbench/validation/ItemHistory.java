package org.bgbench.validation;

import java.util.Arrays;

/**
 * One item's writes and reads as an {@link ItemChecker} receives them: delta writes, absolute writes and reads, each
 * kind in parallel arrays of start, end and value (and a read's action) that grow as they are added, and are sorted by
 * start before a check. Reused across items; not thread-safe.
 */
final class ItemHistory {
    // deltas
    long[] ds = new long[16];
    long[] de = new long[16];
    long[] dv = new long[16];
    int nd;
    // absolute writes
    long[] as = new long[4];
    long[] ae = new long[4];
    long[] av = new long[4];
    int na;
    // reads
    long[] rs = new long[16];
    long[] re = new long[16];
    long[] rv = new long[16];
    byte[] ra = new byte[16];
    int nr;

    /** Forgets the previous item's writes and reads (the arrays are kept). */
    void clear() {
        nd = 0;
        na = 0;
        nr = 0;
    }

    void addDelta(long start, long end, long delta) {
        if (nd == ds.length) {
            int c = nd * 2;
            ds = Arrays.copyOf(ds, c);
            de = Arrays.copyOf(de, c);
            dv = Arrays.copyOf(dv, c);
        }
        ds[nd] = start;
        de[nd] = end;
        dv[nd] = delta;
        nd++;
    }

    void addAbsolute(long start, long end, long value) {
        if (na == as.length) {
            int c = na * 2;
            as = Arrays.copyOf(as, c);
            ae = Arrays.copyOf(ae, c);
            av = Arrays.copyOf(av, c);
        }
        as[na] = start;
        ae[na] = end;
        av[na] = value;
        na++;
    }

    void addRead(long start, long end, long observed, byte action) {
        if (nr == rs.length) {
            int c = nr * 2;
            rs = Arrays.copyOf(rs, c);
            re = Arrays.copyOf(re, c);
            rv = Arrays.copyOf(rv, c);
            ra = Arrays.copyOf(ra, c);
        }
        rs[nr] = start;
        re[nr] = end;
        rv[nr] = observed;
        ra[nr] = action;
        nr++;
    }

    long readStart(int r) {
        return rs[r];
    }

    long readEnd(int r) {
        return re[r];
    }

    long readValue(int r) {
        return rv[r];
    }

    byte readAction(int r) {
        return ra[r];
    }

    /** Sorts each kind by start (its other arrays along); a read's index is then its place in start order. */
    void sortByStart() {
        if (!ParallelArrays.ascending(ds, nd)) {
            ParallelArrays.permute3(ds, de, dv, nd);
        }
        if (!ParallelArrays.ascending(as, na)) {
            ParallelArrays.permute3(as, ae, av, na);
        }
        if (!ParallelArrays.ascending(rs, nr)) {
            int[] idx = ParallelArrays.order(rs, nr);
            ra = ParallelArrays.permuteBytes(ra, idx, nr);
            rs = ParallelArrays.permute(rs, idx, nr);
            re = ParallelArrays.permute(re, idx, nr);
            rv = ParallelArrays.permute(rv, idx, nr);
        }
    }
}
