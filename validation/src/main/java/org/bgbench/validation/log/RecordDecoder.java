package org.bgbench.validation.log;

/**
 * Decodes raw log records for a {@link LogVisitor}: plain records field by field, a feed record with its
 * continuations into arrays (which it allocates: not for hot paths).
 */
public final class RecordDecoder {
    private RecordDecoder() {}

    /** A raw visitor that decodes records and whole groups for {@code visitor}. */
    public static LogReader.RawVisitor decoding(LogVisitor visitor) {
        return (b, off) -> {
            int type = LogFormat.type(b, off);
            byte action = LogFormat.action(b, off);
            long item = LogFormat.item(b, off);
            long s = LogFormat.start(b, off);
            long e = LogFormat.end(b, off);
            long v = LogFormat.value(b, off);
            switch (type) {
                case LogFormat.TYPE_FEED_READ -> {
                    int n = (int) v;
                    long[] ids = new long[n];
                    for (int i = 0; i < n; i++) {
                        ids[i] = LogFormat.feedShareId(b, off, i);
                    }
                    visitor.feedRead(action, (int) item, (int) (v >>> 32), s, e, ids, n);
                }
                case LogFormat.TYPE_SHARE -> {
                    int n = (int) v;
                    int[] rec = n < 0 ? null : new int[n];
                    for (int i = 0; i < n; i++) {
                        rec[i] = LogFormat.shareRecipient(b, off, i);
                    }
                    visitor.share(action, (int) (v >>> 32), item, LogFormat.shareResource(b, off), s, e, rec);
                }
                case LogFormat.TYPE_FRIENDSHIP ->
                    visitor.friendship(action, (int) item, (int) v, s, e, LogFormat.kind(b, off) != 0);
                case LogFormat.TYPE_CONTINUATION -> {
                    // decoded with its head
                }
                default -> visitor.record(type, LogFormat.kind(b, off), action, item, s, e, v);
            }
        };
    }
}
