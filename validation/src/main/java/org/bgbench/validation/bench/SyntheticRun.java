package org.bgbench.validation.bench;

import java.util.SplittableRandom;
import org.bgbench.validation.log.LogDirectory;
import org.bgbench.validation.log.LogWriter;

/**
 * Generates the logs of a synthetic run against a linearizable store, fast and deterministically: {@code threads}
 * virtual emulator threads each issue one action at a time (duration and think time drawn at random) on skewed items;
 * every action takes effect at a random point inside its interval, and points are processed in time order, so every
 * read observes a value some serial order allows. With {@code errorRate} &gt; 0 that fraction of reads observes one more
 * than the store held (not every such read is unpredictable: +1 may also be acceptable when writes overlap).
 */
public final class SyntheticRun {
    /**
     * @param records   records to write
     * @param load      the emulator threads and their actions
     * @param items     the items they act on
     * @param errorRate fraction of reads that observe value + 1
     * @param files     log files (writers) the records are spread over
     * @param seed      random seed
     */
    public record Config(long records, Load load, Items items, double errorRate, int files, long seed) {
        public static Config defaults(long records) {
            return new Config(
                    records, new Load(256, 0.1, 2_000_000, 1_000_000), new Items(100_000, 1_000_000, 3.0), 0, 16, 42);
        }

        public Config withSeed(long s) {
            return new Config(records, load, items, errorRate, files, s);
        }

        public int threads() {
            return load.threads();
        }

        public double writeFraction() {
            return load.writeFraction();
        }

        public long meanActionNs() {
            return load.meanActionNs();
        }

        public long meanThinkNs() {
            return load.meanThinkNs();
        }

        public int members() {
            return items.members();
        }

        public int resources() {
            return items.resources();
        }

        public double skew() {
            return items.skew();
        }
    }

    /**
     * @param threads       virtual emulator threads (they share items, so their actions overlap)
     * @param writeFraction fraction of actions that write (each writes one delta of ±1)
     * @param meanActionNs  mean action duration
     * @param meanThinkNs   mean idle time between two actions of a thread
     */
    public record Load(int threads, double writeFraction, long meanActionNs, long meanThinkNs) {}

    /**
     * @param members   items of kinds FRIENDS and PENDING
     * @param resources items of kind COMMENTS
     * @param skew      item skew: item = floor(n · u^skew); 1 is uniform, larger is more skewed
     */
    public record Items(int members, int resources, double skew) {}

    /** What was generated; {@link #initial} gives every item's initial value. */
    public record Summary(
            long records, long reads, long writes, long injectedErrors, long firstNanos, long lastNanos) {}

    private SyntheticRun() {}

    /** Initial value of an item: a deterministic function so the validator can be given it. */
    public static long initial(byte kind, long item) {
        long h = item * 0x9E3779B97F4A7C15L + kind;
        h ^= h >>> 29;
        return 10 + (h & 63);
    }

    public static Summary generate(LogDirectory dir, Config c) {
        SplittableRandom rnd = new SplittableRandom(c.seed());
        LogWriter[] writers = new LogWriter[c.files()];
        for (int i = 0; i < writers.length; i++) {
            writers[i] = dir.newWriter();
        }
        // change of every item since the start (its value is initial(kind, item) + this); kinds 0 and 1 are
        // members, kind 2 resources
        long[][] value = {new long[c.members()], new long[c.members()], new long[c.resources()]};
        // one pending action per thread, in a binary heap keyed by its point in time
        int t = c.threads();
        long[] point = new long[t];
        long[] start = new long[t];
        long[] end = new long[t];
        byte[] kind = new byte[t];
        long[] item = new long[t];
        boolean[] write = new boolean[t];
        int[] heap = new int[t];
        long now = 1_000_000_000L;
        for (int i = 0; i < t; i++) {
            schedule(
                    c, rnd, i, now + (long) (rnd.nextDouble() * c.meanThinkNs()), start, point, end, kind, item, write);
            heap[i] = i;
        }
        for (int i = t / 2 - 1; i >= 0; i--) {
            siftDown(heap, point, i, t);
        }
        long records = 0;
        long reads = 0;
        long injected = 0;
        long first = Long.MAX_VALUE;
        long last = Long.MIN_VALUE;
        while (records < c.records()) {
            int i = heap[0];
            byte k = kind[i];
            long it = item[i];
            LogWriter w = writers[i % writers.length];
            if (write[i]) {
                long d = rnd.nextBoolean() || value[k][(int) it] + initial(k, it) <= 0 ? 1 : -1;
                value[k][(int) it] += d;
                w.delta(action(k, true), k, it, start[i], end[i], d);
            } else {
                long observed = initial(k, it) + value[k][(int) it];
                if (c.errorRate() > 0 && rnd.nextDouble() < c.errorRate()) {
                    observed++;
                    injected++;
                }
                w.read(action(k, false), k, it, start[i], end[i], observed);
                reads++;
            }
            records++;
            first = Math.min(first, start[i]);
            last = Math.max(last, end[i]);
            long next = end[i] + exp(rnd, c.meanThinkNs());
            schedule(c, rnd, i, next, start, point, end, kind, item, write);
            siftDown(heap, point, 0, t);
        }
        for (LogWriter w : writers) {
            w.close();
        }
        return new Summary(records, reads, records - reads, injected, first, last);
    }

    /** BG's action codes (Action.ordinal()) for the kinds: VP/IF-AFR-ish for members, VCR/PCR for comments. */
    private static byte action(byte kind, boolean write) {
        return switch (kind) {
            case LogWriter.FRIENDS -> (byte) (write ? 4 : 0); // AFR : VP
            case LogWriter.PENDING -> (byte) (write ? 3 : 2); // IF : VFR
            default -> (byte) (write ? 9 : 8); // PCR : VCR
        };
    }

    private static void schedule(
            Config c,
            SplittableRandom rnd,
            int i,
            long s,
            long[] start,
            long[] point,
            long[] end,
            byte[] kind,
            long[] item,
            boolean[] write) {
        long d = exp(rnd, c.meanActionNs());
        start[i] = s;
        end[i] = s + d;
        point[i] = s + (d == 0 ? 0 : rnd.nextLong(d + 1));
        int k = rnd.nextInt(3);
        kind[i] = (byte) k;
        int n = k == 2 ? c.resources() : c.members();
        item[i] = Math.min(n - 1, (long) (n * Math.pow(rnd.nextDouble(), c.skew())));
        write[i] = rnd.nextDouble() < c.writeFraction();
    }

    private static long exp(SplittableRandom rnd, long mean) {
        return (long) (-Math.log(1 - rnd.nextDouble()) * mean);
    }

    private static void siftDown(int[] heap, long[] key, int i, int n) {
        int x = heap[i];
        long kx = key[x];
        while (true) {
            int l = 2 * i + 1;
            if (l >= n) {
                break;
            }
            int r = l + 1;
            int m = r < n && key[heap[r]] < key[heap[l]] ? r : l;
            if (key[heap[m]] >= kx) {
                break;
            }
            heap[i] = heap[m];
            i = m;
        }
        heap[i] = x;
    }
}
