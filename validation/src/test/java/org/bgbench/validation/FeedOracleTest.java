package org.bgbench.validation;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import org.bgbench.validation.log.LogDirectory;
import org.bgbench.validation.log.LogWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The feed checker against a brute-force oracle on random small histories: the oracle applies every subset of the
 * uncertain writes (each overlapping share and each overlapping friendship change applied or not), computes X's top-k
 * feed in each world and calls the read valid iff it equals one of them (the exact semantics of dissertation 6.1.2).
 * The checker must never convict a read the oracle accepts; where no uncertain producer could show more than one share
 * it must agree exactly; elsewhere its union approximation (footnote 4) may only err towards "valid".
 */
class FeedOracleTest {
    static final int M = 4;
    static final int PAGES = 1;

    @TempDir
    Path tmp;

    record Shr(int account, long id, long s, long e, int[] rec) {}

    record Chg(int a, int b, long s, long e, boolean began) {}

    record Rd(int x, long s, long e, int k, long[] shown) {}

    static final class Hist {
        final boolean[][] friends0 = new boolean[M][M];
        final boolean[] follows = new boolean[M];
        final List<Shr> before = new ArrayList<>();
        final List<Shr> shares = new ArrayList<>();
        final List<Chg> changes = new ArrayList<>();
        final List<Rd> reads = new ArrayList<>();
    }

    static boolean overlaps(long ws, long we, long s, long e) {
        return ws <= e && we >= s;
    }

    static boolean visible(Shr sh, int x) {
        return sh.rec() == null || Arrays.binarySearch(sh.rec(), x) >= 0;
    }

    /** The oracle: every world the uncertain writes allow; the read is valid iff it shows one world's feed. */
    static boolean oracle(Hist h, Rd r) {
        List<Shr> uShares = new ArrayList<>();
        List<Chg> uChanges = new ArrayList<>();
        for (Shr sh : h.shares) {
            if (overlaps(sh.s(), sh.e(), r.s(), r.e())) {
                uShares.add(sh);
            }
        }
        for (Chg c : h.changes) {
            if ((c.a() == r.x() || c.b() == r.x()) && overlaps(c.s(), c.e(), r.s(), r.e())) {
                uChanges.add(c);
            }
        }
        int u = uShares.size() + uChanges.size();
        for (int mask = 0; mask < 1 << u; mask++) {
            boolean[] fr = new boolean[M];
            for (int f = 0; f < M; f++) {
                fr[f] = h.friends0[r.x()][f];
            }
            for (Chg c : h.changes) { // in start order; a pair's changes never overlap each other
                int other = c.a() == r.x() ? c.b() : c.b() == r.x() ? c.a() : -1;
                if (other < 0) {
                    continue;
                }
                int ui = uChanges.indexOf(c);
                boolean applied = c.e() < r.s() || (ui >= 0 && (mask >> (uShares.size() + ui) & 1) != 0);
                if (applied) {
                    fr[other] = c.began();
                }
            }
            List<Long> feed = new ArrayList<>();
            List<Shr> all = new ArrayList<>(h.before);
            for (Shr sh : h.shares) {
                int ui = uShares.indexOf(sh);
                if (sh.e() < r.s() || (ui >= 0 && (mask >> ui & 1) != 0)) {
                    all.add(sh);
                }
            }
            for (Shr sh : all) {
                int a = sh.account();
                boolean producer = a >= M ? h.follows[r.x()] : a != r.x() && fr[a];
                if (producer && visible(sh, r.x())) {
                    feed.add(sh.id());
                }
            }
            feed.sort((p, q) -> Long.compare(q, p));
            List<Long> top = feed.subList(0, Math.min(r.k(), feed.size()));
            List<Long> shown = new ArrayList<>();
            for (long id : r.shown()) {
                shown.add(id);
            }
            if (top.equals(shown)) {
                return true;
            }
        }
        return false;
    }

    /** Whether the union approximation is exact for this read: no uncertain friend could show two shares. */
    static boolean exactCase(Hist h, Rd r) {
        for (int f = 0; f < M; f++) {
            if (f == r.x()) {
                continue;
            }
            boolean uncertain = false;
            for (Chg c : h.changes) {
                boolean pair = (c.a() == r.x() && c.b() == f) || (c.b() == r.x() && c.a() == f);
                if (pair && overlaps(c.s(), c.e(), r.s(), r.e())) {
                    uncertain = true;
                }
            }
            if (!uncertain) {
                continue;
            }
            int n = 0;
            List<Shr> all = new ArrayList<>(h.before);
            all.addAll(h.shares);
            for (Shr sh : all) {
                if (sh.account() == f && sh.s() <= r.e() && visible(sh, r.x())) {
                    n++;
                }
            }
            if (n > 1) {
                return false;
            }
        }
        return true;
    }

    static int[] subset(SplittableRandom rnd) {
        if (rnd.nextInt(3) == 0) {
            return null;
        }
        List<Integer> l = new ArrayList<>();
        for (int m = 0; m < M; m++) {
            if (rnd.nextBoolean()) {
                l.add(m);
            }
        }
        return l.stream().mapToInt(Integer::intValue).toArray();
    }

    static Hist random(SplittableRandom rnd) {
        Hist h = new Hist();
        for (int a = 0; a < M; a++) {
            h.follows[a] = rnd.nextInt(3) == 0;
            for (int b = a + 1; b < M; b++) {
                boolean f = rnd.nextBoolean();
                h.friends0[a][b] = f;
                h.friends0[b][a] = f;
            }
        }
        long id = 1;
        for (int i = rnd.nextInt(3); i > 0; i--) {
            h.before.add(new Shr(rnd.nextInt(M + PAGES), id++, FeedIndex.BEFORE, FeedIndex.BEFORE, subset(rnd)));
        }
        // shares: ids in issue (start) order, intervals that overlap each other and the reads
        int ns = 3 + rnd.nextInt(5);
        long[] starts = new long[ns];
        for (int i = 0; i < ns; i++) {
            starts[i] = 10L * rnd.nextInt(40);
        }
        Arrays.sort(starts);
        for (int i = 0; i < ns; i++) {
            h.shares.add(new Shr(
                    rnd.nextInt(M + PAGES), id++, starts[i], starts[i] + 10L * (1 + rnd.nextInt(8)), subset(rnd)));
        }
        // friendship changes: per pair a sequence that alternates and never overlaps itself (the emulator's locks)
        boolean[][] now = new boolean[M][];
        for (int a = 0; a < M; a++) {
            now[a] = h.friends0[a].clone();
        }
        for (int p = rnd.nextInt(4); p > 0; p--) {
            int a = rnd.nextInt(M);
            int b = (a + 1 + rnd.nextInt(M - 1)) % M;
            if (h.changes.stream().anyMatch(c -> (c.a() == a && c.b() == b) || (c.a() == b && c.b() == a))) {
                continue;
            }
            long t = 10L * rnd.nextInt(30);
            for (int i = 1 + rnd.nextInt(3); i > 0; i--) {
                long e = t + 10L * (1 + rnd.nextInt(8));
                boolean began = !now[a][b];
                h.changes.add(new Chg(a, b, t, e, began));
                now[a][b] = began;
                now[b][a] = began;
                t = e + 10L * (1 + rnd.nextInt(5));
            }
        }
        h.changes.sort((c, d) -> Long.compare(c.s(), d.s()));
        // reads: start times unique (x·10 + 1 + i), against the events' multiples of 10
        for (int i = 0; i < 8; i++) {
            int x = rnd.nextInt(M);
            long s = 10L * rnd.nextInt(45) + 1 + i;
            long e = s + 10L * rnd.nextInt(6) + 3;
            int k = 1 + rnd.nextInt(3);
            Rd probe = new Rd(x, s, e, k, new long[0]);
            long[] shown = rnd.nextBoolean() ? worldFeed(h, probe, rnd) : randomList(rnd, id, k);
            h.reads.add(new Rd(x, s, e, k, shown));
        }
        return h;
    }

    /** The feed of a random world (a likely valid read); found by trying random lists of the shares' ids. */
    static long[] worldFeed(Hist h, Rd r, SplittableRandom rnd) {
        List<Long> ids = new ArrayList<>();
        h.before.forEach(s -> ids.add(s.id()));
        h.shares.forEach(s -> ids.add(s.id()));
        for (int attempt = 0; attempt < 200; attempt++) {
            List<Long> pick = new ArrayList<>();
            for (long id : ids) {
                if (rnd.nextBoolean()) {
                    pick.add(id);
                }
            }
            pick.sort((p, q) -> Long.compare(q, p));
            long[] shown = pick.subList(0, Math.min(r.k(), pick.size())).stream()
                    .mapToLong(Long::longValue)
                    .toArray();
            if (oracle(h, new Rd(r.x(), r.s(), r.e(), r.k(), shown))) {
                return shown;
            }
        }
        return new long[0];
    }

    static long[] randomList(SplittableRandom rnd, long maxId, int k) {
        long[] out = new long[rnd.nextInt(k + 2)];
        for (int i = 0; i < out.length; i++) {
            out[i] = 1 + rnd.nextLong(maxId + 1); // maxId + 1 was never shared
        }
        if (rnd.nextInt(3) > 0) {
            Long[] b = Arrays.stream(out)
                    .boxed()
                    .distinct()
                    .sorted((p, q) -> Long.compare(q, p))
                    .toArray(Long[]::new);
            out = Arrays.stream(b).mapToLong(Long::longValue).toArray();
        }
        return out;
    }

    private Map<Long, Verdict> check(Hist h, int n, boolean finalState) {
        Path dir = tmp.resolve("h" + n + (finalState ? "f" : "i"));
        try (LogDirectory d = LogDirectory.create(dir)) {
            LogWriter w = d.newWriter();
            for (Shr sh : h.shares) {
                w.share((byte) 11, sh.account(), sh.id(), 100 + sh.id(), sh.s(), sh.e(), sh.rec());
            }
            for (Chg c : h.changes) {
                w.friendship((byte) (c.began() ? 4 : 6), c.a(), c.b(), c.s(), c.e(), c.began());
            }
            for (Rd r : h.reads) {
                w.feedRead((byte) 12, r.x(), r.k(), r.s(), r.e(), r.shown(), r.shown().length);
            }
        }
        SimpleFeedState st = new SimpleFeedState(M, PAGES);
        for (int m = 0; m < M; m++) {
            if (h.follows[m]) {
                st.follow(m, 0);
            }
            for (int f = 0; f < M; f++) {
                st.friends[m][f] = h.friends0[m][f];
            }
        }
        h.before.forEach(s -> st.share(s.account(), s.id(), s.rec()));
        if (finalState) {
            for (Chg c : h.changes) {
                st.friends[c.a()][c.b()] = c.began();
                st.friends[c.b()][c.a()] = c.began();
            }
            h.shares.forEach(s -> st.share(s.account(), s.id(), s.rec()));
        }
        Map<Long, Verdict> out = new ConcurrentHashMap<>();
        Validator.builder((kind, item) -> 0, finalState ? ValueMode.FINAL : ValueMode.INITIAL)
                .threads(1)
                .feeds(st)
                .readListener((action, kind, item, s, e, observed, verdict) -> out.put(s, verdict))
                .build()
                .validate(dir);
        return out;
    }

    @Test
    void theCheckerNeverConvictsAReadTheOracleAcceptsAndIsExactWhereTheUnionIs() {
        SplittableRandom rnd = new SplittableRandom(20260612);
        int valid = 0;
        int invalid = 0;
        int lenient = 0;
        int uncertainFriendReads = 0;
        for (int n = 0; n < 250; n++) {
            Hist h = random(rnd);
            Map<Long, Verdict> initial = check(h, n, false);
            Map<Long, Verdict> fin = check(h, n, true);
            assertThat(fin)
                    .as("history %d: the final state unwound gives the same verdicts", n)
                    .isEqualTo(initial);
            for (Rd r : h.reads) {
                boolean ok = oracle(h, r);
                Verdict got = initial.get(r.s());
                String what = String.format(
                        "history %d, read of %d over [%d, %d] k %d showing %s; shares %s %s; "
                                + "changes %s; friends %s; follows %s",
                        n,
                        r.x(),
                        r.s(),
                        r.e(),
                        r.k(),
                        Arrays.toString(r.shown()),
                        h.before,
                        h.shares,
                        h.changes,
                        Arrays.deepToString(h.friends0),
                        Arrays.toString(h.follows));
                if (ok) {
                    valid++;
                    assertThat(got).as("never convict a valid read: " + what).isEqualTo(Verdict.VALID);
                } else {
                    invalid++;
                    if (exactCase(h, r)) {
                        assertThat(got).as("exact here: " + what).isEqualTo(Verdict.UNPREDICTABLE);
                    } else {
                        uncertainFriendReads++;
                        if (got == Verdict.VALID) {
                            lenient++; // the union approximation, only ever towards valid
                        }
                    }
                }
            }
        }
        System.out.printf(
                "oracle: %d valid, %d invalid reads; %d invalid reads with an uncertain friend of several "
                        + "shares, %d of them accepted by the approximation%n",
                valid, invalid, uncertainFriendReads, lenient);
        // the histories exercise both outcomes and the approximation's region
        assertThat(valid).isGreaterThan(300);
        assertThat(invalid).isGreaterThan(300);
        assertThat(uncertainFriendReads).isGreaterThan(0);
    }
}
