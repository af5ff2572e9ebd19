package org.bgbench.validation;

import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.bgbench.validation.log.LogFormat;
import org.bgbench.validation.log.LogReader;

/**
 * Validation's pass 1 in one thread: reads log files, appends each record to its partition, and counts what it read
 * (records, reads, feed records, damage); the threads' passes are then added together.
 */
final class PartitionPass implements LogReader.RawVisitor {
    final Partitions.Appender appender;
    final int count;
    long records;
    long reads;
    long partial;
    long invalid;
    long minStart = Long.MAX_VALUE;
    long maxEnd = Long.MIN_VALUE;
    long feedReads;
    long feedReadsWithoutK;
    long feedShares;
    long feedChanges;
    /** Shares and friendship changes this thread decoded (all threads' after {@link #add}). */
    final List<FeedIndex.Collector> feedWrites = new ArrayList<>();

    private final FeedIndex.Collector collector = new FeedIndex.Collector();

    PartitionPass(Partitions parts) {
        this.appender = parts == null ? null : parts.appender();
        this.count = parts == null ? 0 : parts.count;
    }

    void read(Evidence.Source s, Evidence ev, List<String> warnings) {
        Path file = s.file();
        String name = s.name();
        long readsBefore = reads;
        LogReader r;
        try {
            r = s.entry() == null ? LogReader.open(file) : LogReader.open(file, s.entry(), ev.blockBytes);
        } catch (UncheckedIOException e) {
            if (s.entry() == null && ev.manifest == null && ev.writesComplete()) {
                throw e; // files given as they are: a foreign file is the caller's error
            }
            ev.problem(name, -1, "cannot be read: " + e.getCause().getMessage());
            ev.afterReading(s, LogFormat.HEADER_SIZE);
            return;
        }
        try (r) {
            records += r.forEachRaw(this);
            if (r.damage() != null) {
                ev.problem(name, r.damageOffset(), r.damage());
            }
            if (r.damage() == null && (r.partialRecordBytes() > 0 || r.truncatedHeader() || r.cutGroupRecords() > 0)) {
                partial++;
                String w = r.cutGroupRecords() > 0
                        ? "incomplete last feed record ignored (" + r.cutGroupRecords()
                                + " records of its group and " + r.partialRecordBytes() + " bytes; its writer did not "
                                + "finish cleanly)"
                        : "incomplete last record ignored (" + r.partialRecordBytes()
                                + " bytes; its writer did not finish cleanly)";
                if (s.entry() != null) {
                    ev.problem(name, r.deliveredEnd(), w);
                } else {
                    warnings.add(name + ": " + w);
                }
            }
            if (r.invalidRecords() > 0) {
                invalid += r.invalidRecords();
                if (s.entry() == null) {
                    warnings.add(name + ": invalid record at byte " + r.deliveredEnd() + "; the " + r.invalidRecords()
                            + " record(s) after it were skipped");
                }
            }
            ev.afterReading(s, r.deliveredEnd());
            if (s.entry() != null
                    && reads - readsBefore < s.entry().reads()
                    && r.damage() == null
                    && r.partialRecordBytes() == 0
                    && s.entry().ok()) {
                ev.problem(
                        name,
                        r.deliveredEnd(),
                        String.format(
                                Locale.ROOT,
                                "holds %,d reads; the run logged " + "%,d",
                                reads - readsBefore,
                                s.entry().reads()));
            }
        }
    }

    @Override
    public void record(byte[] b, int off) {
        int type = LogFormat.type(b, off);
        if (type >= LogFormat.TYPE_FEED_READ) {
            feedRecord(b, off, type);
            return;
        }
        byte kind = LogFormat.kind(b, off);
        long item = LogFormat.item(b, off);
        if (appender != null) {
            appender.append(Partitions.partition(Partitions.hash(kind, item), count), b, off);
        }
        if (type == LogFormat.TYPE_READ) {
            reads++;
        }
        times(b, off);
    }

    private void times(byte[] b, int off) {
        long s = LogFormat.start(b, off);
        long e = LogFormat.end(b, off);
        if (s < minStart) {
            minStart = s;
        }
        if (e > maxEnd) {
            maxEnd = e;
        }
    }

    /**
     * Feed records (dissertation 6.1.2): a feed read goes, with its continuations, to its member's partition; shares
     * and friendship changes are kept for the index every feed read is checked against. The reader hands a group out
     * only whole, so at its head the whole group is in {@code b}.
     */
    private void feedRecord(byte[] b, int off, int type) {
        switch (type) {
            case LogFormat.TYPE_FEED_READ -> {
                reads++;
                feedReads++;
                if (LogFormat.value(b, off) >>> 32 == 0) {
                    feedReadsWithoutK++;
                }
                if (appender != null) {
                    long member = LogFormat.item(b, off);
                    appender.appendGroup(
                            Partitions.partition(Partitions.hash(LogFormat.KIND_FEED, member), count),
                            b,
                            off,
                            LogFormat.groupRecords(b, off));
                }
                times(b, off);
            }
            case LogFormat.TYPE_SHARE -> {
                feedShares++;
                collector.share(b, off);
                times(b, off);
            }
            case LogFormat.TYPE_FRIENDSHIP -> {
                feedChanges++;
                collector.friendship(b, off);
                times(b, off);
            }
            default -> {
                // a continuation: handled with its head
            }
        }
    }

    void add(PartitionPass o) {
        feedReads += o.feedReads;
        feedReadsWithoutK += o.feedReadsWithoutK;
        feedShares += o.feedShares;
        feedChanges += o.feedChanges;
        feedWrites.add(o.collector);
        records += o.records;
        reads += o.reads;
        partial += o.partial;
        invalid += o.invalid;
        minStart = Math.min(minStart, o.minStart);
        maxEnd = Math.max(maxEnd, o.maxEnd);
    }
}
