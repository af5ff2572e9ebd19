package org.bgbench.validation;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
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

    static final Comparator<UnpredictableRead> SAMPLE_ORDER = Comparator.comparingLong(UnpredictableRead::startNanos)
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

    // feed reads of the partition being processed (dissertation 6.1.2)
    private final FeedChecker feeds;
    private int nf;
    private int[] fMember = new int[0];
    private long[] fStart = new long[0];
    private long[] fEnd = new long[0];
    private int[] fK = new int[0];
    private int[] fN = new int[0];
    private byte[] fAction = new byte[0];
    private int[] fOff = new int[0];
    private long[] fIds = new long[0];
    private int nIds;
    private int idsLeft;
    private int[] fIdx = new int[0];
    private long[] fKey = new long[0];
    final long[] feedFreshReads;
    final long[] feedFreshValid;
    long feedFreshTotal;
    long feedFreshBeyond;

    PartitionProcessor(
            ItemValues values,
            ValueMode mode,
            ReadListener listener,
            String[] actionNames,
            int sampleLimit,
            int buckets,
            long horizonNanos) {
        this(values, mode, listener, actionNames, sampleLimit, buckets, horizonNanos, null);
    }

    /** @param feedIndex the shares and friendship changes, or null: feed reads are then skipped */
    PartitionProcessor(
            ItemValues values,
            ValueMode mode,
            ReadListener listener,
            String[] actionNames,
            int sampleLimit,
            int buckets,
            long horizonNanos,
            FeedIndex feedIndex) {
        this.feeds = feedIndex == null ? null : new FeedChecker(feedIndex);
        this.feedFreshReads = new long[buckets];
        this.feedFreshValid = new long[buckets];
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
        // count item records (feed reads are kept apart: a head and its continuations, see LogFormat)
        final long[] counts = new long[3]; // item records, feed reads, feed share ids
        parts.read(p, (b, off, len) -> {
            for (int o = off, end = off + len; o < end; o += LogFormat.RECORD_SIZE) {
                int type = LogFormat.type(b, o);
                if (type == LogFormat.TYPE_FEED_READ) {
                    counts[1]++;
                    counts[2] += (int) LogFormat.value(b, o);
                } else if (type < LogFormat.TYPE_FEED_READ) {
                    counts[0]++;
                }
            }
        });
        final int n = (int) counts[0];
        int nb = Integer.highestOneBit(Math.max(1, n / BUCKET_TARGET));
        if (nb < n / BUCKET_TARGET) {
            nb <<= 1;
        }
        final int mask = nb - 1;
        final int[] start = new int[nb + 1];
        if (n > 0) {
            parts.read(p, (b, off, len) -> {
                for (int o = off, end = off + len; o < end; o += LogFormat.RECORD_SIZE) {
                    if (LogFormat.type(b, o) >= LogFormat.TYPE_FEED_READ) {
                        continue;
                    }
                    long h = Partitions.hash(LogFormat.kind(b, o), LogFormat.item(b, o));
                    start[(int) (h & mask) + 1]++;
                }
            });
        }
        for (int i = 0; i < nb; i++) {
            start[i + 1] += start[i];
        }
        final int[] next = start.clone();
        if (table.length < n * ROW) {
            // kept for the next partitions of this worker: no churn of huge arrays for the garbage collector
            table = new long[n * ROW];
        }
        prepareFeeds((int) counts[1], (int) counts[2]);
        final long[] rows = table;
        parts.read(p, (b, off, len) -> {
            for (int o = off, end = off + len; o < end; o += LogFormat.RECORD_SIZE) {
                int type = LogFormat.type(b, o);
                if (type >= LogFormat.TYPE_FEED_READ) {
                    feedRecord(b, o, type);
                    continue;
                }
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
        for (int bkt = 0; bkt < nb && n > 0; bkt++) {
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
        checkFeeds();
    }

    private void prepareFeeds(int reads, int ids) {
        nf = 0;
        nIds = 0;
        idsLeft = 0;
        if (fMember.length < reads) {
            int c = Math.max(reads, fMember.length * 2);
            fMember = new int[c];
            fStart = new long[c];
            fEnd = new long[c];
            fK = new int[c];
            fN = new int[c];
            fAction = new byte[c];
            fOff = new int[c];
            fIdx = new int[c];
            fKey = new long[c];
        }
        if (fIds.length < ids) {
            fIds = new long[Math.max(ids, fIds.length * 2)];
        }
    }

    /** A feed-read head or one of its continuations (they follow their head, maybe in the next block). */
    private void feedRecord(byte[] b, int o, int type) {
        if (type == LogFormat.TYPE_FEED_READ) {
            int f = nf++;
            long v = LogFormat.value(b, o);
            fMember[f] = (int) LogFormat.item(b, o);
            fStart[f] = LogFormat.start(b, o);
            fEnd[f] = LogFormat.end(b, o);
            fK[f] = (int) (v >>> 32);
            fN[f] = (int) v;
            fAction[f] = LogFormat.action(b, o);
            fOff[f] = nIds;
            idsLeft = (int) v;
        } else if (type == LogFormat.TYPE_CONTINUATION) {
            for (int j = 0; j < 4 && idsLeft > 0; j++, idsLeft--) {
                fIds[nIds++] = (long) LONG_LE.get(b, o + LogFormat.OFF_PAYLOAD + 8 * j);
            }
        }
    }

    private static final VarHandle LONG_LE =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    /** Checks the partition's feed reads member by member, each member's in start order. */
    private void checkFeeds() {
        if (nf == 0) {
            return;
        }
        for (int i = 0; i < nf; i++) {
            fIdx[i] = i;
            fKey[i] = fMember[i];
        }
        Sorts.byKey(fIdx, 0, nf, fKey);
        curKind = LogFormat.KIND_FEED;
        int i = 0;
        while (i < nf) {
            int member = fMember[fIdx[i]];
            int j = i;
            while (j < nf && fMember[fIdx[j]] == member) {
                j++;
            }
            Sorts.byKey(fIdx, i, j, fStart);
            curItem = member;
            if (feeds != null) {
                feeds.member(member);
            }
            for (int q = i; q < j; q++) {
                int f = fIdx[q];
                int status;
                long fresh;
                if (feeds == null) {
                    status = ItemChecker.SKIPPED;
                    fresh = ItemChecker.NO_WRITE;
                } else {
                    status = feeds.check(fStart[f], fEnd[f], fK[f], fIds, fOff[f], fN[f]);
                    fresh = feeds.freshness();
                }
                curFeed = f;
                count(fAction[f], fStart[f], fEnd[f], fN[f], status, fresh, 0, false);
                if (status != ItemChecker.SKIPPED && fresh != ItemChecker.NO_WRITE) {
                    feedFreshTotal++;
                    if (fresh > horizon) {
                        feedFreshBeyond++;
                    } else {
                        int bkt = bucket(fresh, buckets, horizon);
                        feedFreshReads[bkt]++;
                        if (status == ItemChecker.VALID) {
                            feedFreshValid[bkt]++;
                        }
                    }
                }
            }
            i = j;
        }
        curFeed = -1;
    }

    /** The feed read being counted (for its sample), -1 for item reads. */
    private int curFeed = -1;

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
                count(
                        (byte) (rows[r + META] >>> 8),
                        rows[r + START],
                        rows[r + END],
                        observed,
                        observed == value ? ItemChecker.VALID : ItemChecker.UNPREDICTABLE,
                        ItemChecker.NO_WRITE,
                        value,
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

    private void count(
            byte action,
            long start,
            long end,
            long observed,
            int status,
            long fresh,
            long onlyValue,
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
            listener.read(
                    action,
                    curKind,
                    curItem,
                    start,
                    end,
                    observed,
                    status == ItemChecker.VALID
                            ? Verdict.VALID
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
        String acceptable;
        String shown = null;
        if (curFeed >= 0) {
            int f = curFeed;
            acceptable = feeds.describe(start, end, fK[f]);
            StringBuilder sb = new StringBuilder("[");
            for (int i = 0; i < fN[f]; i++) {
                sb.append(i > 0 ? ", " : "").append(fIds[fOff[f] + i]);
            }
            shown = sb.append(']').toString();
        } else {
            acceptable = fromChecker ? checker.acceptable().describe(8) : "[" + onlyValue + "]";
        }
        UnpredictableRead s = new UnpredictableRead(
                a,
                actionName(actionNames, a),
                curKind,
                curItem,
                new UnpredictableRead.Span(start, end),
                observed,
                acceptable,
                shown);
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
