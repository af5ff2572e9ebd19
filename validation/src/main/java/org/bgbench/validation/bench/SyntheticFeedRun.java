package org.bgbench.validation.bench;

import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.function.IntConsumer;
import org.bgbench.validation.FeedState;
import org.bgbench.validation.log.LogDirectory;
import org.bgbench.validation.log.LogWriter;

/**
 * A synthetic feed workload (dissertation 6.1.2) against a linearizable store: members with a ring of initial friends,
 * pages followed by ϱ members each, and actions VNF, SR, AFR, TF that overlap in time. Each action takes effect at a
 * random point inside its interval and the points are processed in time order, so every feed read shows a feed some
 * serial order allows (0 unpredictable expected, unless {@code errorRate} drops the newest share from that fraction of
 * reads, a delayed fan-out). For {@link ValidationBenchmark}'s feed mode.
 */
public final class SyntheticFeedRun {
    static final byte SR = 11;
    static final byte VNF = 12;
    static final byte AFR = 4;
    static final byte TF = 6;

    /**
     * @param reads     feed reads
     * @param graph     members, pages and who follows and befriends whom
     * @param mix       what the reads ask for and the writes that overlap them
     * @param errorRate fraction of feed reads that miss the newest share
     * @param files     log files (writers) the records are spread over
     * @param seed      random seed
     */
    public record Config(long reads, Graph graph, Mix mix, double errorRate, int files, long seed) {
        public static Config defaults(long reads) {
            return new Config(reads, new Graph(10_000, 100, 2, 10), new Mix(10, 0.05, 0.01, 64), 0, 16, 42);
        }

        public int members() {
            return graph.members();
        }

        public int pages() {
            return graph.pages();
        }

        public int follows() {
            return graph.follows();
        }

        public int friends() {
            return graph.friends();
        }

        public int k() {
            return mix.k();
        }

        public double shareRatio() {
            return mix.shareRatio();
        }

        public double changeRatio() {
            return mix.changeRatio();
        }

        public int concurrency() {
            return mix.concurrency();
        }
    }

    /**
     * @param members members (pages are extra accounts)
     * @param pages   pages
     * @param follows pages each member follows (ϱ)
     * @param friends initial friends per member (a ring: i ± 1 … ± friends/2)
     */
    public record Graph(int members, int pages, int follows, int friends) {}

    /**
     * @param k           feed size asked for
     * @param shareRatio  shares per feed read
     * @param changeRatio friendship changes per feed read
     * @param concurrency actions in flight at once (their intervals overlap)
     */
    public record Mix(int k, double shareRatio, double changeRatio, int concurrency) {}

    public record Summary(long reads, long shares, long changes, long injected) {}

    /** The state at the start of the run: the ring of friends, the follows, no share. */
    public static FeedState initialState(Config c) {
        return new FeedState() {
            @Override
            public int members() {
                return c.members();
            }

            @Override
            public int accounts() {
                return c.members() + c.pages();
            }

            @Override
            public void forEachFollowedAccount(int member, IntConsumer account) {
                for (int j = 0; j < c.follows(); j++) {
                    account.accept(c.members() + (member + j) % c.pages());
                }
            }

            @Override
            public void forEachFriend(int member, IntConsumer friend) {
                for (int d = 1; d <= c.friends() / 2; d++) {
                    friend.accept(Math.floorMod(member + d, c.members()));
                    friend.accept(Math.floorMod(member - d, c.members()));
                }
            }

            @Override
            public boolean friends(int a, int b) {
                int d = Math.floorMod(a - b, c.members());
                return d != 0 && Math.min(d, c.members() - d) <= c.friends() / 2;
            }

            @Override
            public void forEachShare(ShareSink sink) {}
        };
    }

    private SyntheticFeedRun() {}

    public static Summary generate(LogDirectory dir, Config c) {
        SplittableRandom rnd = new SplittableRandom(c.seed());
        int m = c.members();
        int accounts = m + c.pages();
        FeedState init = initialState(c);
        // friendships as sorted int arrays per member (small)
        int[][] fr = new int[m][];
        for (int i = 0; i < m; i++) {
            int[] box = new int[c.friends()];
            int[] n = {0};
            init.forEachFriend(i, f -> box[n[0]++] = f);
            fr[i] = Arrays.copyOf(box, n[0]);
            Arrays.sort(fr[i]);
        }
        long[][] shares = new long[accounts][];
        int[] nShares = new int[accounts];
        LogWriter[] w = new LogWriter[c.files()];
        for (int i = 0; i < w.length; i++) {
            w[i] = dir.newWriter();
        }
        // actions as a stream in point order: the point advances by an exponential gap; each action's interval
        // [point - before, point + after] with widths drawn so that about `concurrency` actions overlap
        long point = 1_000_000;
        long meanGap = 10_000; // 10 µs between points
        long width = meanGap * c.concurrency();
        long nextShare = 1;
        long reads = 0;
        long nSh = 0;
        long nCh = 0;
        long injected = 0;
        long[] out = new long[c.k()];
        int[] heads = new int[c.friends() * 4 + c.follows() + 8];
        double pShare = c.shareRatio() / (1 + c.shareRatio() + c.changeRatio());
        double pChange = c.changeRatio() / (1 + c.shareRatio() + c.changeRatio());
        while (reads < c.reads()) {
            point += 1 + (long) (-Math.log(1 - rnd.nextDouble()) * meanGap);
            long s = point - rnd.nextLong(width);
            long e = point + rnd.nextLong(width);
            LogWriter lw = w[rnd.nextInt(w.length)];
            double u = rnd.nextDouble();
            int x = rnd.nextInt(m);
            if (u < pShare) {
                int a = rnd.nextInt(10) == 0 ? m + rnd.nextInt(c.pages()) : x;
                // ids grow with the order the shares take effect in (a serial order the intervals allow)
                long id = nextShare++ * accounts + a;
                if (shares[a] == null) {
                    shares[a] = new long[4];
                }
                if (nShares[a] == shares[a].length) {
                    shares[a] = Arrays.copyOf(shares[a], nShares[a] * 2);
                }
                int at = nShares[a]++;
                while (at > 0 && shares[a][at - 1] > id) {
                    shares[a][at] = shares[a][at - 1];
                    at--;
                }
                shares[a][at] = id;
                lw.share(SR, a, id, a, s, e, null);
                nSh++;
            } else if (u < pShare + pChange) {
                int y;
                boolean began;
                if (fr[x].length > 0 && rnd.nextBoolean()) {
                    y = fr[x][rnd.nextInt(fr[x].length)];
                    began = false;
                } else {
                    y = rnd.nextInt(m);
                    if (y == x || Arrays.binarySearch(fr[x], y) >= 0) {
                        continue;
                    }
                    began = true;
                }
                fr[x] = toggle(fr[x], y, began);
                fr[y] = toggle(fr[y], x, began);
                lw.friendship(began ? AFR : TF, x, y, s, e, began);
                nCh++;
            } else {
                // the feed at the point: merge the producers' newest shares
                int np = 0;
                if (heads.length < fr[x].length + c.follows()) {
                    heads = new int[(fr[x].length + c.follows()) * 2];
                }
                for (int f : fr[x]) {
                    heads[np++] = f;
                }
                for (int j = 0; j < c.follows(); j++) {
                    heads[np++] = m + (x + j) % c.pages();
                }
                int n = topK(shares, nShares, heads, np, c.k(), out);
                if (c.errorRate() > 0 && n > 0 && rnd.nextDouble() < c.errorRate()) {
                    System.arraycopy(out, 1, out, 0, n - 1); // the newest share not fanned out yet
                    n--;
                    injected++;
                }
                lw.feedRead(VNF, x, c.k(), s, e, out, n);
                reads++;
            }
        }
        return new Summary(reads, nSh, nCh, injected);
    }

    private static int[] toggle(int[] a, int v, boolean add) {
        int i = Arrays.binarySearch(a, v);
        if (add) {
            if (i >= 0) {
                return a;
            }
            int[] b = Arrays.copyOf(a, a.length + 1);
            int at = -i - 1;
            System.arraycopy(a, at, b, at + 1, a.length - at);
            b[at] = v;
            return b;
        }
        if (i < 0) {
            return a;
        }
        int[] b = new int[a.length - 1];
        System.arraycopy(a, 0, b, 0, i);
        System.arraycopy(a, i + 1, b, i, a.length - i - 1);
        return b;
    }

    /** The k largest ids among the producers' shares, descending. */
    private static int topK(long[][] shares, int[] n, int[] prod, int np, int k, long[] out) {
        int size = 0;
        for (int q = 0; q < np; q++) {
            int a = prod[q];
            for (int j = n[a] - 1; j >= 0; j--) {
                long id = shares[a][j];
                if (size == k && id < out[k - 1]) {
                    break;
                }
                int at = size < k ? size++ : k - 1;
                while (at > 0 && out[at - 1] < id) {
                    out[at] = out[at - 1];
                    at--;
                }
                out[at] = id;
            }
        }
        return size;
    }
}
