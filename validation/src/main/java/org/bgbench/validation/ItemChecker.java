package org.bgbench.validation;

import java.util.Arrays;

/**
 * Validates every read of one item against the writes of that item (dissertation chapter 6, dissertation 6.1). See the README for the
 * algorithm and its correctness argument; in short, a read [rs, re] may observe the writes in any order consistent with
 * real time, which is the same as giving every write w a point p(w) in [w.start, w.end] and the read a point t in
 * [rs, re] and applying the writes with points before t in point order (ties in any order). For delta writes the
 * candidate t are rs and the starts of overlapping writes in (rs, re]; at a cut t the writes that ended before t are in,
 * those that straddle t are free, the rest are out.
 *
 * <p>Usage: {@link #begin()}, add the item's writes and reads (any order), then {@link #run}. Reuses its arrays; not
 * thread-safe.
 */
final class ItemChecker {
    static final int VALID = 0;
    static final int UNPREDICTABLE = 1;
    /** Not decided: the acceptable set needs an unknown initial value, or was too large to enumerate. */
    static final int SKIPPED = 2;

    static final long NO_WRITE = Long.MIN_VALUE;

    interface Sink {
        /**
         * Verdict for read {@code r} (index in start order, see {@link #readStart(int)}). {@code freshnessNanos} is the
         * read's start minus the end of the latest write that ended before it started, or {@link #NO_WRITE}.
         * {@link #acceptable()} describes the read during this call.
         */
        void verdict(int r, int status, long freshnessNanos);
    }

    private final ItemHistory history = new ItemHistory();
    // The history's arrays and counts, taken once it is sorted by start: the sweep and the decisions read them often.
    private long[] ds;
    private long[] de;
    private long[] dv;
    private int nd;
    private long[] as;
    private long[] ae;
    private long[] av;
    private int na;
    private long[] rs;
    private long[] re;
    private long[] rv;
    private int nr;

    // derived per item
    private int[] dByEnd = new int[16];
    private long[] dEndCum = new long[17];
    private long[] dStartCum = new long[17];
    private long maxDeltaDuration;
    private int[] aByEnd = new int[4];
    private long base;
    private boolean baseKnown;

    // sweep state
    private int[] activeD = new int[16];
    private int nActiveD;
    private int[] activeA = new int[4];
    private int nActiveA;
    private int completedA; // absolutes with end < rs: aByEnd[0, completedA)
    private long maxStartA1; // largest start among completed absolutes
    private int maxStartA1Index;
    private long maxStartA2; // second largest

    // context of the current read
    private long curRs;
    private long curRe;
    private long curV;
    private long sumC; // deltas that ended before rs
    private int[] oD = new int[16]; // overlapping deltas: active ones (start < rs) first, then by start
    private int koD;
    private int[] oA = new int[4]; // overlapping absolutes
    private int koA;

    // scratch
    private int[] oEnd = new int[16];
    private boolean[] mustIn = new boolean[16];
    private long[] free = new long[16];
    private long[] keyScratch = new long[16];
    private int[] involved = new int[16];
    private int[] mark = new int[16];
    private int stamp;
    private long[] events = new long[16];
    private final SubsetSums sums = new SubsetSums();
    private final IntervalSet described = new IntervalSet();

    void begin() {
        history.clear();
    }

    void addDelta(long start, long end, long delta) {
        history.addDelta(start, end, delta);
    }

    void addAbsolute(long start, long end, long value) {
        history.addAbsolute(start, end, value);
    }

    void addRead(long start, long end, long observed, byte action) {
        history.addRead(start, end, observed, action);
    }

    long readStart(int r) {
        return history.readStart(r);
    }

    long readEnd(int r) {
        return history.readEnd(r);
    }

    long readValue(int r) {
        return history.readValue(r);
    }

    byte readAction(int r) {
        return history.readAction(r);
    }

    /**
     * Checks every read. {@code itemValue} is the item's value before the first write ({@code valueIsFinal == false})
     * or after the last one; a final value gives the initial value only when all writes are deltas (initial = final −
     * Σ deltas), otherwise reads whose acceptable set needs the initial value and that no absolute write explains are
     * {@link #SKIPPED}.
     */
    void run(long itemValue, boolean valueIsFinal, Sink sink) {
        prepare();
        if (!valueIsFinal) {
            base = itemValue;
            baseKnown = true;
        } else if (na == 0) {
            base = itemValue - dStartCum[nd];
            baseKnown = true;
        } else {
            base = 0;
            baseKnown = false;
        }
        int dEndPtr = 0;
        int dStartPtr = 0;
        int aStartPtr = 0;
        nActiveD = 0;
        nActiveA = 0;
        completedA = 0;
        maxStartA1 = Long.MIN_VALUE;
        maxStartA1Index = -1;
        maxStartA2 = Long.MIN_VALUE;
        for (int r = 0; r < nr; r++) {
            long s = rs[r];
            long e = re[r];
            curRs = s;
            curRe = e;
            curV = rv[r];
            while (dEndPtr < nd && de[dByEnd[dEndPtr]] < s) {
                dEndPtr++;
            }
            sumC = dEndCum[dEndPtr];
            long lastEnd = dEndPtr > 0 ? de[dByEnd[dEndPtr - 1]] : NO_WRITE;
            while (dStartPtr < nd && ds[dStartPtr] < s) {
                if (nActiveD == activeD.length) {
                    activeD = Arrays.copyOf(activeD, nActiveD * 2);
                }
                activeD[nActiveD++] = dStartPtr++;
            }
            int m = 0;
            for (int i = 0; i < nActiveD; i++) {
                int j = activeD[i];
                if (de[j] >= s) {
                    activeD[m++] = j;
                }
            }
            nActiveD = m;
            koD = 0;
            ensureO(nActiveD);
            System.arraycopy(activeD, 0, oD, 0, nActiveD);
            koD = nActiveD;
            for (int j = dStartPtr; j < nd && ds[j] <= e; j++) {
                ensureO(koD + 1);
                oD[koD++] = j;
            }
            koA = 0;
            if (na > 0) {
                while (completedA < na && ae[aByEnd[completedA]] < s) {
                    int a = aByEnd[completedA++];
                    long st = as[a];
                    if (st > maxStartA1) {
                        maxStartA2 = maxStartA1;
                        maxStartA1 = st;
                        maxStartA1Index = a;
                    } else if (st > maxStartA2) {
                        maxStartA2 = st;
                    }
                }
                if (completedA > 0) {
                    lastEnd = Math.max(lastEnd, ae[aByEnd[completedA - 1]]);
                }
                while (aStartPtr < na && as[aStartPtr] < s) {
                    if (nActiveA == activeA.length) {
                        activeA = Arrays.copyOf(activeA, nActiveA * 2);
                    }
                    activeA[nActiveA++] = aStartPtr++;
                }
                m = 0;
                for (int i = 0; i < nActiveA; i++) {
                    int j = activeA[i];
                    if (ae[j] >= s) {
                        activeA[m++] = j;
                    }
                }
                nActiveA = m;
                koA = 0;
                for (int i = 0; i < nActiveA; i++) {
                    addOA(activeA[i]);
                }
                for (int j = aStartPtr; j < na && as[j] <= e; j++) {
                    addOA(j);
                }
            }
            int status = solve(curV, null);
            sink.verdict(r, status, lastEnd == NO_WRITE ? NO_WRITE : s - lastEnd);
        }
    }

    /** Whether a write overlapped the read being reported to the sink (else it had exactly one acceptable value). */
    boolean lastReadOverlapped() {
        return koD + koA > 0;
    }

    /** The acceptable values of the read being reported to the sink. */
    IntervalSet acceptable() {
        described.clear();
        solve(curV, described);
        return described.normalize();
    }

    private void addOA(int j) {
        if (koA == oA.length) {
            oA = Arrays.copyOf(oA, koA * 2);
        }
        oA[koA++] = j;
    }

    private void ensureO(int k) {
        if (oD.length < k) {
            oD = Arrays.copyOf(oD, Math.max(k, oD.length * 2));
        }
    }

    // ---------------------------------------------------------------------------------------------------- preparing

    private void prepare() {
        history.sortByStart();
        ds = history.ds;
        de = history.de;
        dv = history.dv;
        nd = history.nd;
        as = history.as;
        ae = history.ae;
        av = history.av;
        na = history.na;
        rs = history.rs;
        re = history.re;
        rv = history.rv;
        nr = history.nr;
        if (dByEnd.length < nd) {
            dByEnd = new int[Math.max(nd, dByEnd.length * 2)];
            dEndCum = new long[dByEnd.length + 1];
            dStartCum = new long[dByEnd.length + 1];
        }
        maxDeltaDuration = 0;
        for (int i = 0; i < nd; i++) {
            dByEnd[i] = i;
            dStartCum[i + 1] = dStartCum[i] + dv[i];
            maxDeltaDuration = Math.max(maxDeltaDuration, de[i] - ds[i]);
        }
        if (!ParallelArrays.ascending(de, nd)) {
            Sorts.byKey(dByEnd, 0, nd, de);
        }
        for (int i = 0; i < nd; i++) {
            dEndCum[i + 1] = dEndCum[i] + dv[dByEnd[i]];
        }
        if (na > 0) {
            if (aByEnd.length < na) {
                aByEnd = new int[Math.max(na, aByEnd.length * 2)];
            }
            for (int i = 0; i < na; i++) {
                aByEnd[i] = i;
            }
            Sorts.byKey(aByEnd, 0, na, ae);
        }
        if (mark.length < nd) {
            mark = new int[Math.max(nd, mark.length * 2)];
            stamp = 0;
        }
    }

    // ---------------------------------------------------------------------------------------------------- deciding

    /** Checks {@code v} ({@code out == null}) or adds every acceptable value to {@code out}. */
    private int solve(long v, IntervalSet out) {
        if (na == 0) {
            if (koD == 0) {
                long only = base + sumC;
                if (out != null) {
                    out.add(only);
                }
                return v == only ? VALID : UNPREDICTABLE;
            }
            int r = cuts(v - base - sumC, base + sumC, curRe, out);
            return r == SubsetSums.YES ? VALID : r == SubsetSums.NO ? UNPREDICTABLE : SKIPPED;
        }
        return solveWithAbsolutes(v, out);
    }

    /**
     * Delta writes only: is {@code target} = v − base − Σ(completed) reachable at some cut t in [rs, tMax]? With
     * {@code out}, adds {@code offset} + every reachable sum to it instead.
     */
    private int cuts(long target, long offset, long tMax, IntervalSet out) {
        final int k = koD;
        if (oEnd.length < k) {
            int c = Math.max(k, oEnd.length * 2);
            oEnd = new int[c];
            mustIn = new boolean[c];
            free = new long[c];
            keyScratch = new long[c];
        }
        boolean unit = true;
        for (int i = 0; i < k; i++) {
            int j = oD[i];
            oEnd[i] = i;
            mustIn[i] = false;
            keyScratch[i] = de[j];
            long d = dv[j];
            unit &= d >= -1 && d <= 1;
        }
        Sorts.byKey(oEnd, 0, k, keyScratch);
        boolean unknown = false;
        int startP = 0;
        int endP = 0;
        long must = 0;
        long pos = 0;
        long neg = 0;
        long t = curRs;
        while (true) {
            while (startP < k && ds[oD[startP]] <= t) {
                long d = dv[oD[startP]];
                if (d > 0) {
                    pos += d;
                } else {
                    neg += d;
                }
                startP++;
            }
            while (endP < k && de[oD[oEnd[endP]]] < t) {
                int i = oEnd[endP++];
                long d = dv[oD[i]];
                if (d > 0) {
                    pos -= d;
                } else {
                    neg -= d;
                }
                must += d;
                mustIn[i] = true;
            }
            if (out != null) {
                if (unit) {
                    out.add(offset + must + neg, offset + must + pos);
                } else {
                    sums.addAll(free, collectFree(startP), offset + must, out);
                }
            } else if (target >= must + neg && target <= must + pos) {
                if (unit) {
                    return SubsetSums.YES;
                }
                int r = sums.contains(free, collectFree(startP), target - must);
                if (r == SubsetSums.YES) {
                    return r;
                }
                unknown |= r == SubsetSums.UNKNOWN;
            }
            if (startP >= k) {
                break;
            }
            long next = ds[oD[startP]];
            if (next > tMax) {
                break;
            }
            t = next;
        }
        return unknown ? SubsetSums.UNKNOWN : SubsetSums.NO;
    }

    private int collectFree(int started) {
        int n = 0;
        for (int i = 0; i < started; i++) {
            if (!mustIn[i]) {
                long d = dv[oD[i]];
                if (d != 0) {
                    free[n++] = d;
                }
            }
        }
        return n;
    }

    private int solveWithAbsolutes(long v, IntervalSet out) {
        boolean unknown = false;
        boolean needsBase = false;
        // no absolute write applied: possible only if none has completed; every overlapping one must be placeable
        // after the read's point t, so t <= its end
        if (completedA == 0) {
            long tMax = curRe;
            for (int i = 0; i < koA; i++) {
                tMax = Math.min(tMax, ae[oA[i]]);
            }
            if (!baseKnown) {
                needsBase = true;
                if (out != null) {
                    out.baseUnknown = true;
                }
            } else if (koD == 0) {
                long only = base + sumC;
                if (out != null) {
                    out.add(only);
                } else if (v == only) {
                    return VALID;
                }
            } else {
                int r = cuts(v - base - sumC, base + sumC, tMax, out);
                if (out == null && r == SubsetSums.YES) {
                    return VALID;
                }
                unknown |= r == SubsetSums.UNKNOWN;
            }
        }
        // some absolute write a is the last one applied
        if (completedA > 0) {
            long m = maxStartA1;
            int lo = 0;
            int hi = completedA;
            while (lo < hi) { // first completed absolute (by end) with end >= m
                int mid = (lo + hi) >>> 1;
                if (ae[aByEnd[mid]] < m) {
                    lo = mid + 1;
                } else {
                    hi = mid;
                }
            }
            for (int i = lo; i < completedA; i++) {
                int r = anchor(aByEnd[i], v, out);
                if (out == null && r == SubsetSums.YES) {
                    return VALID;
                }
                unknown |= r == SubsetSums.UNKNOWN;
            }
        }
        for (int i = 0; i < koA; i++) {
            int r = anchor(oA[i], v, out);
            if (out == null && r == SubsetSums.YES) {
                return VALID;
            }
            unknown |= r == SubsetSums.UNKNOWN;
        }
        return unknown || needsBase ? SKIPPED : UNPREDICTABLE;
    }

    /**
     * Values possible when absolute write {@code a} is the last absolute write applied before the read's point. The
     * parameters are a's point p and the read's point t (p <= t); a delta d is applied iff its point lies in [p, t].
     */
    private int anchor(int a, long v, IntervalSet out) {
        long rsV = curRs;
        long reV = curRe;
        long sa = as[a];
        long ea = ae[a];
        long ma = completedA == 0 ? Long.MIN_VALUE : a == maxStartA1Index ? maxStartA2 : maxStartA1;
        long pLo = Math.max(sa, ma); // every other completed absolute must be placed before a
        long pHi = Math.min(ea, reV);
        if (pLo > pHi) {
            return SubsetSums.NO;
        }
        // deltas that may be applied after a or not: those overlapping the read, and those overlapping a
        if (++stamp == 0) {
            Arrays.fill(mark, 0);
            stamp = 1;
        }
        int nInv = 0;
        if (involved.length < koD) {
            involved = new int[Math.max(koD, involved.length * 2)];
        }
        for (int i = 0; i < koD; i++) {
            int j = oD[i];
            mark[j] = stamp;
            involved[nInv++] = j;
        }
        long from = sa - maxDeltaDuration;
        if (from > sa) {
            from = Long.MIN_VALUE;
        }
        for (int j = ParallelArrays.lowerBound(ds, nd, from); j < nd && ds[j] <= ea; j++) {
            if (de[j] >= sa && mark[j] != stamp) {
                mark[j] = stamp;
                if (nInv == involved.length) {
                    involved = Arrays.copyOf(involved, nInv * 2);
                }
                involved[nInv++] = j;
            }
        }
        // deltas that start after a ended and end before the read started are applied whatever p and t are
        long fixed = 0;
        if (ea < reV) {
            fixed = dStartCum[ParallelArrays.upperBound(ds, nd, reV)]
                    - dStartCum[ParallelArrays.upperBound(ds, nd, ea)];
            for (int i = 0; i < koD; i++) {
                int j = oD[i];
                if (ds[j] > ea) {
                    fixed -= dv[j];
                }
            }
        }
        // candidate points: interval ends of everything involved (see README for why these suffice)
        int ne = 0;
        int cap = 4 + 2 * nInv + 2 * koA;
        if (events.length < cap) {
            events = new long[Math.max(cap, events.length * 2)];
        }
        events[ne++] = pLo;
        events[ne++] = pHi;
        events[ne++] = rsV;
        events[ne++] = reV;
        for (int i = 0; i < nInv; i++) {
            events[ne++] = ds[involved[i]];
            events[ne++] = de[involved[i]];
        }
        for (int i = 0; i < koA; i++) {
            if (oA[i] != a) {
                events[ne++] = as[oA[i]];
                events[ne++] = ae[oA[i]];
            }
        }
        Arrays.sort(events, 0, ne);
        if (free.length < nInv) {
            free = new long[Math.max(nInv, free.length * 2)];
        }
        boolean unknown = false;
        for (int pi = 0; pi < ne; pi++) {
            long p = events[pi];
            if (p < pLo || p > pHi || (pi > 0 && events[pi - 1] == p)) {
                continue;
            }
            long tLo = Math.max(rsV, p);
            for (int ti = pi; ti < ne; ti++) {
                long t = events[ti];
                if (t < tLo || t > reV || (ti > pi && events[ti - 1] == t)) {
                    continue;
                }
                boolean ok = true;
                for (int i = 0; i < koA && ok; i++) {
                    int b = oA[i];
                    ok = b == a || as[b] <= p || ae[b] >= t;
                }
                if (!ok) {
                    continue;
                }
                long forced = 0;
                int nf = 0;
                for (int i = 0; i < nInv; i++) {
                    int j = involved[i];
                    boolean in = de[j] >= p && ds[j] <= t;
                    if (!in) {
                        continue;
                    }
                    boolean outAllowed = ds[j] <= p || de[j] >= t;
                    if (outAllowed) {
                        if (dv[j] != 0) {
                            free[nf++] = dv[j];
                        }
                    } else {
                        forced += dv[j];
                    }
                }
                long offset = av[a] + fixed + forced;
                if (out != null) {
                    sums.addAll(free, nf, offset, out);
                } else {
                    int r = sums.contains(free, nf, v - offset);
                    if (r == SubsetSums.YES) {
                        return r;
                    }
                    unknown |= r == SubsetSums.UNKNOWN;
                }
            }
        }
        return unknown ? SubsetSums.UNKNOWN : SubsetSums.NO;
    }
}
