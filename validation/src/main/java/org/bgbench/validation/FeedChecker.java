package org.bgbench.validation;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Judges the View News Feed reads of one member at a time (dissertation 6.1.2). This is BG's approximation, in the
 * spirit of the dissertation's footnote 4 (the union of the acceptable share sets over the acceptable friend lists
 * instead of their Cartesian product):
 *
 * <ul>
 *   <li>A write (share, or friendship change AFR/TF) that completed before the read started ({@code end < start}) is
 *   <em>definite</em>; one that overlaps the read is <em>uncertain</em> (it may or may not be visible); one that
 *   started after the read ended ({@code start > end}) is ignored. Shares and friendships that existed before the logs
 *   are definite.</li>
 *   <li>A producer of member X is definite when it is a page X follows (follows never change) or a member who is X's
 *   friend after the last completed change of their friendship (or before the logs, if none) and whose friendship has
 *   no change overlapping the read. It is uncertain when a change overlaps the read (or completed changes could be
 *   ordered either way).</li>
 *   <li>MUST = the definite shares, visible to X (public or listing X), by definite producers. MAY = MUST plus the
 *   shares visible to X whose share or whose sharer's friendship with X is uncertain.</li>
 *   <li>The observed list O is valid iff it has no duplicates, is in descending share-id order, |O| &le; k, O &sube;
 *   MAY and some S &sube; MAY \ MUST has topk(MUST &cup; S) = O; that is: if |O| &lt; k then MUST &sube; O, and if
 *   |O| = k then every share of MUST not in O has an id below min(O).</li>
 * </ul>
 *
 * The approximation errs only towards "valid": each uncertain producer's shares are allowed one by one although in
 * a serial order they appear all together or not at all. A read logged without its k is judged as if |O| = k (it cannot
 * be convicted of a short feed). Not thread-safe; one per validation thread.
 */
final class FeedChecker {
    static final int OFF = 0;
    static final int ON = 1;
    static final int UNCERTAIN = 2;

    private final FeedIndex ix;

    // the member whose reads are checked, and her candidate producers that have shares, by account
    private int x = -1;
    private int nc;
    private int[] cAcct = new int[64];
    private int[] cFrom = new int[64];
    private int[] cTo = new int[64];
    private boolean[] cInitOn = new boolean[64];
    private boolean[] cPage = new boolean[64];
    private int[] cStatus = new int[64];
    private int[] scratch = new int[64];
    private long[] keys = new long[64];

    // the last read's outcome
    private String reason;
    private long culprit;
    private long freshness;

    FeedChecker(FeedIndex ix) {
        this.ix = ix;
    }

    /** Prepares the checks of member {@code member}'s reads: her followed pages, friends and friendship partners. */
    void member(int member) {
        x = member;
        nc = 0;
        int[] fr = friendsInState(member);
        int chFrom = ix.chFirst[member];
        int chTo = ix.chFirst[member + 1];
        int i = 0;
        int j = chFrom;
        // merge the state's friends with the partners of logged changes (both ascending)
        while (i < fr.length || j < chTo) {
            int f = i < fr.length ? fr[i] : Integer.MAX_VALUE;
            int p = j < chTo ? ix.chOther[j] : Integer.MAX_VALUE;
            if (p <= f) {
                int end = j;
                while (end < chTo && ix.chOther[end] == p) {
                    end++;
                }
                boolean inState = p == f;
                // the friendship before the logs: the state's, or for a final state the opposite of the first change
                boolean initOn = ix.finalState ? !ix.chBegan[j] : inState;
                addCandidate(p, j, end, initOn, false);
                j = end;
                if (inState) {
                    i++;
                }
            } else {
                addCandidate(f, 0, 0, true, false);
                i++;
            }
        }
        ix.state.forEachFollowedAccount(member, a -> addCandidate(a, 0, 0, true, true));
        sortCandidates();
    }

    private int[] friendsInState(int member) {
        int[] box = {0};
        ix.state.forEachFriend(member, f -> {
            if (box[0] == scratch.length) {
                scratch = Arrays.copyOf(scratch, box[0] * 2);
            }
            scratch[box[0]++] = f;
        });
        int[] fr = Arrays.copyOf(scratch, box[0]);
        Arrays.sort(fr);
        return fr;
    }

    private void addCandidate(int account, int from, int to, boolean initOn, boolean page) {
        if (account == x || account < 0 || account >= ix.accounts) {
            return;
        }
        if (ix.acctFirst[account] == ix.acctFirst[account + 1] && from == to) {
            return; // no share and no logged change: cannot matter to a feed
        }
        if (nc == cAcct.length) {
            int c = nc * 2;
            cAcct = Arrays.copyOf(cAcct, c);
            cFrom = Arrays.copyOf(cFrom, c);
            cTo = Arrays.copyOf(cTo, c);
            cInitOn = Arrays.copyOf(cInitOn, c);
            cPage = Arrays.copyOf(cPage, c);
            cStatus = Arrays.copyOf(cStatus, c);
        }
        cAcct[nc] = account;
        cFrom[nc] = from;
        cTo[nc] = to;
        cInitOn[nc] = initOn;
        cPage[nc] = page;
        nc++;
    }

    /** Candidates by account (members come merged in order; pages after them, in follow order). */
    private void sortCandidates() {
        boolean sorted = true;
        for (int i = 1; i < nc; i++) {
            if (cAcct[i] <= cAcct[i - 1]) {
                sorted = false;
                break;
            }
        }
        if (sorted) {
            return;
        }
        if (keys.length < nc) {
            keys = new long[Math.max(nc, keys.length * 2)];
        }
        for (int i = 0; i < nc; i++) {
            keys[i] = (long) cAcct[i] << 32 | i;
        }
        Arrays.sort(keys, 0, nc);
        int[] a = cAcct.clone();
        int[] f = cFrom.clone();
        int[] t = cTo.clone();
        boolean[] on = cInitOn.clone();
        boolean[] pg = cPage.clone();
        int w = 0;
        for (int i = 0; i < nc; i++) {
            int o = (int) keys[i];
            if (w > 0 && cAcct[w - 1] == a[o]) {
                continue; // a page followed twice cannot be: keep one
            }
            cAcct[w] = a[o];
            cFrom[w] = f[o];
            cTo[w] = t[o];
            cInitOn[w] = on[o];
            cPage[w] = pg[o];
            w++;
        }
        nc = w;
    }

    /** Whether candidate {@code c} is X's producer during [s, e]: {@link #ON}, {@link #OFF} or {@link #UNCERTAIN}. */
    private int status(int c, long s, long e) {
        if (cPage[c]) {
            return ON; // follows never change (dissertation 6.1.2, footnote 3)
        }
        int from = cFrom[c];
        int to = cTo[c];
        int last = -1;
        long maxS1 = Long.MIN_VALUE;
        long maxS2 = Long.MIN_VALUE;
        int argS1 = -1;
        for (int i = from; i < to; i++) {
            if (ix.chStart[i] > e) {
                continue; // started after the read ended: ignored
            }
            if (ix.chEnd[i] >= s) {
                return UNCERTAIN; // overlaps the read: may or may not be seen
            }
            if (last < 0 || ix.chEnd[i] > ix.chEnd[last]) {
                last = i;
            }
            long st = ix.chStart[i];
            if (st > maxS1) {
                maxS2 = maxS1;
                maxS1 = st;
                argS1 = i;
            } else if (st > maxS2) {
                maxS2 = st;
            }
        }
        if (last < 0) {
            return cInitOn[c] ? ON : OFF;
        }
        // completed changes that overlap each other could be serialized either way: if one that may come last
        // disagrees with the latest-ending one, the friendship is not definite
        for (int i = from; i < to; i++) {
            if (ix.chStart[i] > e || ix.chBegan[i] == ix.chBegan[last]) {
                continue;
            }
            long othersMax = i == argS1 ? maxS2 : maxS1;
            if (ix.chEnd[i] >= othersMax) {
                return UNCERTAIN;
            }
        }
        return ix.chBegan[last] ? ON : OFF;
    }

    private int candidate(int account) {
        int lo = 0;
        int hi = nc - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            int a = cAcct[mid];
            if (a < account) {
                lo = mid + 1;
            } else if (a > account) {
                hi = mid - 1;
            } else {
                return mid;
            }
        }
        return -1;
    }

    /** The highest share index of {@code account} that may have started by {@code e}, plus one. */
    private int scanTop(int account, long e) {
        int lo = ix.acctFirst[account];
        int hi = ix.acctFirst[account + 1];
        // smallest i with minStartFrom[i] > e (non-decreasing within the account)
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (ix.minStartFrom[mid] > e) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        return lo;
    }

    /**
     * Checks a read of the current member over [s, e] that asked for {@code k} (0: unknown) and observed
     * {@code ids[off, off + n)}. Returns {@link ItemChecker#VALID} or {@link ItemChecker#UNPREDICTABLE};
     * {@link #freshness()} then holds the read's start minus the end of the latest completed write relevant to the
     * member's feed.
     */
    int check(long s, long e, int k, long[] ids, int off, int n) {
        reason = null;
        culprit = 0;
        for (int c = 0; c < nc; c++) {
            cStatus[c] = status(c, s, e);
        }
        boolean valid = structureOk(ids, off, n, k);
        if (valid) {
            valid = subsetOfMay(s, e, ids, off, n);
        }
        boolean kKnown = k > 0;
        boolean full = !kKnown || n >= k; // a full page: only MUST shares above min(O) must be in it
        boolean mustCheck = valid && !(full && n == 0);
        long minO = n > 0 ? ids[off + n - 1] : Long.MIN_VALUE;
        long latest = Long.MIN_VALUE;
        for (int c = 0; c < nc; c++) {
            int st = cStatus[c];
            if (st == OFF) {
                continue;
            }
            int a = cAcct[c];
            int first = ix.acctFirst[a];
            boolean must = st == ON && mustCheck;
            boolean freshDone = false;
            for (int j = scanTop(a, e) - 1; j >= first && (must || !freshDone); j--) {
                if (ix.shareStart[j] > e || ix.shareEnd[j] >= s || !ix.visible(j, x)) {
                    continue; // ignored, uncertain (in MAY, never in MUST), or not for X
                }
                if (!freshDone) {
                    // the most recent completed share X may see from this producer (ids grow with time)
                    freshDone = true;
                    latest = Math.max(latest, ix.shareEnd[j]);
                }
                if (!must) {
                    continue;
                }
                long id = ix.shareId[j];
                if (full && id < minO) {
                    must = false; // older than everything shown: a full page may leave it out
                    continue;
                }
                if (!contains(ids, off, n, id)) {
                    valid = false;
                    mustCheck = false;
                    must = false;
                    reason = full ? "misses a share newer than the oldest it shows:" : "misses";
                    culprit = id;
                }
            }
        }
        int cf = ix.chFirst[x];
        int ct = ix.chFirst[x + 1];
        // the latest of X's own friendship changes that ended before the read
        int lo = cf;
        int hi = ct;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (ix.chEndSorted[mid] < s) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        if (lo > cf) {
            latest = Math.max(latest, ix.chEndSorted[lo - 1]);
        }
        freshness = latest == Long.MIN_VALUE || latest == FeedIndex.BEFORE ? ItemChecker.NO_WRITE : s - latest;
        return valid ? ItemChecker.VALID : ItemChecker.UNPREDICTABLE;
    }

    private boolean structureOk(long[] ids, int off, int n, int k) {
        for (int i = 1; i < n; i++) {
            if (ids[off + i] >= ids[off + i - 1]) {
                long[] c = Arrays.copyOfRange(ids, off, off + n);
                Arrays.sort(c);
                for (int j = 1; j < n; j++) {
                    if (c[j] == c[j - 1]) {
                        reason = "shows a share twice:";
                        culprit = c[j];
                        return false;
                    }
                }
                reason = "is not newest first: at position " + i + ",";
                culprit = ids[off + i];
                return false;
            }
        }
        if (k > 0 && n > k) {
            reason = "shows " + n + " shares, more than k;";
            culprit = ids[off + k];
            return false;
        }
        return true;
    }

    private boolean subsetOfMay(long s, long e, long[] ids, int off, int n) {
        for (int i = 0; i < n; i++) {
            long id = ids[off + i];
            int j = ix.indexOf(id);
            if (j < 0) {
                return fail("shows a share no logged or earlier Share Resource made:", id);
            }
            int a = ix.shareAccount[j];
            if (a == x) {
                return fail("shows the member's own share:", id);
            }
            if (ix.shareStart[j] > e) {
                return fail("shows a share that started after the read ended:", id);
            }
            if (!ix.visible(j, x)) {
                return fail("shows a share whose recipients exclude the member:", id);
            }
            int c = candidate(a);
            if (c < 0 || cStatus[c] == OFF) {
                return fail(
                        "shows a share by an account that is neither a followed page nor a friend during the "
                                + "read:",
                        id);
            }
        }
        return true;
    }

    private boolean fail(String why, long id) {
        reason = why;
        culprit = id;
        return false;
    }

    /** Whether the descending {@code ids[off, off + n)} holds {@code id}. */
    private static boolean contains(long[] ids, int off, int n, long id) {
        int lo = off;
        int hi = off + n - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            long v = ids[mid];
            if (v > id) {
                lo = mid + 1;
            } else if (v < id) {
                hi = mid - 1;
            } else {
                return true;
            }
        }
        return false;
    }

    long freshness() {
        return freshness;
    }

    /**
     * What the last unpredictable read should have shown, for a report: k, why it is unpredictable, and the newest
     * MUST and MAY shares (recomputed in full; only for the few reads kept as evidence).
     */
    String describe(long s, long e, int k) {
        List<Long> must = new ArrayList<>();
        List<Long> mayOnly = new ArrayList<>();
        for (int c = 0; c < nc; c++) {
            int st = status(c, s, e);
            if (st == OFF) {
                continue;
            }
            int a = cAcct[c];
            for (int j = ix.acctFirst[a + 1] - 1; j >= ix.acctFirst[a]; j--) {
                if (ix.shareStart[j] > e || !ix.visible(j, x)) {
                    continue;
                }
                if (st == ON && ix.shareEnd[j] < s) {
                    must.add(ix.shareId[j]);
                } else {
                    mayOnly.add(ix.shareId[j]);
                }
            }
        }
        must.sort((p, q) -> Long.compare(q, p));
        mayOnly.sort((p, q) -> Long.compare(q, p));
        int show = Math.max(k, 4) + 2;
        return String.format(
                Locale.ROOT,
                "%s share %d; k %s; must (newest first) %s; may also %s",
                reason,
                culprit,
                k > 0 ? Integer.toString(k) : "not logged",
                head(must, show),
                head(mayOnly, show));
    }

    private static String head(List<Long> l, int max) {
        return l.size() <= max ? l.toString() : l.subList(0, max) + " and " + (l.size() - max) + " older";
    }
}
