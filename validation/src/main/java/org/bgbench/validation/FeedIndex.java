package org.bgbench.validation;

import java.util.Arrays;
import java.util.List;
import org.bgbench.validation.log.LogFormat;

/**
 * The shares and friendship changes feed reads are judged against (dissertation 6.1.2), indexed once after pass 1 and
 * then only read by the pass-2 threads: shares by sharer, ascending id (so a read scans a producer's most recent
 * shares first and stops where nothing older can matter), a share id to share map, and friendship changes by member
 * and partner, ascending start. Shares that existed before the logs (from {@link FeedState}) are in it too, with no
 * interval: they are definite.
 */
final class FeedIndex {
    /** Start and end of a share that existed before the logs: completed before any read. */
    static final long BEFORE = Long.MIN_VALUE;

    final int members;
    final int accounts;
    final FeedState state;
    final boolean finalState;

    // shares, sorted by (account, id)
    final long[] shareId;
    final int[] shareAccount;
    final long[] shareStart;
    final long[] shareEnd;
    /** Sorted recipients (member indexes), null when public. */
    final int[][] shareRecipients;
    /** Shares of account a are [acctFirst[a], acctFirst[a + 1]). */
    final int[] acctFirst;
    /** min(shareStart[i..end of its account]): shares from i on all started after t iff this exceeds t. */
    final long[] minStartFrom;

    private final long[] idKeys;
    private final int[] idVals;
    private final int idMask;

    // friendship changes, one entry per member side, sorted by (member, other, start)
    final int[] chFirst;
    final int[] chOther;
    final long[] chStart;
    final long[] chEnd;
    final boolean[] chBegan;
    /** Per member, the ends of her changes, ascending (same ranges as chFirst): freshness. */
    final long[] chEndSorted;

    final long loggedShares;
    final long loggedChanges;

    /** Feed writes one pass-1 thread decoded. */
    static final class Collector {
        int nShares;
        long[] sId = new long[16];
        int[] sAcct = new int[16];
        long[] sStart = new long[16];
        long[] sEnd = new long[16];
        int[][] sRec = new int[16][];
        int nChanges;
        int[] cA = new int[16];
        int[] cB = new int[16];
        long[] cStart = new long[16];
        long[] cEnd = new long[16];
        boolean[] cBegan = new boolean[16];

        /** Decodes the share group whose head is at {@code off} of {@code b}. */
        void share(byte[] b, int off) {
            if (nShares == sId.length) {
                int c = nShares * 2;
                sId = Arrays.copyOf(sId, c);
                sAcct = Arrays.copyOf(sAcct, c);
                sStart = Arrays.copyOf(sStart, c);
                sEnd = Arrays.copyOf(sEnd, c);
                sRec = Arrays.copyOf(sRec, c);
            }
            long v = LogFormat.value(b, off);
            int r = (int) v;
            int[] rec = null;
            if (r >= 0) {
                rec = new int[r];
                for (int i = 0; i < r; i++) {
                    rec[i] = LogFormat.shareRecipient(b, off, i);
                }
                Arrays.sort(rec);
            }
            int i = nShares++;
            sId[i] = LogFormat.item(b, off);
            sAcct[i] = (int) (v >>> 32);
            sStart[i] = LogFormat.start(b, off);
            sEnd[i] = LogFormat.end(b, off);
            sRec[i] = rec;
        }

        void friendship(byte[] b, int off) {
            if (nChanges == cA.length) {
                int c = nChanges * 2;
                cA = Arrays.copyOf(cA, c);
                cB = Arrays.copyOf(cB, c);
                cStart = Arrays.copyOf(cStart, c);
                cEnd = Arrays.copyOf(cEnd, c);
                cBegan = Arrays.copyOf(cBegan, c);
            }
            int i = nChanges++;
            cA[i] = (int) LogFormat.item(b, off);
            cB[i] = (int) LogFormat.value(b, off);
            cStart[i] = LogFormat.start(b, off);
            cEnd[i] = LogFormat.end(b, off);
            cBegan[i] = LogFormat.kind(b, off) != 0;
        }
    }

    /**
     * @param state      the state at the start of the logs ({@code finalState} false) or at their end (true)
     */
    FeedIndex(List<Collector> parts, FeedState state, boolean finalState) {
        this.state = state;
        this.finalState = finalState;
        this.members = state.members();
        this.accounts = state.accounts();
        long logged = 0;
        long changes = 0;
        for (Collector c : parts) {
            logged += c.nShares;
            changes += c.nChanges;
        }
        this.loggedShares = logged;
        this.loggedChanges = changes;
        // the logged share ids: shares in the state with these ids are the logged ones (FINAL), not earlier ones
        LongSet loggedIds = new LongSet((int) logged);
        for (Collector c : parts) {
            for (int i = 0; i < c.nShares; i++) {
                loggedIds.add(c.sId[i]);
            }
        }
        // gather: logged shares, then the state's others
        Gather g = new Gather((int) logged + 16);
        for (Collector c : parts) {
            for (int i = 0; i < c.nShares; i++) {
                check(c.sAcct[i] >= 0 && c.sAcct[i] < accounts, "a share by account " + c.sAcct[i]);
                g.add(c.sId[i], c.sAcct[i], c.sStart[i], c.sEnd[i], c.sRec[i]);
            }
        }
        state.forEachShare((account, id, recipients) -> {
            if (!loggedIds.contains(id)) {
                g.add(id, account, BEFORE, BEFORE, recipients);
            }
        });
        int n = g.n;
        Integer[] order = new Integer[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        Arrays.sort(
                order,
                (x, y) -> g.acct[x] != g.acct[y]
                        ? Integer.compare(g.acct[x], g.acct[y])
                        : Long.compare(g.id[x], g.id[y]));
        shareId = new long[n];
        shareAccount = new int[n];
        shareStart = new long[n];
        shareEnd = new long[n];
        shareRecipients = new int[n][];
        acctFirst = new int[accounts + 1];
        for (int i = 0; i < n; i++) {
            int o = order[i];
            shareId[i] = g.id[o];
            shareAccount[i] = g.acct[o];
            shareStart[i] = g.start[o];
            shareEnd[i] = g.end[o];
            shareRecipients[i] = g.rec[o];
            acctFirst[g.acct[o] + 1]++;
        }
        for (int a = 0; a < accounts; a++) {
            acctFirst[a + 1] += acctFirst[a];
        }
        minStartFrom = new long[n];
        for (int i = n - 1; i >= 0; i--) {
            boolean lastOfAccount = i == n - 1 || shareAccount[i + 1] != shareAccount[i];
            minStartFrom[i] = lastOfAccount ? shareStart[i] : Math.min(shareStart[i], minStartFrom[i + 1]);
        }
        int cap = Integer.highestOneBit(Math.max(4, n * 2)) << 1;
        idKeys = new long[cap];
        idVals = new int[cap];
        idMask = cap - 1;
        Arrays.fill(idVals, -1);
        for (int i = 0; i < n; i++) {
            int s = slot(shareId[i]);
            while (idVals[s] >= 0 && idKeys[s] != shareId[i]) {
                s = (s + 1) & idMask;
            }
            idKeys[s] = shareId[i];
            idVals[s] = i; // a duplicate id (two logs naming one share) keeps the last: ids are unique per run
        }

        // friendship changes, both sides
        int m = (int) (2 * changes);
        int[] mem = new int[m];
        long[] key = new long[m];
        int[] src = new int[m];
        Collector[] srcPart = new Collector[m];
        int j = 0;
        for (Collector c : parts) {
            for (int i = 0; i < c.nChanges; i++) {
                check(
                        c.cA[i] >= 0 && c.cA[i] < members && c.cB[i] >= 0 && c.cB[i] < members,
                        "a friendship of members " + c.cA[i] + " and " + c.cB[i]);
                for (int side = 0; side < 2; side++) {
                    mem[j] = side == 0 ? c.cA[i] : c.cB[i];
                    src[j] = i;
                    srcPart[j] = c;
                    j++;
                }
            }
        }
        Integer[] co = new Integer[m];
        for (int i = 0; i < m; i++) {
            co[i] = i;
            Collector c = srcPart[i];
            key[i] = (mem[i] == c.cA[src[i]]) ? c.cB[src[i]] : c.cA[src[i]];
        }
        Arrays.sort(co, (x, y) -> {
            if (mem[x] != mem[y]) {
                return Integer.compare(mem[x], mem[y]);
            }
            if (key[x] != key[y]) {
                return Long.compare(key[x], key[y]);
            }
            return Long.compare(srcPart[x].cStart[src[x]], srcPart[y].cStart[src[y]]);
        });
        chFirst = new int[members + 1];
        chOther = new int[m];
        chStart = new long[m];
        chEnd = new long[m];
        chBegan = new boolean[m];
        chEndSorted = new long[m];
        for (int i = 0; i < m; i++) {
            int o = co[i];
            Collector c = srcPart[o];
            chOther[i] = (int) key[o];
            chStart[i] = c.cStart[src[o]];
            chEnd[i] = c.cEnd[src[o]];
            chBegan[i] = c.cBegan[src[o]];
            chEndSorted[i] = chEnd[i];
            chFirst[mem[o] + 1]++;
        }
        for (int a = 0; a < members; a++) {
            chFirst[a + 1] += chFirst[a];
            Arrays.sort(chEndSorted, chFirst[a], chFirst[a + 1]);
        }
    }

    private static void check(boolean ok, String what) {
        if (!ok) {
            throw new IllegalArgumentException("the logs name " + what + ", which the run's graph does not have: the "
                    + "logs and the state given to validation are not from the same run");
        }
    }

    private int slot(long id) {
        long h = id * 0x9E3779B97F4A7C15L;
        return (int) (h ^ (h >>> 29)) & idMask;
    }

    /** Index of share {@code id}, or -1 if no share has that id. */
    int indexOf(long id) {
        int s = slot(id);
        while (idVals[s] >= 0) {
            if (idKeys[s] == id) {
                return idVals[s];
            }
            s = (s + 1) & idMask;
        }
        return -1;
    }

    boolean visible(int share, int member) {
        int[] r = shareRecipients[share];
        return r == null || Arrays.binarySearch(r, member) >= 0;
    }

    int shareCount() {
        return shareId.length;
    }

    private static final class Gather {
        int n;
        long[] id;
        int[] acct;
        long[] start;
        long[] end;
        int[][] rec;

        Gather(int cap) {
            id = new long[cap];
            acct = new int[cap];
            start = new long[cap];
            end = new long[cap];
            rec = new int[cap][];
        }

        void add(long i, int a, long s, long e, int[] r) {
            if (n == id.length) {
                int c = n * 2;
                id = Arrays.copyOf(id, c);
                acct = Arrays.copyOf(acct, c);
                start = Arrays.copyOf(start, c);
                end = Arrays.copyOf(end, c);
                rec = Arrays.copyOf(rec, c);
            }
            id[n] = i;
            acct[n] = a;
            start[n] = s;
            end[n] = e;
            rec[n] = r;
            n++;
        }
    }

    /** An open-addressing set of longs (no boxing for ~10^5 ids). */
    private static final class LongSet {
        private final long[] keys;
        private final boolean[] used;
        private final int mask;

        LongSet(int expected) {
            int cap = Integer.highestOneBit(Math.max(4, expected * 2)) << 1;
            keys = new long[cap];
            used = new boolean[cap];
            mask = cap - 1;
        }

        private int slot(long v) {
            long h = v * 0x9E3779B97F4A7C15L;
            return (int) (h ^ (h >>> 29)) & mask;
        }

        void add(long v) {
            int s = slot(v);
            while (used[s] && keys[s] != v) {
                s = (s + 1) & mask;
            }
            used[s] = true;
            keys[s] = v;
        }

        boolean contains(long v) {
            int s = slot(v);
            while (used[s]) {
                if (keys[s] == v) {
                    return true;
                }
                s = (s + 1) & mask;
            }
            return false;
        }
    }
}
