package org.bgbench.validation.log;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * The binary layout of a validation log file (all numbers little-endian).
 *
 * <pre>
 * header, 32 bytes
 *   0  4  magic "BGVL"
 *   4  2  format version (2; version 1 files, which hold types 1..3 only, are still read)
 *   6  2  record size in bytes (34)
 *   8  8  writer id (the n of thread-n.bglog)
 *  16  8  wall-clock time the file was created, ms since the epoch
 *  24  8  System.nanoTime() when the file was created (relates record times to the wall clock)
 * record, 34 bytes
 *   0  1  tag: type &lt;&lt; 4 | kind   (type 1 read, 2 delta write, 3 absolute write; kind 0..15)
 *   1  1  action code (unsigned)
 *   2  8  item id
 *  10  8  start, System.nanoTime()
 *  18  8  end, System.nanoTime()
 *  26  8  value: observed value (read), change (delta write), new value (absolute write)
 * </pre>
 *
 * A tag of 0 is never written, so a zero-filled tail left by a crash is recognised as the end of the log.
 *
 * <p>Version 2 adds the feed records (dissertation 6.1.2), whose length varies. Each is a <em>group</em>: a head record
 * of the layout above followed by the continuation records its head announces, which carry a byte stream of 32 bytes
 * each. A group is delivered whole or not at all, so one cut by a crash at the end of a file is dropped, not misread.
 *
 * <pre>
 * type 4 feed read (VNF)   item = member index, value = k &lt;&lt; 32 | n (k 0: unknown), kind 3;
 *                          stream: the n share ids observed, in the store's order, 8 bytes each
 * type 5 share (SR)        item = share id, value = account &lt;&lt; 32 | recipient count (-1: public), kind 4;
 *                          stream: the resource id (8 bytes), then the recipients' member indexes (4 bytes each)
 * type 6 friendship        item = member a, value = member b, kind 1 when it began (AFR), 0 when it ended (TF);
 *                          no continuation
 * type 7 continuation      byte 1 = its index in the group (mod 256), bytes 2..33 = the next 32 bytes of the stream
 * </pre>
 */
public final class LogFormat {
    /** "BGVL" read as a little-endian int. */
    public static final int MAGIC = 'B' | 'G' << 8 | 'V' << 16 | 'L' << 24;

    public static final short VERSION = 2;
    /** The first version, without feed records; still read. */
    public static final short VERSION_1 = 1;

    public static final int HEADER_SIZE = 32;
    public static final int RECORD_SIZE = 34;

    public static final byte TYPE_READ = 1;
    public static final byte TYPE_DELTA = 2;
    public static final byte TYPE_ABSOLUTE = 3;
    /** Head of a View News Feed read's group (version 2). */
    public static final byte TYPE_FEED_READ = 4;
    /** Head of a Share Resource's group (version 2). */
    public static final byte TYPE_SHARE = 5;
    /** A friendship began or ended (version 2): one record. */
    public static final byte TYPE_FRIENDSHIP = 6;
    /** A continuation of the group whose head precedes it (version 2). */
    public static final byte TYPE_CONTINUATION = 7;

    /** Kind of feed-read heads (beyond the item kinds FRIENDS 0, PENDING 1, COMMENTS 2). */
    public static final byte KIND_FEED = 3;
    /** Kind of share heads. */
    public static final byte KIND_SHARE = 4;

    /** Bytes of a group's stream each continuation carries. */
    public static final int CONTINUATION_BYTES = 32;
    /** Offset of the stream in a continuation record. */
    public static final int OFF_PAYLOAD = 2;
    /**
     * Largest group (head and continuations) a writer makes: a reader holds a whole group in its buffer before it
     * hands it out. 4,096 records carry 16,380 share ids or 32,758 recipients.
     */
    public static final int MAX_GROUP_RECORDS = 4096;

    /** Kinds are 4 bits: 0..15. */
    public static final int MAX_KIND = 15;

    static final int OFF_TAG = 0;
    static final int OFF_ACTION = 1;
    static final int OFF_ITEM = 2;
    static final int OFF_START = 10;
    static final int OFF_END = 18;
    static final int OFF_VALUE = 26;

    private static final VarHandle LONG_LE =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle INT_LE = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle SHORT_LE =
            MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.LITTLE_ENDIAN);

    private LogFormat() {}

    /** Record type of a raw record at {@code off}: 1..3, anything else is invalid. */
    public static int type(byte[] b, int off) {
        return (b[off + OFF_TAG] >>> 4) & 0x0F;
    }

    public static byte kind(byte[] b, int off) {
        return (byte) (b[off + OFF_TAG] & 0x0F);
    }

    public static int tag(byte[] b, int off) {
        return b[off + OFF_TAG] & 0xFF;
    }

    public static byte action(byte[] b, int off) {
        return b[off + OFF_ACTION];
    }

    public static long item(byte[] b, int off) {
        return (long) LONG_LE.get(b, off + OFF_ITEM);
    }

    public static long start(byte[] b, int off) {
        return (long) LONG_LE.get(b, off + OFF_START);
    }

    public static long end(byte[] b, int off) {
        return (long) LONG_LE.get(b, off + OFF_END);
    }

    public static long value(byte[] b, int off) {
        return (long) LONG_LE.get(b, off + OFF_VALUE);
    }

    /** Whether the tag byte at {@code off} starts a well-formed record of the current version. */
    public static boolean validTag(byte[] b, int off) {
        int type = type(b, off);
        return type >= TYPE_READ && type <= TYPE_CONTINUATION;
    }

    /** Whether the tag byte at {@code off} is a record type a file of {@code version} may hold. */
    public static boolean validTag(byte[] b, int off, int version) {
        int type = type(b, off);
        return type >= TYPE_READ && type <= (version == VERSION_1 ? TYPE_ABSOLUTE : TYPE_CONTINUATION);
    }

    /** Whether a record of {@code type} is a read (an item read or a feed read). */
    public static boolean isRead(int type) {
        return type == TYPE_READ || type == TYPE_FEED_READ;
    }

    /** Whether a record of {@code type} is a write (delta, absolute, share, friendship). */
    public static boolean isWrite(int type) {
        return type == TYPE_DELTA || type == TYPE_ABSOLUTE || type == TYPE_SHARE || type == TYPE_FRIENDSHIP;
    }

    /** Continuation records that follow a feed-read head observing {@code n} shares. */
    public static int feedContinuations(int n) {
        return (n * 8 + CONTINUATION_BYTES - 1) / CONTINUATION_BYTES;
    }

    /** Continuation records that follow a share head with {@code recipients} recipients (-1: public). */
    public static int shareContinuations(int recipients) {
        return (8 + 4 * Math.max(0, recipients) + CONTINUATION_BYTES - 1) / CONTINUATION_BYTES;
    }

    /**
     * Records of the group whose head is at {@code off} (1 for a record that is not a head), or -1 when the record
     * cannot start a group (a continuation, an invalid tag, a head announcing an impossible length).
     */
    public static int groupRecords(byte[] b, int off) {
        int type = type(b, off);
        long v;
        long c;
        switch (type) {
            case TYPE_READ, TYPE_DELTA, TYPE_ABSOLUTE, TYPE_FRIENDSHIP -> {
                return 1;
            }
            case TYPE_FEED_READ -> {
                v = value(b, off);
                int n = (int) v;
                if (n < 0) {
                    return -1;
                }
                c = feedContinuations(n);
            }
            case TYPE_SHARE -> {
                int r = (int) value(b, off);
                if (r < -1) {
                    return -1;
                }
                c = shareContinuations(r);
            }
            default -> {
                return -1;
            }
        }
        return c + 1 > MAX_GROUP_RECORDS ? -1 : (int) c + 1;
    }

    /** Byte {@code i} of the stream of the group whose head is at {@code head} (its continuations follow it). */
    static int streamOffset(int head, int i) {
        return head + RECORD_SIZE * (1 + i / CONTINUATION_BYTES) + OFF_PAYLOAD + i % CONTINUATION_BYTES;
    }

    /** The {@code i}-th share id of the feed-read group at {@code head}. */
    public static long feedShareId(byte[] b, int head, int i) {
        return streamLong(b, head, 8 * i);
    }

    /** The resource of the share group at {@code head}. */
    public static long shareResource(byte[] b, int head) {
        return streamLong(b, head, 0);
    }

    /** The {@code i}-th recipient of the share group at {@code head}. */
    public static int shareRecipient(byte[] b, int head, int i) {
        return (int) INT_LE.get(b, streamOffset(head, 8 + 4 * i)); // 4-byte aligned in the stream: never split
    }

    private static long streamLong(byte[] b, int head, int i) {
        // 8-byte values start at multiples of 8 in the stream, so one never straddles two continuations
        return (long) LONG_LE.get(b, streamOffset(head, i));
    }

    /** Encodes one record into {@code b} at {@code off}. */
    public static void encode(
            byte[] b, int off, int type, byte kind, byte action, long item, long start, long end, long value) {
        b[off + OFF_TAG] = (byte) (type << 4 | kind);
        b[off + OFF_ACTION] = action;
        LONG_LE.set(b, off + OFF_ITEM, item);
        LONG_LE.set(b, off + OFF_START, start);
        LONG_LE.set(b, off + OFF_END, end);
        LONG_LE.set(b, off + OFF_VALUE, value);
    }

    static void encodeHeader(byte[] b, long writerId, long wallMillis, long nanoTime) {
        INT_LE.set(b, 0, MAGIC);
        SHORT_LE.set(b, 4, VERSION);
        SHORT_LE.set(b, 6, (short) RECORD_SIZE);
        LONG_LE.set(b, 8, writerId);
        LONG_LE.set(b, 16, wallMillis);
        LONG_LE.set(b, 24, nanoTime);
    }

    static int headerMagic(byte[] b) {
        return (int) INT_LE.get(b, 0);
    }

    static int headerVersion(byte[] b) {
        return (short) SHORT_LE.get(b, 4);
    }

    static int headerRecordSize(byte[] b) {
        return (short) SHORT_LE.get(b, 6);
    }

    static long headerLong(byte[] b, int off) {
        return (long) LONG_LE.get(b, off);
    }

    /** Complete records a log file of {@code fileSize} bytes holds if nothing in it is corrupt. */
    public static long recordsInFile(long fileSize) {
        return fileSize <= HEADER_SIZE ? 0 : (fileSize - HEADER_SIZE) / RECORD_SIZE;
    }
}
