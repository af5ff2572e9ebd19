package org.bgbench.validation;

import java.util.Arrays;
import java.util.Comparator;
import java.util.PriorityQueue;
import org.bgbench.validation.log.LogFormat;

/**
 * Pass 2 for one worker thread: loads a partition into a row-major table, bucketed by the low bits of the item hash
 * so that each bucket is small enough to work on in cache, groups every bucket's rows by (kind, item), orders each
 * group by start time and checks the item's reads with an {@link ItemChecker}. Accumulates its counts; {@link Validator} merges the workers.
 */
final class PartitionProcessor implements ItemChecker.Sink {
    static final int ROW = 5;
    static final int ITEM = 0;
    static final int START = 1;
    static final int END = 2;
    static final int VALUE = 3;
    /** tag (type << 4 | kind) | action << 8 */
    static final int META = 4;

    /** Bytes of heap per record while a partition is processed: the row table and the bucket's index. */
    static final int WORK_BYTES_PER_RECORD = ROW * 8 + 8;

    private static final int BUCKET_TARGET = 8192;

    static final Comparator<UnpredictableRead> SAMPLE_ORDER = Comparator
            .comparingLong(UnpredictableRead::startNanos)
            .thenComparingInt(UnpredictableRead::kind)
            .thenComparingLong(UnpredictableRead::item)
            .thenComparingLong(UnpredictableRead::endNanos)
            .thenComparingInt(UnpredictableRead::action)
            .thenComparingLong(UnpredictableRead::observed);

    private final ItemValues values;
    private final boolean valuesAreFinal;
    private final ReadListener listener;
    private final String[] actionNames;
    private final int sampleLimit;
    private final int buckets;
    private final long horizon;

    private final ItemChecker checker = new ItemChecker();
    private long[] table = new long[0];
    private long retainRows = Long.MAX_VALUE;
    private int[] idx = new int[1024];
    private int[] gid = new int[1024];
    private int[] slot = new int[0];
    private long[] gItem = new long[256];
    private byte[] gKind = new byte[256];
    private int[] gStart = new int[257];

    // counts
    final long[] checkedPerAction = new long[256];
    final long[] unpredictablePerAction = new long[256];
    final long[] skippedPerAction = new long[256];
    long checked;
    long unpredictable;
    long skipped;
    long unwrittenReads;
    long noOverlapReads;
    final long[] freshReads;
    final long[] freshValid;
    long freshBeyond;
    long freshTotal;
    /** Max-heap on {@link #SAMPLE_ORDER}: the worst of the kept samples on top. */
    final PriorityQueue<UnpredictableRead> samples;

    // item being checked
    private byte curKind;
    private long curItem;

    PartitionProcessor(ItemValues values, ValueMode mode, ReadListener listener, String[] actionNames,
            int sampleLimit, int buckets, long horizonNanos) {
        this.values = values;
        this.valuesAreFinal = mode == ValueMode.FINAL;
        this.listener = listener;
        this.actionNames = actionNames;
        this.sampleLimit = sampleLimit;
        this.buckets = buckets;
        this.horizon = horizonNanos;
        this.freshReads = new long[buckets];
        this.freshValid = new long[buckets];
        this.samples = new PriorityQueue<>(Math.max(1, sampleLimit) + 1, SAMPLE_ORDER.reversed());
    }

    void process(Partitions parts, int p) {
        long n64 = parts.records.get(p);
        if (n64 == 0) {
            parts.release(p);
            return;
        }
        if (n64 > (Integer.MAX_VALUE - 8) / ROW) {
            throw new IllegalStateException("partition of " + n64 + " records is too large; give more memory or "
                    + "check for one item with an enormous number of records");
        }
        final int n = (int) n64;
        int nb = Integer.highestOneBit(Math.max(1, n / BUCKET_TARGET));
        if (nb < n / BUCKET_TARGET) {
            nb <<= 1;
        }
        final int mask = nb - 1;
        final int[] start = new int[nb + 1];
        parts.read(p, (b, off, len) -> {
            for (int o = off, end = off + len; o < end; o += LogFormat.RECORD_SIZE) {
                long h = Partitions.hash(LogFormat.kind(b, o), LogFormat.item(b, o));
                start[(int) (h & mask) + 1]++;
            }
        });
        for (int i = 0; i < nb; i++) {
            start[i + 1] += start[i];
        }
        final int[] next = start.clone();
        if (table.length < n * ROW) {
            // kept for the next partitions of this worker: no churn of huge arrays for the garbage collector
            table = new long[n * ROW];
        }
        final long[] rows = table;
        parts.read(p, (b, off, len) -> {
            for (int o = off, end = off + len; o < end; o += LogFormat.RECORD_SIZE) {
                byte kind = LogFormat.kind(b, o);
                long item = LogFormat.item(b, o);
                int r = next[(int) (Partitions.hash(kind, item) & mask)]++ * ROW;
                rows[r + ITEM] = item;
                rows[r + START] = LogFormat.start(b, o);
                rows[r + END] = LogFormat.end(b, o);
                rows[r + VALUE] = LogFormat.value(b, o);
                rows[r + META] = LogFormat.tag(b, o) | (LogFormat.action(b, o) & 0xFF) << 8;
            }
        });
        parts.release(p);
        for (int bkt = 0; bkt < nb; bkt++) {
            int from = start[bkt];
            int m = start[bkt + 1] - from;
            if (m == 0) {
                continue;
            }
            groupBucket(rows, from, m);
        }
        if (table.length > retainRows) {
            table = new long[0]; // an unusually large partition: do not keep its memory while others are processed
        }
    }

    /** Keep the row table between partitions only up to this many longs. */
    void retainRows(long longs) {
        this.retainRows = longs;
    }

    /**
     * Groups the m rows from row {@code from} by (kind, item) with a small hash table (the bucket fits in cache),
     * orders each group by start time and checks it.
     */
    private void groupBucket(long[] rows, int from, int m) {
        if (idx.length < m) {
            int c = Math.max(m, idx.length * 2);
            idx = new int[c];
            gid = new int[c];
        }
        int cap = Integer.highestOneBit(Math.max(2, m)) << 2; // load factor <= 1/2
        if (slot.length < cap) {
            slot = new int[cap];
        }
        Arrays.fill(slot, 0, cap, 0);
        final int smask = cap - 1;
        int groups = 0;
        for (int pos = 0; pos < m; pos++) {
            int r = (from + pos) * ROW;
            long item = rows[r + ITEM];
            byte kind = (byte) (rows[r + META] & 0x0F);
            int s = (int) (Partitions.hash(kind, item) >>> 17) & smask;
            int g;
            while (true) {
                g = slot[s] - 1;
                if (g < 0) {
                    g = groups++;
                    if (g == gItem.length) {
                        int c = g * 2;
                        gItem = Arrays.copyOf(gItem, c);
                        gKind = Arrays.copyOf(gKind, c);
                        gStart = Arrays.copyOf(gStart, c + 1);
                    }
                    gItem[g] = item;
                    gKind[g] = kind;
                    gStart[g] = 0;
                    slot[s] = g + 1;
                    break;
                }
                if (gItem[g] == item && gKind[g] == kind) {
                    break;
                }
                s = (s + 1) & smask;
            }
            gid[pos] = g;
            gStart[g]++;
        }
        // counting sort of the rows by group: gStart[g] becomes the first position of group g
        int sum = 0;
        for (int g = 0; g < groups; g++) {
            int c = gStart[g];
            gStart[g] = sum;
            sum += c;
        }
        gStart[groups] = sum;
        for (int pos = 0; pos < m; pos++) {
            idx[gStart[gid[pos]]++] = from + pos;
        }
        // gStart[g] is now the end of group g, i.e. the start of group g + 1
        int begin = 0;
        for (int g = 0; g < groups; g++) {
            int end = gStart[g];
            Sorts.byKey(idx, begin, end, rows, ROW, START);
            group(rows, begin, end, gKind[g], gItem[g]);
            begin = end;
        }
    }

    private void group(long[] rows, int from, int to, byte kind, long item) {
        int reads = 0;
        for (int i = from; i < to; i++) {
            if ((rows[idx[i] * ROW + META] >>> 4 & 0x0F) == LogFormat.TYPE_READ) {
                reads++;
            }
        }
        if (reads == 0) {
            return;
        }
        curKind = kind;
        curItem = item;
        long value = values.value(kind, item);
        if (reads == to - from) {
            // never written: the only acceptable value is the item's value, initial or final alike
            for (int i = from; i < to; i++) {
                int r = idx[i] * ROW;
                long observed = rows[r + VALUE];
                unwrittenReads++;
                count((byte) (rows[r + META] >>> 8), rows[r + START], rows[r + END], observed,
                        observed == value ? ItemChecker.VALID : ItemChecker.UNPREDICTABLE, ItemChecker.NO_WRITE, value,
                        false);
            }
            return;
        }
        ItemChecker c = checker;
        c.begin();
        for (int i = from; i < to; i++) {
            int r = idx[i] * ROW;
            long meta = rows[r + META];
            int type = (int) (meta >>> 4 & 0x0F);
            if (type == LogFormat.TYPE_READ) {
                c.addRead(rows[r + START], rows[r + END], rows[r + VALUE], (byte) (meta >>> 8));
            } else if (type == LogFormat.TYPE_DELTA) {
                c.addDelta(rows[r + START], rows[r + END], rows[r + VALUE]);
            } else {
                c.addAbsolute(rows[r + START], rows[r + END], rows[r + VALUE]);
            }
        }
        c.run(value, valuesAreFinal, this);
    }

    @Override
    public void verdict(int r, int status, long freshnessNanos) {
        ItemChecker c = checker;
        if (!c.lastReadOverlapped() && status != ItemChecker.SKIPPED) {
            noOverlapReads++;
        }
        count(c.readAction(r), c.readStart(r), c.readEnd(r), c.readValue(r), status, freshnessNanos, 0, true);
    }

    private void count(byte action, long start, long end, long observed, int status, long fresh, long onlyValue,
            boolean fromChecker) {
        int a = action & 0xFF;
        if (status == ItemChecker.SKIPPED) {
            skipped++;
            skippedPerAction[a]++;
        } else {
            checked++;
            checkedPerAction[a]++;
            boolean valid = status == ItemChecker.VALID;
            if (!valid) {
                unpredictable++;
                unpredictablePerAction[a]++;
                sample(action, start, end, observed, onlyValue, fromChecker);
            }
            if (fresh != ItemChecker.NO_WRITE) {
                freshTotal++;
                if (fresh > horizon) {
                    freshBeyond++;
                } else {
                    int bkt = bucket(fresh, buckets, horizon);
                    freshReads[bkt]++;
                    if (valid) {
                        freshValid[bkt]++;
                    }
                }
            }
        }
        if (listener != null) {
            listener.read(action, curKind, curItem, start, end, observed,
                    status == ItemChecker.VALID ? Verdict.VALID
                            : status == ItemChecker.UNPREDICTABLE ? Verdict.UNPREDICTABLE : Verdict.SKIPPED);
        }
    }

    /** Bucket of freshness {@code t} in [0, horizon]: floor(t · b / horizon), the last bucket closed. */
    static int bucket(long t, int b, long horizon) {
        long hi = Math.multiplyHigh(t, b);
        long lo = t * b;
        long q;
        if (hi == 0 && lo >= 0) {
            q = lo / horizon;
        } else {
            q = (long) ((double) t * b / horizon);
        }
        return (int) Math.min(Math.max(q, 0), b - 1);
    }

    private void sample(byte action, long start, long end, long observed, long onlyValue, boolean fromChecker) {
        if (sampleLimit <= 0) {
            return;
        }
        int a = action & 0xFF;
        if (samples.size() >= sampleLimit) {
            UnpredictableRead worst = samples.peek();
            // cheap test before building the description: is this read earlier than the worst kept one?
            if (start > worst.startNanos() || (start == worst.startNanos() && curKind > worst.kind())) {
                return;
            }
        }
        String acceptable = fromChecker ? checker.acceptable().describe(8) : "[" + onlyValue + "]";
        UnpredictableRead s = new UnpredictableRead(a, actionName(actionNames, a), curKind, curItem, start, end,
                observed, acceptable);
        if (samples.size() < sampleLimit) {
            samples.add(s);
        } else if (SAMPLE_ORDER.compare(s, samples.peek()) < 0) {
            samples.poll();
            samples.add(s);
        }
    }

    static String actionName(String[] names, int code) {
        return names != null && code < names.length && names[code] != null ? names[code] : Integer.toString(code);
    }
}
